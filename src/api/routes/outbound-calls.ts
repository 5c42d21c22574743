// Outbound calls over HTTP: POST /v1/calls places one (API key), GET /v1/calls/{call_id} reads it, and the providers
// report its progress to /v1/telephony/{provider}/outbound-status/{account}/{call_id}/{token} (the token, an HMAC
// of the call, is what authenticates them: Exotel cannot sign). The answer URLs (and Exotel's stream URL),
// /v1/telephony/{provider}/outbound/…, are the provider modules' own; the logic is src/telephony/outbound/.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { storeCall } from '../../core/store-call.js';
import { ApiError } from '../../errors.js';
import { LANGUAGE_CODES } from '../../languages.js';
import { AMD_MODES, IDEMPOTENCY_KEY_PATTERN, ON_MACHINE_ACTIONS, OUTBOUND_STATUSES, type OutboundCall } from '../../store/outbound-call.js';
import { E164 } from '../../store/telephony-settings.js';
import { integerIn } from '../../telephony/agent/agent-protocol.js';
import { AGENT_URL_SCHEMES, CREDENTIAL_PARAMETERS } from '../../telephony/call-parameters.js';
import { STATUS_WEBHOOK_SCHEMES } from '../../telephony/outbound/status-webhooks.js';
import { serverBusyError } from '../../telephony/call-admission.js';
import type { DialUrls } from '../../telephony/outbound/dialer.js';
import { OutboundCalls, type PlaceCallRequest } from '../../telephony/outbound/outbound-calls.js';
import { outboundPath, outboundStatusPath } from '../../telephony/provider-module.js';
import { OUTBOUND_PROVIDERS, providerDialer, providerModule } from '../../telephony/providers.js';
import { formOf, type Form } from '../../telephony/webhook-form.js';
import type { ApiContext, TelephonyContext } from '../context.js';
import { authenticateProviderRequest, providerRequest, sendRefusal } from '../provider-admission.js';
import { publicOrigin } from '../public-origin.js';
import { countsInRateWindow } from '../rate-window.js';
import { errorResponses, jsonResponse, typed } from '../route-schemas.js';
import { STRICT_BODY_ERRORS } from '../synthesis-request.js';
import { checkedCallParameters, PROVIDER_ONLY } from './telephony-media.js';

const PhoneNumber = z.string({ error: 'is required' }).regex(new RegExp(`^${E164.source}$`), 'must be an E.164 number such as +919812345678');

export const PlaceCallBodySchema = z.strictObject(
  {
    provider: z.enum(OUTBOUND_PROVIDERS, { error: `must be one of ${OUTBOUND_PROVIDERS.join(', ')}` }),
    to: PhoneNumber.meta({ description: 'The number to call (E.164).' }),
    from: PhoneNumber.meta({ description: "The caller ID: the account's number at the provider (Twilio number, ExoPhone, Plivo number)." }),
    voice: z.string().min(1).max(200).optional(),
    language: z.enum(LANGUAGE_CODES, { error: `must be one of ${LANGUAGE_CODES.join(', ')}` }).optional(),
    speed: z.number().min(0.5).max(2).optional(),
    greeting: z.string().max(450).optional().meta({ description: 'Spoken as soon as the callee answers (an OTP, a reminder, the first line of a conversation).' }),
    greeting_interruptible: z.boolean().optional(),
    hangup_after_greeting: z.boolean().optional().meta({ description: 'End the call once the greeting has played (a message call). Default false.' }),
    agent_url: z
      .string()
      .max(450)
      .regex(/^wss?:\/\/\S+$/, 'must be a ws:// or wss:// URL')
      .optional(),
    params: z
      .record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/, 'names must be 1-40 letters, digits or _'), z.string().max(450))
      .optional()
      .meta({ description: 'Call parameters: your own (they reach the agent in call_started) or Raaga settings such as barge_in.' }),
    amd: z
      .strictObject({ mode: z.enum(AMD_MODES).default('off'), on_machine: z.enum(ON_MACHINE_ACTIONS).default('agent') }, STRICT_BODY_ERRORS)
      .optional()
      .meta({ description: "Answering-machine detection (Twilio; Plivo with on_machine=hangup; not Exotel's streamed calls)." }),
    ring_timeout_s: integerIn(5, 120).optional(),
    time_limit_s: integerIn(10, 14_400).optional(),
    status_webhook: z
      .string()
      .max(500)
      .regex(/^https?:\/\/\S+$/, 'must be an http(s) URL')
      .optional(),
    idempotency_key: z.string().regex(IDEMPOTENCY_KEY_PATTERN, 'must be 1-255 printable characters without spaces').optional(),
    reference_id: z.string().min(1).max(128).optional().meta({ description: 'Your consent or campaign reference, kept with the call for audits.' }),
  },
  STRICT_BODY_ERRORS,
);

const CallEventSchema = z.strictObject({ sequence: z.number().int(), status: z.enum(OUTBOUND_STATUSES), at: z.string() });
export const OutboundCallSchema = z.strictObject({
  call_id: z.string(),
  provider: z.enum(OUTBOUND_PROVIDERS),
  provider_call_id: z.string().nullable(),
  status: z.enum(OUTBOUND_STATUSES),
  to: z.string(),
  from: z.string(),
  answered_by: z.string().nullable(),
  duration_s: z.number().nullable(),
  hangup_cause: z.string().nullable(),
  characters_used: z.number().nullable(),
  error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  reference_id: z.string().nullable(),
  idempotency_key: z.string().nullable(),
  created_at: z.string(),
  answered_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  events: z.array(CallEventSchema),
});

const DEFAULT_RING_TIMEOUT_S = 30;
const DEFAULT_TIME_LIMIT_S = 3600;

type StatusParams = { provider: string; accountId: string; callId: string; token: string };

/** The URLs a provider calls back on for this call (its answer URL or, as wss://, its stream URL; its status URL). */
function dialUrls(origin: string, outbound: OutboundCalls, call: OutboundCall): DialUrls {
  const tail = `${encodeURIComponent(call.accountId)}/${call.id}/${outbound.urlToken(call.accountId, call.id)}`;
  return {
    answer: `${origin}${outboundPath(call.provider)}/${tail}`,
    status: `${origin}${outboundStatusPath(call.provider)}/${tail}`,
    stream: `${origin.replace(/^http/, 'ws')}${outboundPath(call.provider)}/${tail}`,
  };
}

export function registerOutboundCallRoutes(app: FastifyInstance, ctx: ApiContext, requireAccount: (request: FastifyRequest) => Promise<void>): void {
  const telephony: TelephonyContext | undefined = ctx.telephony;
  if (!telephony) return;
  const { outbound } = telephony;
  // Placing and reading calls count in the account's rate window like synthesis requests (M2: placing was uncounted).
  const countRequest = countsInRateWindow(ctx.admission);
  const errors = errorResponses([
    'invalid_api_key',
    'validation_error',
    'voice_language_not_found',
    'provider_not_configured',
    'provider_auth_failed',
    'invalid_phone_number',
    'caller_id_not_allowed',
    'provider_rejected',
    'idempotency_conflict',
    'outside_calling_hours',
    'do_not_call',
    'rate_limit_exceeded',
    'store_unavailable',
    'provider_unavailable',
    'dnc_check_unavailable',
    'server_busy',
  ]);

  typed(app).post(
    '/v1/calls',
    {
      onRequest: requireAccount,
      preHandler: countRequest,
      schema: {
        tags: ['calls'],
        operationId: 'placeCall',
        summary: 'Place an outbound call through the account’s provider; it speaks the greeting and/or connects the agent on answer.',
        body: PlaceCallBodySchema,
        response: { 202: jsonResponse('Placed (or, with a known idempotency_key, the call it placed before).', OutboundCallSchema), ...errors },
      },
    },
    async (request, reply) => {
      const account = request.account;
      if (!account) throw new ApiError('invalid_api_key', 'Missing API key.');
      const body = request.body;
      // Counted in the window already (preHandler); before anything else is checked, booked or dialled: a process
      // that could not take the call's stream now refuses it (503, Retry-After) rather than ring a callee it may have
      // to turn away.
      const busy = telephony.callAdmission.check(body.provider);
      if (busy !== undefined) throw serverBusyError(busy);
      const amd = { mode: body.amd?.mode ?? 'off', onMachine: body.amd?.on_machine ?? 'agent' } as const;
      const amdRefusal = providerDialer(body.provider)?.amdRefusal?.(amd);
      if (amdRefusal !== undefined) throw new ApiError('validation_error', amdRefusal);
      const settings: Record<string, string> = {};
      for (const [name, value] of Object.entries(body.params ?? {})) {
        if (CREDENTIAL_PARAMETERS.has(name)) throw new ApiError('validation_error', `Field 'params.${name}' is reserved for Raaga's credentials.`);
        settings[name] = value;
      }
      const fields = { voice: body.voice, language: body.language, speed: body.speed, greeting: body.greeting, greeting_interruptible: body.greeting_interruptible, hangup_after_greeting: body.hangup_after_greeting, agent_url: body.agent_url };
      for (const [name, value] of Object.entries(fields)) if (value !== undefined) settings[name] = String(value);
      if (settings.hangup_after_greeting === 'true' && !settings.greeting) throw new ApiError('validation_error', "Field 'hangup_after_greeting' needs a 'greeting' to play first.");
      // Where the call's agent and webhook point is checked now (and again at every connection).
      for (const [field, url, schemes] of [
        ['agent_url', body.agent_url, AGENT_URL_SCHEMES],
        ['status_webhook', body.status_webhook, STATUS_WEBHOOK_SCHEMES],
      ] as const) {
        if (url === undefined) continue;
        const checked = await telephony.destinations.check(url, schemes);
        if (!checked.ok) throw new ApiError('validation_error', `Field '${field}' ${checked.reason}.`);
      }
      // Checked now, so a bad voice or setting is this request's error and not a silent call later.
      const stored = await storeCall(() => ctx.store.getTelephonySettings(account.id));
      await checkedCallParameters(ctx, telephony, account, [stored?.defaults, settings]);
      const placeRequest: PlaceCallRequest = {
        provider: body.provider,
        to: body.to,
        from: body.from,
        settings,
        amd,
        ringTimeoutS: body.ring_timeout_s ?? DEFAULT_RING_TIMEOUT_S,
        timeLimitS: body.time_limit_s ?? DEFAULT_TIME_LIMIT_S,
        statusWebhook: body.status_webhook,
        idempotencyKey: body.idempotency_key,
        referenceId: body.reference_id,
        canonicalBody: JSON.stringify(body),
      };
      const origin = publicOrigin(telephony.config, request);
      const { state, replayed } = await storeCall(() => outbound.place(account, placeRequest, (call) => dialUrls(origin, outbound, call)));
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(202).send(OutboundCalls.describe(state));
    },
  );

  typed(app).get(
    '/v1/calls/:callId',
    {
      onRequest: requireAccount,
      // An outbound call placed before the drain is still followed while it lasts.
      config: { openWhileDraining: true },
      preHandler: countRequest,
      schema: {
        tags: ['calls'],
        operationId: 'getCall',
        summary: 'An outbound call’s state: status, who answered, duration, hangup cause, characters used, and every status event.',
        params: z.object({ callId: z.string() }),
        response: { 200: jsonResponse('The call.', OutboundCallSchema), ...errorResponses(['invalid_api_key', 'not_found', 'rate_limit_exceeded', 'store_unavailable']) },
      },
    },
    async (request, reply) => {
      const account = request.account;
      if (!account) throw new ApiError('invalid_api_key', 'Missing API key.');
      const state = await storeCall(() => outbound.get(account.id, request.params.callId));
      if (!state) throw new ApiError('not_found', `No outbound call ${request.params.callId} belongs to this account (calls are kept 30 days).`);
      return reply.code(200).send(OutboundCalls.describe(state));
    },
  );

  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    // Exotel may send JSON (StatusCallbackContentType=application/json); fastify's own parser reads it.
    // The URL carries the call's token: fastify's request lines (which log URLs) stay off; the line below logs ids.
    const statusRoute = { schema: PROVIDER_ONLY, logLevel: 'warn' as const };
    scope.post<{ Params: StatusParams; Body: Form }>(`${outboundStatusPath(':provider')}/:accountId/:callId/:token`, statusRoute, async (request, reply) => {
      const { provider, accountId, callId, token } = request.params;
      const module = providerModule(provider);
      const dialer = module?.dialer;
      if (!module || !dialer || !outbound.isValidUrlToken(accountId, callId, token)) return reply.code(404).send();
      const form = formOf(request.body);
      // A provider that signs its callbacks (Twilio): with the account's credentials stored, the signature is checked as
      // well as the token.
      if (dialer.signsStatusCallbacks) {
        const settings = await storeCall(() => ctx.store.getTelephonySettings(accountId));
        const asked = providerRequest(request, telephony, { media: false, form });
        const refused = await authenticateProviderRequest(ctx.store, module, asked, settings, request.log, `${provider} outbound status`);
        if (refused) return sendRefusal(reply, refused);
      }
      const event = dialer.readStatus(form, outbound.now());
      app.log.info({ reqId: request.id, provider, accountId, callId, status: event?.status ?? null }, 'outbound call status');
      if (event) await storeCall(() => outbound.record(accountId, callId, event));
      return reply.code(204).send();
    });
  });
}
