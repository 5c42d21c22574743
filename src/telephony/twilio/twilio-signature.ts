// X-Twilio-Signature checks: webhooks (form params) and the media WebSocket upgrade (wss URL, no params), with the
// URL rebuilt from the configured public origin, because proxies rewrite the Host and scheme Twilio signed.

import twilio from 'twilio';

/**
 * True when `signature` is Twilio's HMAC of `url` + params under `authToken`. twilio.validateRequest already
 * tries the URL with and without the default port; this adds the trailing-slash variant some setups produce.
 */
export function isValidTwilioSignature(authToken: string, signature: string | undefined, url: string, params: Readonly<Record<string, string>>): boolean {
  if (!signature) return false;
  const variants = [url];
  const [path = '', query] = url.split('?', 2);
  const toggled = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
  variants.push(query === undefined ? toggled : `${toggled}?${query}`);
  return variants.some((candidate) => twilio.validateRequest(authToken, signature, candidate, { ...params }));
}

/** The URL Twilio signs for a media stream: the stream URL of the TwiML (wss for https origins). */
export function streamUrlFor(publicOrigin: string, path: string): string {
  return `${publicOrigin.replace(/^http/, 'ws')}${path}`;
}
