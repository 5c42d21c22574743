// Shared by the JSON-over-WebSocket providers' codecs (Exotel, Plivo, Asterisk's JSON control messages): reading
// one text frame as an object with a discriminating field, and base64 payloads checked strictly.

import { readTypedJson } from '../util/typed-json.js';
import type { DecodeResult } from './stream-events.js';

/** The frame's text; binary frames are refused by the caller. */
export function frameText(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.length).toString('utf8');
}

/** Parses `text` as an object whose `field` is one of `kinds`; a DecodeResult problem otherwise. */
export function readKind(text: string, field: string, kinds: ReadonlySet<string>): { ok: true; kind: string; value: unknown } | Extract<DecodeResult, { ok: false }> {
  const json = readTypedJson(text, field, kinds);
  if (json.ok) return { ok: true, kind: json.kind, value: json.value };
  if (json.problem === 'invalid-json') return { ok: false, problem: 'invalid-json', detail: 'not JSON' };
  return { ok: false, problem: 'unknown-event', detail: json.problem === 'unknown-kind' ? (json.kind ?? `no ${field} field`) : 'not an object' };
}

/** Strict base64 (Node's decoder skips junk, so lengths are compared); empty payloads are a problem too. */
export function decodeBase64Audio(payload: string): Uint8Array | undefined {
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const audio = Buffer.from(payload, 'base64');
  if (payload.length % 4 !== 0 || audio.length !== (payload.length / 4) * 3 - padding || audio.length === 0) return undefined;
  return new Uint8Array(audio.buffer, audio.byteOffset, audio.length);
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');
}

/** The first zod issue of a failed parse, as a DecodeResult problem. */
export function shapeProblem(kind: string, issues: readonly { path: PropertyKey[]; message: string }[]): Extract<DecodeResult, { ok: false }> {
  const issue = issues[0];
  return { ok: false, problem: 'invalid-shape', detail: `${kind}: ${issue ? `${issue.path.map(String).join('.')} ${issue.message}` : 'invalid'}` };
}
