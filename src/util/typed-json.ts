// The first step of every JSON message parser (TTS WebSocket, agent link, provider media streams): JSON text → an
// object whose discriminating field (`type`, `event`) names a known kind. Each parser turns the refusals into its
// own errors and validates the shape of the kind with its zod schema.

import { ApiError } from '../errors.js';

export type TypedJson =
  | { readonly ok: true; readonly value: Readonly<Record<string, unknown>>; readonly kind: string }
  | { readonly ok: false; readonly problem: 'invalid-json' | 'not-an-object' }
  | { readonly ok: false; readonly problem: 'unknown-kind'; readonly kind: string | undefined };

/** `key` is the discriminating field; `kinds` the values the parser understands. */
export function readTypedJson(raw: string, key: string, kinds: readonly string[] | ReadonlySet<string>): TypedJson {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, problem: 'invalid-json' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, problem: 'not-an-object' };
  const value = json as Record<string, unknown>;
  const kind = value[key];
  const known = typeof kind === 'string' && ('has' in kinds ? kinds.has(kind) : kinds.includes(kind));
  if (!known) return { ok: false, problem: 'unknown-kind', kind: typeof kind === 'string' ? kind.slice(0, 40) : undefined };
  return { ok: true, value, kind: kind as string };
}

/** The refusal of a message that is not a JSON object of a known `type`, for the TTS socket and the agent link. */
export function unreadableMessage(json: Exclude<TypedJson, { ok: true }>, types: readonly string[]): ApiError {
  if (json.problem !== 'unknown-kind') {
    const what = json.problem === 'invalid-json' ? 'is not valid JSON; send one JSON object with a "type" field per message' : 'must be a JSON object with a "type" field';
    return new ApiError('validation_error', `The message ${what}.`);
  }
  const shown = json.kind === undefined ? 'missing' : `'${json.kind}'`;
  return new ApiError('validation_error', `Message type ${shown} is not one of ${types.join(', ')}.`);
}
