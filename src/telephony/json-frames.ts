// Shared by the JSON-over-WebSocket providers' codecs (Exotel, Plivo, Asterisk's JSON control messages): reading
// one text frame as an object with a discriminating field, and base64 payloads checked strictly. The `media`
// message (50 a second per call) may skip zod: a hand check of its few fields gives what the schema would, and
// anything else about it goes to the schema, which words the errors.

import type { z } from 'zod';
import { readTypedJson } from '../util/typed-json.js';
import type { DecodeResult } from './stream-events.js';

/** The frame's text; binary frames are refused by the caller. */
export function frameText(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.length).toString('utf8');
}

/** How a JSON provider's inbound frames are read (decodeJsonFrame). */
export interface JsonFrameFormat<T> {
  readonly sender: string;
  readonly field: string;
  readonly kinds: ReadonlySet<string>;
  readonly schema: z.ZodType<T>;
  /** The `media` kind read without the schema (mediaFastPath): the schema's own result, or undefined to ask it. */
  readonly media?: ((value: Readonly<Record<string, unknown>>) => T | undefined) | undefined;
}

/**
 * One inbound text frame of a JSON provider, read whole: binary frames refused (`sender` names who sent it in the
 * problem), the discriminating `field` checked against `kinds`, then the schema (or, for a plain `media` message,
 * the format's fast path).
 */
export function decodeJsonFrame<T>(data: Uint8Array, isBinary: boolean, frame: JsonFrameFormat<T>): { ok: true; message: T } | Extract<DecodeResult, { ok: false }> {
  if (isBinary) return { ok: false, problem: 'binary-frame', detail: `${frame.sender} sends JSON text frames only` };
  const read = readKind(frameText(data), frame.field, frame.kinds);
  if (!read.ok) return read;
  if (read.kind === 'media' && frame.media !== undefined) {
    const message = frame.media(read.value as Readonly<Record<string, unknown>>);
    if (message !== undefined) return { ok: true, message };
  }
  const parsed = frame.schema.safeParse(read.value);
  if (!parsed.success) return shapeProblem(read.kind, parsed.error.issues);
  return { ok: true, message: parsed.data };
}

/** A field as a fast path reads it: its value as the schema gives it, or NOT_PLAIN when it is not certainly valid. */
export type FieldReader = (value: unknown) => unknown;
/** A field value the fast path leaves to the schema (absent optional fields are `undefined`, and stay absent). */
export const NOT_PLAIN: unique symbol = Symbol('not plain');

const DIGITS = /^\d{1,15}$/;

/**
 * The providers' counts (zod: `^\d{1,15}$` as a string, or a non-negative integer, as a number): a number, or
 * NOT_PLAIN. zod's `.int()` takes safe integers only, so a larger number is left to it (and refused there).
 */
export const countField: FieldReader = (value) => {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : NOT_PLAIN;
  return typeof value === 'string' && DIGITS.test(value) ? Number(value) : NOT_PLAIN;
};

/** A string of `min`–`max` UTF-16 units (zod's `.min()`/`.max()`). */
export function stringField(min = 0, max = Infinity): FieldReader {
  return (value) => (typeof value === 'string' && value.length >= min && value.length <= max ? value : NOT_PLAIN);
}

/**
 * A reading of the `media` message without zod, for a schema of the form `{ event: 'media', <optional fields>,
 * media: { <optional fields>, payload: string } }` (zod's objects drop unknown keys and leave absent optional ones
 * out, and so does this). It gives the schema's exact result for a frame whose fields all read plainly, else
 * undefined: then the schema reads the frame and words its error. `message` and `media` list the optional fields in
 * the schema's order, each with the reader that checks it as the schema does (or more strictly, never less).
 */
export function mediaFastPath<T>(fields: { readonly message: Readonly<Record<string, FieldReader>>; readonly media: Readonly<Record<string, FieldReader>> }): (value: Readonly<Record<string, unknown>>) => T | undefined {
  const messageFields = Object.entries(fields.message);
  const mediaFields = Object.entries(fields.media);
  return (value) => {
    const media = value.media;
    if (typeof media !== 'object' || media === null || Array.isArray(media)) return undefined;
    const inner = media as Readonly<Record<string, unknown>>;
    const payload = inner.payload;
    if (typeof payload !== 'string') return undefined;
    const message: Record<string, unknown> = { event: 'media' };
    if (!readFields(value, messageFields, message)) return undefined;
    const out: Record<string, unknown> = {};
    if (!readFields(inner, mediaFields, out)) return undefined;
    out.payload = payload;
    message.media = out;
    return message as T;
  };
}

/** Copies the optional fields present in `from` into `to`, read; false when one does not read plainly. */
function readFields(from: Readonly<Record<string, unknown>>, fields: readonly (readonly [string, FieldReader])[], to: Record<string, unknown>): boolean {
  for (const [name, read] of fields) {
    const raw = from[name];
    if (raw === undefined) continue;
    const value = read(raw);
    if (value === NOT_PLAIN) return false;
    to[name] = value;
  }
  return true;
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
