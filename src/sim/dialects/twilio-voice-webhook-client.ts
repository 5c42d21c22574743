// Plays Twilio's first step of a call: POSTs the voice webhook form-encoded (signed like Twilio when given the auth
// token), and reads the stream URL and <Parameter>s out of the TwiML <Connect><Stream> answer, so a simulated call can
// go webhook → media stream like a real one. No XML dependency: TwiML from the server is small and regular.

import { randomBytes } from 'node:crypto';
import twilio from 'twilio';
import { decodeXml } from '../../util/xml-entities.js';

export const VOICE_WEBHOOK_PATH = '/v1/telephony/twilio/voice';

export interface VoiceWebhookRequest {
  /** Where to POST, e.g. http://127.0.0.1:8080 + VOICE_WEBHOOK_PATH. */
  readonly url: string;
  /** Signs with X-Twilio-Signature over `signedUrl` (the public URL the server validates; defaults to `url`). */
  readonly authToken?: string;
  readonly signedUrl?: string;
  /** Form fields; CallSid, AccountSid, From, To, CallStatus and Direction get Twilio-like defaults. */
  readonly params?: Readonly<Record<string, string>>;
}

export interface StreamInstruction {
  readonly twiml: string;
  /** The <Stream url> (wss://…). */
  readonly streamUrl: string;
  readonly parameters: Readonly<Record<string, string>>;
  /** The form fields that were posted (CallSid etc.), to reuse in the stream's `start`. */
  readonly params: Readonly<Record<string, string>>;
}

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of tag.matchAll(/([A-Za-z_:][\w:.-]*)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    out[match[1]!] = decodeXml(match[3] ?? match[4] ?? '');
  }
  return out;
}

/** Attributes of an opening tag; quoted values may hold '>' (the twilio builder leaves it unescaped). */
const ATTRS = `((?:\\s+[^\\s=/>]+\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*`;

/** Finds <Connect><Stream url>…<Parameter name value/>… in TwiML; throws when there is no bidirectional stream. */
export function parseStreamTwiml(twiml: string): { streamUrl: string; parameters: Record<string, string> } {
  const connect = new RegExp(`<Connect${ATTRS}>([\\s\\S]*?)</Connect>`).exec(twiml);
  const stream = connect && new RegExp(`<Stream${ATTRS}(/>|>([\\s\\S]*?)</Stream>)`).exec(connect[2]!);
  const streamUrl = stream ? attributes(stream[1]!).url : undefined;
  if (!stream || streamUrl === undefined) {
    // A server that cannot take the call now answers <Reject reason="busy"/> (Twilio plays busy to the caller).
    const reject = new RegExp(`<Reject${ATTRS}/?>`).exec(twiml);
    if (reject) throw new Error(`the voice webhook rejected the call (${attributes(reject[1]!).reason ?? 'rejected'})`);
    throw new Error('TwiML has no <Connect><Stream url>');
  }
  const parameters: Record<string, string> = {};
  for (const match of (stream[3] ?? '').matchAll(new RegExp(`<Parameter${ATTRS}/?>`, 'g'))) {
    const { name, value } = attributes(match[1]!);
    if (name !== undefined) parameters[name] = value ?? '';
  }
  return { streamUrl, parameters };
}

/** POSTs the voice webhook like Twilio and returns the stream it is told to open. */
export async function fetchStreamInstruction(request: VoiceWebhookRequest): Promise<StreamInstruction> {
  const params: Record<string, string> = {
    CallSid: `CA${randomBytes(16).toString('hex')}`,
    AccountSid: `AC${randomBytes(16).toString('hex')}`,
    From: '+919800000001',
    To: '+918000000002',
    CallStatus: 'ringing',
    Direction: 'inbound',
    ApiVersion: '2010-04-01',
    ...request.params,
  };
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (request.authToken !== undefined) {
    headers['x-twilio-signature'] = twilio.getExpectedTwilioSignature(request.authToken, request.signedUrl ?? request.url, params);
  }
  const response = await fetch(request.url, { method: 'POST', headers, body: new URLSearchParams(params).toString() });
  const twiml = await response.text();
  if (!response.ok) throw new Error(`voice webhook answered ${response.status}: ${twiml.slice(0, 200)}`);
  return { twiml, ...parseStreamTwiml(twiml), params };
}
