// The Twilio side of a bidirectional Media Stream, as the simulator speaks it: the messages Twilio sends (built here,
// numeric fields as strings like Twilio's own) and a loose reading of the ones a server sends back (media, mark, clear).
// Kept apart from the bridge's zod schemas on purpose: the peer is an independent implementation to test against.

import { readTypedJson } from '../../../util/typed-json.js';

export interface StartInfo {
  readonly streamSid: string;
  readonly callSid: string;
  readonly accountSid: string;
  readonly customParameters: Readonly<Record<string, string>>;
}

export const MEDIA_FORMAT = { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 } as const;

export function connectedMessage(): object {
  return { event: 'connected', protocol: 'Call', version: '1.0.0' };
}

export function startMessage(sequenceNumber: number, info: StartInfo): object {
  return {
    event: 'start',
    sequenceNumber: String(sequenceNumber),
    streamSid: info.streamSid,
    start: {
      accountSid: info.accountSid,
      streamSid: info.streamSid,
      callSid: info.callSid,
      tracks: ['inbound'],
      customParameters: { ...info.customParameters },
      mediaFormat: MEDIA_FORMAT,
    },
  };
}

/** `chunk` counts media messages from 1; `timestamp` is ms of audio since the stream started. */
export function mediaMessage(sequenceNumber: number, streamSid: string, chunk: number, timestampMs: number, payload: Uint8Array): object {
  return {
    event: 'media',
    sequenceNumber: String(sequenceNumber),
    streamSid,
    media: { track: 'inbound', chunk: String(chunk), timestamp: String(Math.round(timestampMs)), payload: Buffer.from(payload).toString('base64') },
  };
}

export function dtmfMessage(sequenceNumber: number, streamSid: string, digit: string): object {
  return { event: 'dtmf', sequenceNumber: String(sequenceNumber), streamSid, dtmf: { track: 'inbound_track', digit } };
}

export function markEchoMessage(sequenceNumber: number, streamSid: string, name: string): object {
  return { event: 'mark', sequenceNumber: String(sequenceNumber), streamSid, mark: { name } };
}

export function stopMessage(sequenceNumber: number, info: StartInfo): object {
  return { event: 'stop', sequenceNumber: String(sequenceNumber), streamSid: info.streamSid, stop: { accountSid: info.accountSid, callSid: info.callSid } };
}

export type ServerMessage =
  | { readonly event: 'media'; readonly payload: Uint8Array }
  | { readonly event: 'mark'; readonly name: string }
  | { readonly event: 'clear' }
  | { readonly event: 'other'; readonly reason: string };

/** Reads one text frame from the server; anything Twilio would reject comes back as `other` with the reason. */
export function parseServerMessage(text: string): ServerMessage {
  const json = readTypedJson(text, 'event', ['media', 'mark', 'clear']);
  if (!json.ok) {
    if (json.problem === 'unknown-kind') return { event: 'other', reason: `unknown event ${String(json.kind)}` };
    return { event: 'other', reason: json.problem === 'invalid-json' ? 'not JSON' : 'not an object' };
  }
  const m = json.value as { media?: { payload?: unknown }; mark?: { name?: unknown } };
  switch (json.kind) {
    case 'media':
      if (typeof m.media?.payload !== 'string') return { event: 'other', reason: 'media without payload' };
      return { event: 'media', payload: new Uint8Array(Buffer.from(m.media.payload, 'base64')) };
    case 'mark':
      if (typeof m.mark?.name !== 'string') return { event: 'other', reason: 'mark without name' };
      return { event: 'mark', name: m.mark.name };
    default:
      return { event: 'clear' };
  }
}
