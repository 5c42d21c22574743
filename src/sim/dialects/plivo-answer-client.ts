// Plays Plivo's first step of a call for the simulator: requests the answer URL (form POST, signed with
// X-Plivo-Signature-V3 when given the auth token) and reads the bidirectional <Stream> URL out of the XML.

import { randomBytes, randomUUID } from 'node:crypto';
import { decodeXml } from '../../util/xml-entities.js';
import { plivoSignatureV3 } from '../../telephony/plivo/plivo-signature.js';

export interface PlivoAnswer {
  readonly xml: string;
  /** The wss URL of the <Stream> element (token in its path, settings in its query). */
  readonly streamUrl: string;
  /** The CallUUID that was posted (the stream's callId must match it). */
  readonly callUuid: string;
}

/** Signature headers for a Plivo request (a fresh nonce each time). */
export function plivoSignatureHeaders(authToken: string, method: 'GET' | 'POST', url: string, params: Readonly<Record<string, string>>): Record<string, string> {
  const nonce = randomBytes(10).toString('hex');
  return { 'x-plivo-signature-v3': plivoSignatureV3(authToken, { method, url, nonce, params }), 'x-plivo-signature-v3-nonce': nonce };
}

export async function fetchPlivoAnswer(request: { url: string; signedUrl?: string; authToken?: string; from?: string; to?: string }): Promise<PlivoAnswer> {
  const callUuid = randomUUID();
  const params = { CallUUID: callUuid, From: request.from ?? '919800000001', To: request.to ?? '918000000002', Direction: 'inbound', CallStatus: 'in-progress', Event: 'StartApp' };
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (request.authToken !== undefined) Object.assign(headers, plivoSignatureHeaders(request.authToken, 'POST', request.signedUrl ?? request.url, params));
  const response = await fetch(request.url, { method: 'POST', headers, body: new URLSearchParams(params).toString() });
  const xml = await response.text();
  if (!response.ok) throw new Error(`Plivo answer URL answered ${response.status}: ${xml.slice(0, 200)}`);
  const stream = /<Stream\b[^>]*\bbidirectional="true"[^>]*>([^<]+)<\/Stream>/.exec(xml);
  // A server that cannot take the call now answers <Hangup reason="busy"/>.
  const hangup = /<Hangup\b(?:[^>]*\breason="([^"]*)")?[^>]*\/?>/.exec(xml);
  if (!stream && hangup) throw new Error(`the answer URL hung up the call (${hangup[1] ?? 'hangup'})`);
  if (!stream) throw new Error('answer XML has no bidirectional <Stream>');
  const streamUrl = decodeXml(stream[1]!);
  return { xml, streamUrl, callUuid };
}
