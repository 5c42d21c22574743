// REST call control for IVR flows without an agent: POST /v1/calls/{callSid}/say | cancel | hangup | transfer |
// gather and GET /v1/calls/{callSid}/gather/{gatherId} (a long-poll), with the account's API key, for that account's
// calls only (any other CallSid is 404); an outbound call's call_… id works as well as its provider's id. Commands
// reach the call through the call-control bus, so the instance holding the call need not be the one that got the request.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { checkText } from '../../core/text/text-limits.js';
import { ApiError, type ErrorCode } from '../../errors.js';
import { GATHER_REASONS, GATHER_RESULTS_KEPT, type GatherReason } from '../../session/dtmf-gather.js';
import { CALL_ID_PATTERN, type CallCommand } from '../../call-commands.js';
import { OUTBOUND_CALL_ID_PATTERN, summarizeOutboundCall } from '../../store/outbound-call.js';
import { storeCall } from '../../core/store-call.js';
import { GATHER_FIELDS, gatherRequest, integerIn, TRANSFER_FIELDS, UTTERANCE_ID } from '../../telephony/agent/agent-protocol.js';
import type { ApiContext } from '../context.js';
import { countsInRateWindow } from '../rate-window.js';
import { errorResponses, jsonResponse, typed } from '../route-schemas.js';
import { STRICT_BODY_ERRORS } from '../synthesis-request.js';

const LIVE_CALL_ROUTE = { openWhileDraining: true } as const;

const SayBodySchema = z.strictObject(
  { text: z.string({ error: 'is required and must be a string' }), interruptible: z.boolean().optional(), utterance_id: UTTERANCE_ID.optional() },
  STRICT_BODY_ERRORS,
);
const HangupBodySchema = z.strictObject({ drain: z.boolean().optional() }, STRICT_BODY_ERRORS);
const SayResultSchema = z.strictObject({ call_sid: z.string(), utterance_id: z.string().nullable(), status: z.literal('queued') });
const CancelResultSchema = z.strictObject({ call_sid: z.string(), status: z.literal('cancelled') });
const HangupResultSchema = z.strictObject({ call_sid: z.string(), status: z.literal('hanging_up') });
const TransferBodySchema = z.strictObject(TRANSFER_FIELDS, STRICT_BODY_ERRORS);
const TransferResultSchema = z.strictObject({ call_sid: z.string(), status: z.literal('transferring') });
const GatherBodySchema = z.strictObject(GATHER_FIELDS, STRICT_BODY_ERRORS);
const GatherStartedSchema = z.strictObject({ call_sid: z.string(), gather_id: z.string(), status: z.literal('gathering') });
/** A long-poll answers within this long at most (below common proxy and load-balancer idle timeouts). */
const MAX_GATHER_WAIT_MS = 25_000;
const GatherQuerySchema = z.strictObject({
  wait_ms: integerIn(0, MAX_GATHER_WAIT_MS, { coerce: true })
    .default(MAX_GATHER_WAIT_MS)
    .meta({ description: `How long to wait for the result when it is not decided yet (ms, default and most ${MAX_GATHER_WAIT_MS}); 0 answers at once.` }),
});
const GatherResultSchema = z.strictObject({
  call_sid: z.string(),
  gather_id: z.string(),
  status: z.enum(['pending', 'done']).meta({ description: '`pending`: still collecting (ask again); `done`: decided.' }),
  digits: z.string().nullable().meta({ description: 'The keys pressed (the finish key not included); null while pending.' }),
  reason: z
    .enum(GATHER_REASONS)
    .nullable()
    .meta({ description: 'Why it ended: the finish key, num_digits reached, no key in time, a newer gather, or the call ended; null while pending.' }),
});
const GatherParamsSchema = z.object({ callSid: z.string(), gatherId: z.string() });

/** Any text: a CallSid of the wrong shape is answered like an unknown one (404), not as a validation error. */
const CallParamsSchema = z.object({ callSid: z.string() });
type CallRequest = Pick<FastifyRequest, 'account'> & { readonly params: z.output<typeof CallParamsSchema> };

export function registerCallControlRoutes(app: FastifyInstance, ctx: ApiContext, requireAccount: (request: FastifyRequest) => Promise<void>): void {
  const telephony = ctx.telephony;
  if (!telephony) return;

  /** An outbound call's Raaga id (call_…) stands for its media stream's id, once the callee answered. */
  const liveCallId = async (accountId: string, id: string): Promise<string> => {
    if (!OUTBOUND_CALL_ID_PATTERN.test(id)) return id;
    const state = await storeCall(() => telephony.outbound.get(accountId, id));
    const summary = state ? summarizeOutboundCall(state) : undefined;
    return summary?.streamCallId ?? summary?.providerCallId ?? '';
  };

  const send = async (request: CallRequest, command: CallCommand) => {
    const account = request.account;
    if (!account) throw new ApiError('invalid_api_key', 'Missing API key.');
    const callSid = await liveCallId(account.id, request.params.callSid);
    if (!CALL_ID_PATTERN.test(callSid)) throw new ApiError('not_found', 'No live call with this CallSid belongs to this account.');
    const result = await telephony.calls.send(callSid, account.id, command);
    if (!result.ok) {
      throw result.reason === 'not_found'
        ? new ApiError('not_found', result.message)
        : new ApiError('store_unavailable', result.message, { retryAfterSeconds: 1 });
    }
    return result;
  };

  const doc = (operationId: string, summary: string) => ({ tags: ['calls'], operationId, summary });
  const errors = (...more: ErrorCode[]) => errorResponses(['invalid_api_key', 'not_found', 'validation_error', 'rate_limit_exceeded', 'store_unavailable', ...more]);
  // Each command, and each long-poll, is one request of the account's rate window (a say's speech is counted and
  // billed again when it starts, as an agent's text is).
  const countRequest = countsInRateWindow(ctx.admission);

  typed(app).post(
    '/v1/calls/:callSid/say',
    {
      onRequest: requireAccount,
      // A live call is controlled until it ends, a draining server's included.
      config: LIVE_CALL_ROUTE,
      preHandler: countRequest,
      schema: {
        ...doc('callSay', "Queue a text on a live call (like an agent's text); the request counts in the rate window, and its speech counts and is billed when it starts."),
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
      // A live call is controlled until it ends, a draining server's included.
      config: LIVE_CALL_ROUTE,
      preHandler: countRequest,
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
      // A live call is controlled until it ends, a draining server's included.
      config: LIVE_CALL_ROUTE,
      preHandler: countRequest,
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
  typed(app).post(
    '/v1/calls/:callSid/transfer',
    {
      onRequest: requireAccount,
      // A live call is controlled until it ends, a draining server's included.
      config: LIVE_CALL_ROUTE,
      preHandler: countRequest,
      schema: {
        ...doc('callTransfer', 'Transfer the call to a number or SIP URI (with caller_id and ring timeout where the provider dials: Twilio, Plivo).'),
        params: CallParamsSchema,
        body: TransferBodySchema,
        response: { 202: jsonResponse('Transferring; the media stream ends.', TransferResultSchema), ...errors() },
      },
    },
    async (request, reply) => {
      const { to, caller_id: callerId, timeout_s: timeoutS } = request.body;
      await send(request, { type: 'transfer', to, callerId, timeoutS });
      return reply.code(202).send({ call_sid: request.params.callSid, status: 'transferring' });
    },
  );

  typed(app).post(
    '/v1/calls/:callSid/gather',
    {
      onRequest: requireAccount,
      // A live call is controlled until it ends, a draining server's included.
      config: LIVE_CALL_ROUTE,
      preHandler: countRequest,
      schema: {
        ...doc('callGather', 'Collect keys: speak `prompt` (billed as a say), then take digits until the finish key, num_digits or a timeout.'),
        params: CallParamsSchema,
        body: GatherBodySchema,
        response: { 202: jsonResponse('Gathering; read the result with GET …/gather/{gather_id}.', GatherStartedSchema), ...errors('text_too_long') },
      },
    },
    async (request, reply) => {
      if (request.body.prompt !== undefined) checkText(request.body.prompt);
      const result = await send(request, { type: 'gather', gather: gatherRequest(request.body) });
      return reply.code(202).send({ call_sid: request.params.callSid, gather_id: result.gatherId ?? '', status: 'gathering' });
    },
  );

  typed(app).get(
    '/v1/calls/:callSid/gather/:gatherId',
    {
      onRequest: requireAccount,
      // A live call is controlled until it ends, a draining server's included.
      config: LIVE_CALL_ROUTE,
      preHandler: countRequest,
      schema: {
        ...doc('callGatherResult', `A gather's result, waiting up to \`wait_ms\` for it (long-poll). Kept for the call's last ${GATHER_RESULTS_KEPT} gathers while it lasts.`),
        params: GatherParamsSchema,
        querystring: GatherQuerySchema,
        response: { 200: jsonResponse('Decided, or still pending after the wait.', GatherResultSchema), ...errors() },
      },
    },
    async (request, reply) => {
      const { callSid, gatherId } = request.params;
      const result = await send(request, { type: 'gather_result', gatherId, waitMs: request.query.wait_ms });
      const gather = result.gather ?? { status: 'pending' as const };
      return reply.code(200).send({
        call_sid: callSid,
        gather_id: gatherId,
        status: gather.status,
        digits: gather.status === 'done' ? gather.digits : null,
        // The holder's session decided it, so it is one of GATHER_REASONS; the bus carries it as a string.
        reason: gather.status === 'done' ? (gather.reason as GatherReason) : null,
      });
    },
  );
}
