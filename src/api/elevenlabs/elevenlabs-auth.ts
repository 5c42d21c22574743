// ElevenLabs' clients send their key as `xi-api-key`; Raaga's keys work there unchanged. `Authorization: Bearer` is
// taken too, so a client configured either way reaches the same account.

import type { FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { authenticate } from '../auth.js';
import type { ApiContext } from '../context.js';
import { ApiError } from '../../errors.js';

/** Where the dialect lives: ElevenLabs' own `GET /v1/voices` would collide with the spec's. */
export const ELEVENLABS_PREFIX = '/elevenlabs/v1';
/**
 * The same sockets with each message's alignment counted from the start of that message's audio, as pipecat's
 * ElevenLabs service reads it (it adds up the messages itself); under ELEVENLABS_PREFIX times run from the context's
 * start, as LiveKit's plugin reads them. docs/elevenlabs.md says which client wants which.
 */
export const ELEVENLABS_MESSAGE_TIMES_PREFIX = '/elevenlabs/message-times/v1';
/** Every path of the dialect starts with this. */
export const ELEVENLABS_ROOT = '/elevenlabs/';

export const XI_API_KEY_HEADER = 'xi-api-key';

/** The key the request carries, if any: `xi-api-key`, else a Bearer token. */
export function elevenLabsKey(headers: IncomingHttpHeaders): string | undefined {
  const xi = headers[XI_API_KEY_HEADER];
  const value = Array.isArray(xi) ? xi[0] : xi;
  if (value !== undefined && value !== '') return value;
  const authorization = headers.authorization;
  return authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : undefined;
}

/** The onRequest hook of the dialect's HTTP routes: the account of the key, or 401. */
export function requireElevenLabsAccount(ctx: Pick<ApiContext, 'store'>) {
  return async (request: FastifyRequest): Promise<void> => {
    const key = elevenLabsKey(request.headers);
    if (key === undefined) throw new ApiError('invalid_api_key', `Send your Raaga API key in the ${XI_API_KEY_HEADER} header.`);
    const principal = await authenticate(ctx.store, `Bearer ${key}`);
    request.account = principal.account;
    request.apiKeyId = principal.keyId;
    request.log = request.log.child({ accountId: principal.account.id });
  };
}
