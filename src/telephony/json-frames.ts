// Shared by the JSON-over-WebSocket providers' codecs (Exotel, Plivo, Asterisk's JSON control messages): reading
// one text frame as an object with a discriminating field, and base64 payloads checked strictly.

import type { z } from 'zod';
import { readTypedJson } from '../util/typed-json.js';
import type { DecodeResult } from './stream-events.js';

/** The frame's text; binary frames are refused by the caller. */
export function frameText(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.length).toString('utf8');
}

/**
 * One inbound text frame of a JSON provider, read whole: binary frames refused (`sender` names who sent it in the
 * problem), the discriminating `field` checked against `kinds`, then the schema.
 */
export function decodeJsonFrame<T>(
  data: Uint8Array,
  isBinary: boolean,
  frame: { readonly sender: string; readonly field: string; readonly kinds: ReadonlySet<string>; readonly schema: z.ZodType<T> },
): { ok: true; message: T } | Extract<DecodeResult, { ok: false }> {
  if (isBinary) return { ok: false, problem: 'binary-frame', detail: `${frame.sender} sends JSON text frames only` };
  const read = readKind(frameText(data), frame.field, frame.kinds);
  if (!read.ok) return read;
  const parsed = frame.schema.safeParse(read.value);
  if (!parsed.success) return shapeProblem(read.kind, parsed.error.issues);
  return { ok: true, message: parsed.data };
}

/** Parses `text` as an object whose `field` is one of `kinds`; a DecodeResult problem otherwise. */
export function readKind(text: string, field: string, kinds: ReadonlySet<string>): { ok: true; kind: string; value: unknown } | Extract<DecodeResult, { ok: false }> {
  const json = readTypedJson(text, field, kinds);
  if (json.ok) return { ok: true, kind: json.kind, value: json.value };
  if (json.problem === 'invalid-json') return { ok: false, problem: 'invalid-json', detail: 'not JSON' };
  return { ok: false, problem: 'unknown-event', detail: json.problem === 'unknown-kind' ? (json.kind ?? `no ${field} field`) : 'not an object' };
}

export type DecodedPayload = { readonly ok: true; readonly audio: Uint8Array } | { readonly ok: false; readonly problem: 'not-base64' | 'empty' };

/** A media payload checked strictly: Node's decoder skips characters outside the alphabet, so a payload with any
 * decodes short, and comparing lengths checks every character natively (a regex here cost ~2 % of the event loop
 * at 16 calls). */
export function decodeBase64Audio(payload: string): DecodedPayload {
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const audio = Buffer.from(payload, 'base64');
  if (payload.length % 4 !== 0 || audio.length !== (payload.length / 4) * 3 - padding) return { ok: false, problem: 'not-base64' };
  if (audio.length === 0) return { ok: false, problem: 'empty' };
  return { ok: true, audio: new Uint8Array(audio.buffer, audio.byteOffset, audio.length) };
}

/** A decoded media payload as a stream event, or the problem with it. */
export function audioEvent(payload: string, atMs?: number): DecodeResult {
  const decoded = decodeBase64Audio(payload);
  if (!decoded.ok) return { ok: false, problem: decoded.problem, detail: 'inbound media payload' };
  return { ok: true, event: { type: 'audio', audio: decoded.audio, atMs } };
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');
}

/** The first zod issue of a failed parse, as a DecodeResult problem. */
export function shapeProblem(kind: string, issues: readonly { path: PropertyKey[]; message: string }[]): Extract<DecodeResult, { ok: false }> {
  const issue = issues[0];
  return { ok: false, problem: 'invalid-shape', detail: `${kind}: ${issue ? `${issue.path.map(String).join('.')} ${issue.message}` : 'invalid'}` };
}
