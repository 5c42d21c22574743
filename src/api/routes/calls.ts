// REST call control for IVR flows without an agent: POST /v1/calls/{callSid}/say | cancel | hangup with the
// account's API key, for that account's calls only (any other CallSid is 404). Commands reach the call through
// the call-control bus, so the instance holding the call need not be the one that got the request.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { checkText } from '../../core/text/text-limits.js';
import { ApiError } from '../../errors.js';
import type { CallCommand } from '../../store/call-control-bus.js';
import { UTTERANCE_ID } from '../../telephony/agent/agent-protocol.js';
import type { ApiContext } from '../context.js';
import { STRICT_BODY_ERRORS, validationError } from '../synthesis-request.js';

const SayBodySchema = z.strictObject(
  { text: z.string({ error: 'is required and must be a string' }), interruptible: z.boolean().optional(), utterance_id: UTTERANCE_ID.optional() },
  STRICT_BODY_ERRORS,
);
const HangupBodySchema = z.strictObject({ drain: z.boolean().optional() }, STRICT_BODY_ERRORS);
const CALL_SID = /^[A-Za-z0-9]{2,64}$/;

type CallParams = { callSid: string };

export function registerCallControlRoutes(app: FastifyInstance, ctx: ApiContext, requireAccount: (request: FastifyRequest) => Promise<void>): void {
  const telephony = ctx.telephony;
  if (!telephony) return;

  const send = async (request: FastifyRequest<{ Params: CallParams }>, command: CallCommand) => {
    const account = request.account;
    if (!account) throw new ApiError('invalid_api_key', 'Missing API key.');
    const { callSid } = request.params;
    if (!CALL_SID.test(callSid)) throw new ApiError('not_found', 'No live call with this CallSid belongs to this account.');
    const result = await telephony.calls.send(callSid, account.id, command);
    if (!result.ok) {
      throw result.reason === 'not_found'
        ? new ApiError('not_found', result.message)
        : new ApiError('store_unavailable', result.message, { retryAfterSeconds: 1 });
    }
    return result;
  };

  app.post<{ Params: CallParams }>('/v1/calls/:callSid/say', { onRequest: requireAccount }, async (request, reply) => {
    const parsed = SayBodySchema.safeParse(request.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    checkText(parsed.data.text);
    const result = await send(request, {
      type: 'say',
      text: parsed.data.text,
      interruptible: parsed.data.interruptible ?? true,
      utteranceId: parsed.data.utterance_id,
    });
    return reply.code(202).send({ call_sid: request.params.callSid, utterance_id: result.utteranceId ?? null, status: 'queued' });
  });

  app.post<{ Params: CallParams }>('/v1/calls/:callSid/cancel', { onRequest: requireAccount }, async (request, reply) => {
    await send(request, { type: 'cancel' });
    return reply.code(200).send({ call_sid: request.params.callSid, status: 'cancelled' });
  });

  app.post<{ Params: CallParams }>('/v1/calls/:callSid/hangup', { onRequest: requireAccount }, async (request, reply) => {
    const parsed = HangupBodySchema.safeParse(request.body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    await send(request, { type: 'hangup', drain: parsed.data.drain ?? true });
    return reply.code(202).send({ call_sid: request.params.callSid, status: 'hanging_up' });
  });
}
