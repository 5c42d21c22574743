// REST call control for IVR flows without an agent: POST /v1/calls/{callSid}/say | cancel | hangup with the
// account's API key, for that account's calls only (any other CallSid is 404). Commands reach the call through
// the call-control bus, so the instance holding the call need not be the one that got the request.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { checkText } from '../../core/text/text-limits.js';
import { ApiError, type ErrorCode } from '../../errors.js';
import type { CallCommand } from '../../store/call-control-bus.js';
import { UTTERANCE_ID } from '../../telephony/agent/agent-protocol.js';
import type { ApiContext } from '../context.js';
import { errorResponses, jsonResponse, typed } from '../route-schemas.js';
import { STRICT_BODY_ERRORS } from '../synthesis-request.js';

const SayBodySchema = z.strictObject(
  { text: z.string({ error: 'is required and must be a string' }), interruptible: z.boolean().optional(), utterance_id: UTTERANCE_ID.optional() },
  STRICT_BODY_ERRORS,
);
const HangupBodySchema = z.strictObject({ drain: z.boolean().optional() }, STRICT_BODY_ERRORS);
/** Any provider's call id: Twilio CallSid, Plivo CallUUID (hyphens), Asterisk channel id (dots), AudioSocket UUID. */
const CALL_SID = /^[A-Za-z0-9][A-Za-z0-9._:-]{1,127}$/;
const SayResultSchema = z.strictObject({ call_sid: z.string(), utterance_id: z.string().nullable(), status: z.literal('queued') });
const CancelResultSchema = z.strictObject({ call_sid: z.string(), status: z.literal('cancelled') });
const HangupResultSchema = z.strictObject({ call_sid: z.string(), status: z.literal('hanging_up') });

/** Any text: a CallSid of the wrong shape is answered like an unknown one (404), not as a validation error. */
const CallParamsSchema = z.object({ callSid: z.string() });
type CallRequest = Pick<FastifyRequest, 'account'> & { readonly params: z.output<typeof CallParamsSchema> };

export function registerCallControlRoutes(app: FastifyInstance, ctx: ApiContext, requireAccount: (request: FastifyRequest) => Promise<void>): void {
  const telephony = ctx.telephony;
  if (!telephony) return;

  const send = async (request: CallRequest, command: CallCommand) => {
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

  const doc = (operationId: string, summary: string) => ({ tags: ['calls'], operationId, summary });
  const errors = (...more: ErrorCode[]) => errorResponses(['invalid_api_key', 'not_found', 'validation_error', 'store_unavailable', ...more]);

  typed(app).post(
    '/v1/calls/:callSid/say',
    {
      onRequest: requireAccount,
      schema: {
        ...doc('callSay', "Queue a text on a live call (like an agent's text); rate limit and credits apply when it starts."),
        params: CallParamsSchema,
        body: SayBodySchema,
        response: { 202: jsonResponse('Queued.', SayResultSchema), ...errors('text_too_long') },
      },
    },
    async (request, reply) => {
      checkText(request.body.text);
      const result = await send(request, {
        type: 'say',
        text: request.body.text,
        interruptible: request.body.interruptible ?? true,
        utteranceId: request.body.utterance_id,
      });
      return reply.code(202).send({ call_sid: request.params.callSid, utterance_id: result.utteranceId ?? null, status: 'queued' });
    },
  );

  typed(app).post(
    '/v1/calls/:callSid/cancel',
    {
      onRequest: requireAccount,
      schema: { ...doc('callCancel', 'Stop what the call is saying and drop its queue.'), params: CallParamsSchema, response: { 200: jsonResponse('Cancelled.', CancelResultSchema), ...errors() } },
    },
    async (request, reply) => {
      await send(request, { type: 'cancel' });
      return reply.code(200).send({ call_sid: request.params.callSid, status: 'cancelled' });
    },
  );

  typed(app).post(
    '/v1/calls/:callSid/hangup',
    {
      onRequest: requireAccount,
      schema: {
        ...doc('callHangup', 'Hang up, by default after what is queued has played (`drain`).'),
        params: CallParamsSchema,
        body: HangupBodySchema.optional(),
        response: { 202: jsonResponse('Hanging up.', HangupResultSchema), ...errors() },
      },
    },
    async (request, reply) => {
      await send(request, { type: 'hangup', drain: request.body?.drain ?? true });
      return reply.code(202).send({ call_sid: request.params.callSid, status: 'hanging_up' });
    },
  );
}
