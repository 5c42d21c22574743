// The Twilio surface (and Smartflo, its dialect): the voice webhook answering TwiML (POST or GET, R6), the stream
// status callback (stream errors counted, R11), and the media WebSockets. Registered in a scope with its own
// form-urlencoded parser (Twilio posts forms; the rest of the API is JSON only). Signatures are checked here
// (the public URL is an HTTP concern); the protocol lives in src/telephony/twilio/.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import { TOKEN_PARAMETER } from '../../telephony/call-parameters.js';
import { constantTimeEqual, providerRequestsAllowed } from '../../telephony/provider-credentials.js';
import type { StreamAdmission } from '../../telephony/stream-provider.js';
import { smartfloProvider } from '../../telephony/twilio/smartflo-provider.js';
import { twilioProvider } from '../../telephony/twilio/twilio-provider.js';
import { dialActionUrl, TWILIO_DIAL_ACTION_PATH } from '../../telephony/twilio/twilio-call-control.js';
import { isValidTwilioSignature, streamUrlFor } from '../../telephony/twilio/twilio-signature.js';
import { dialTwiml, hangupTwiml, rejectBusyTwiml, streamTwiml, TwimlParameterError } from '../../telephony/twilio/twiml.js';
import { twilioAnsweredBy, twilioCallFacts } from '../../telephony/provider-call-facts.js';
import { CALL_ID_PATTERN } from '../../store/call-control-bus.js';
import { storeCall } from '../../core/admission.js';
import type { ApiContext } from '../context.js';
import { compact, formOf, withoutProviderFields, type Form } from '../form-fields.js';
import { publicOrigin } from '../public-origin.js';
import { checkedCallParameters, mintCallToken, PROVIDER_ONLY, providerAccount, queryOf, registerMediaEndpoints, type ProviderAccount } from './telephony-media.js';

export const TWILIO_PREFIX = '/v1/telephony/twilio';
export const MEDIA_PATH = `${TWILIO_PREFIX}/media`;
/** The answer URL of a call Raaga placed: `${TWILIO_OUTBOUND_PATH}/{account}/{call_id}/{token}`. */
export const TWILIO_OUTBOUND_PATH = `${TWILIO_PREFIX}/outbound`;
export const SMARTFLO_MEDIA_PATH = '/v1/telephony/smartflo/media';

type AccountParams = { accountId: string };

export function registerTwilioTelephony(app: FastifyInstance, ctx: ApiContext): void {
  const telephony = ctx.telephony;
  if (!telephony) return;
  const origin = (request: FastifyRequest): string => publicOrigin(telephony.config, request);

  /**
   * The account may take Twilio requests (404/403 otherwise), and a configured auth token makes a valid
   * X-Twilio-Signature mandatory (403). Returns the account and settings, undefined once answered.
   */
  const checkWebhook = async (request: FastifyRequest<{ Params: AccountParams }>, reply: FastifyReply, params: Form) => {
    const checked = await providerAccount(ctx, 'twilio', request.params.accountId, request, reply);
    if (!checked) return undefined;
    const authToken = checked.settings?.twilioAuthToken;
    const signature = request.headers['x-twilio-signature'];
    if (authToken && !isValidTwilioSignature(authToken, typeof signature === 'string' ? signature : undefined, origin(request) + request.url, params)) {
      request.log.warn({ accountId: request.params.accountId }, 'twilio webhook with an invalid signature');
      await reply.code(403).send();
      return undefined;
    }
    return checked;
  };

  /**
   * The TwiML that connects an answered call to Raaga: its settings resolved over the layers and checked (voice
   * included), a call token bound to the CallSid. An account without an auth token cannot have its provider requests
   * signed, so its stream goes to the generic path (the token pays) without stream or connect callbacks.
   */
  const streamAnswer = async (request: FastifyRequest, checked: ProviderAccount, callSid: string, layers: ReadonlyArray<Readonly<Record<string, string>> | undefined>): Promise<string> => {
    const accountId = checked.account.id;
    const resolved = await checkedCallParameters(ctx, telephony, checked.account, layers);
    const token = mintCallToken(telephony, accountId, callSid);
    const parameters = { ...compact(resolved.settings), ...resolved.value.custom, [TOKEN_PARAMETER]: token };
    const base = origin(request);
    const signed = providerRequestsAllowed('twilio', checked.settings);
    try {
      return streamTwiml({
        streamUrl: streamUrlFor(base, signed ? `${MEDIA_PATH}/${accountId}` : MEDIA_PATH),
        streamName: `raaga-${callSid.slice(-12)}`,
        parameters,
        ...(signed ? { statusCallback: `${base}${TWILIO_PREFIX}/status/${accountId}`, connectAction: `${base}${TWILIO_PREFIX}/connect-action/${accountId}` } : {}),
      });
    } catch (error) {
      if (error instanceof TwimlParameterError) throw new ApiError('validation_error', error.message);
      throw error;
    }
  };

  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    // The query is the call's settings, greeting text included: keep fastify's request lines (which log the URL)
    // off for this route; the one line below carries ids only. A console set to HTTP GET sends the call's fields
    // in the query and signs the URL with no body parameters.
    const voiceWebhook = async (request: FastifyRequest<{ Params: AccountParams; Body: Form | undefined; Querystring: Form }>, reply: FastifyReply) => {
      // Refused before anything else (no store round trip, no token): the caller hears busy, nothing is billed. The
      // slot itself is taken by the stream's upgrade, which may still refuse if another call took the last one.
      if (telephony.callAdmission.check('twilio') !== undefined) return reply.type('text/xml; charset=utf-8').send(rejectBusyTwiml());
      const isGet = request.method === 'GET';
      const form = isGet ? formOf(request.query) : formOf(request.body);
      const checked = await checkWebhook(request, reply, isGet ? {} : form);
      if (!checked) return reply;
      const { accountId } = request.params;
      const callSid = form.CallSid;
      if (!callSid) throw new ApiError('bad_request', 'CallSid is missing: this endpoint is a Twilio voice webhook.');
      // On GET, Twilio's own fields share the query with the call settings; they are not settings.
      const query = isGet ? withoutProviderFields(formOf(request.query)) : formOf(request.query);
      const twiml = await streamAnswer(request, checked, callSid, [checked.settings?.defaults, query, { ...compact({ from: form.From, to: form.To }), ...twilioCallFacts(form) }]);
      app.log.info({ reqId: request.id, accountId, callSid }, 'twilio voice webhook answered');
      return reply.type('text/xml; charset=utf-8').send(twiml);
    };
    for (const method of ['POST', 'GET'] as const) {
      scope.route({ method, url: `${TWILIO_PREFIX}/voice/:accountId`, logLevel: 'warn', schema: PROVIDER_ONLY, handler: voiceWebhook });
    }

    // An outbound call Raaga placed (POST /v1/calls), answered: its settings come from the call record, the URL's token
    // proves Raaga made the URL (an account with only an API key has no auth token to sign with), and with AMD
    // Twilio asks only once it decided who answered.
    scope.post<{ Params: AccountParams & { callId: string; token: string }; Body: Form }>(
      `${TWILIO_OUTBOUND_PATH}/:accountId/:callId/:token`,
      { logLevel: 'warn', schema: PROVIDER_ONLY },
      async (request, reply) => {
        const { accountId, callId, token } = request.params;
        const form = formOf(request.body);
        const outbound = telephony.outbound;
        if (!outbound.isValidUrlToken(accountId, callId, token)) return reply.code(404).send();
        const account = await storeCall(() => ctx.store.getAccount(accountId));
        const settings = await storeCall(() => ctx.store.getTelephonySettings(accountId));
        const signature = request.headers['x-twilio-signature'];
        if (!account || (settings?.twilioAuthToken && !isValidTwilioSignature(settings.twilioAuthToken, typeof signature === 'string' ? signature : undefined, origin(request) + request.url, form))) {
          request.log.warn({ accountId, callId }, 'twilio outbound answer with an invalid signature');
          return reply.code(403).send();
        }
        const callSid = form.CallSid;
        if (!callSid || !CALL_ID_PATTERN.test(callSid)) throw new ApiError('bad_request', 'CallSid is missing: this endpoint is the answer URL of a Twilio call Raaga placed.');
        const answer = await outbound.answered(accountId, callId, { streamCallId: callSid, answeredBy: twilioAnsweredBy(form) });
        if (!answer) return reply.code(404).send();
        request.log.info({ accountId, callId, callSid, action: answer.action, answeredBy: form.AnsweredBy }, 'twilio outbound call answered');
        if (answer.action === 'hangup') return reply.type('text/xml; charset=utf-8').send(hangupTwiml());
        const twiml = await streamAnswer(request, { account, settings }, callSid, [settings?.defaults, answer.layer]);
        return reply.type('text/xml; charset=utf-8').send(twiml);
      },
    );

    // Twilio asks here when the <Connect> of Raaga's TwiML ends (research R1): a transfer the call made by ending its
    // stream (no REST credentials) is dialled now, wherever the call ran (the call-control bus still knows it for a
    // while after it ended); anything else hangs up, as the end of Raaga's TwiML always did.
    scope.post<{ Params: AccountParams; Body: Form }>(`${TWILIO_PREFIX}/connect-action/:accountId`, { schema: PROVIDER_ONLY }, async (request, reply) => {
      const form = formOf(request.body);
      if (!(await checkWebhook(request, reply, form))) return reply;
      const callSid = form.CallSid ?? '';
      const answer = CALL_ID_PATTERN.test(callSid) ? await telephony.calls.send(callSid, request.params.accountId, { type: 'after_stream' }) : undefined;
      const transfer = answer?.ok ? answer.afterStream : undefined;
      request.log.info({ accountId: request.params.accountId, callSid, transfer: transfer ? 'dial' : 'hangup' }, 'twilio connect action');
      const action = dialActionUrl(origin(request), request.params.accountId, {});
      const twiml = transfer ? dialTwiml(transfer.to, { callerId: transfer.callerId, timeoutS: transfer.timeoutS }, action) : hangupTwiml();
      return reply.type('text/xml; charset=utf-8').send(twiml);
    });

    // A transfer's <Dial> is over (research R2): a connected transfer ends the call; a failed one (busy, no answer,
    // failed, canceled) comes back to the bot, which learns why in call_started's `transfer_status`, or, without an
    // agent, speaks the fallback message and hangs up. The query is the call's own settings (dialActionUrl).
    scope.post<{ Params: AccountParams; Body: Form; Querystring: Form }>(`${TWILIO_DIAL_ACTION_PATH}/:accountId`, { logLevel: 'warn', schema: PROVIDER_ONLY }, async (request, reply) => {
      const form = formOf(request.body);
      const checked = await checkWebhook(request, reply, form);
      if (!checked) return reply;
      const callSid = form.CallSid;
      if (!callSid || !CALL_ID_PATTERN.test(callSid)) throw new ApiError('bad_request', 'CallSid is missing: this endpoint is the action of a <Dial> Raaga asked for.');
      const status = form.DialCallStatus ?? 'failed';
      const settings = { ...(checked.settings?.defaults ?? {}), ...withoutProviderFields(formOf(request.query)) };
      request.log.info({ accountId: request.params.accountId, callSid, dialCallStatus: status }, 'twilio transfer ended');
      const fallback = settings.fallback_message ?? telephony.config.agentFallbackMessage;
      if (status === 'completed' || status === 'answered' || (!settings.agent_url && fallback === '')) return reply.type('text/xml; charset=utf-8').send(hangupTwiml());
      const resumed: Record<string, string> = settings.agent_url ? { transfer_status: status } : { transfer_status: status, greeting: fallback, hangup_after_greeting: 'true', greeting_interruptible: 'false' };
      const twiml = await streamAnswer(request, checked, callSid, [settings, resumed, compact({ from: form.From, to: form.To })]);
      return reply.type('text/xml; charset=utf-8').send(twiml);
    });

    scope.post<{ Params: AccountParams; Body: Form }>(`${TWILIO_PREFIX}/status/:accountId`, { schema: PROVIDER_ONLY }, async (request, reply) => {
      const form = formOf(request.body);
      if (!(await checkWebhook(request, reply, form))) return reply;
      const fields = { accountId: request.params.accountId, callSid: form.CallSid, streamSid: form.StreamSid, event: form.StreamEvent };
      if (form.StreamEvent === 'stream-error') {
        // StreamError is Twilio's error code (31920-class): counted so a failing stream setup shows on /metrics.
        ctx.metrics?.telephonyStreamError('twilio', /^\d{5}$/.test(form.StreamError ?? '') ? (form.StreamError as string) : 'unknown');
        request.log.warn({ ...fields, error: form.StreamError }, 'twilio stream error');
      } else {
        request.log.info(fields, 'twilio stream status');
      }
      return reply.code(204).send();
    });

    /** Before the upgrade: on the account path, a configured auth token requires a valid signature (403 otherwise). */
    const admitTwilio = async (request: FastifyRequest, reply: FastifyReply): Promise<StreamAdmission | undefined> => {
      const path = request.url.split('?')[0] ?? '';
      const header = request.headers['x-twilio-signature'];
      const signature = typeof header === 'string' ? header : undefined;
      const signedUrl = streamUrlFor(origin(request), path);
      const accountId = (request.params as Partial<AccountParams>).accountId;
      if (accountId === undefined) {
        // The generic path: the start's API key or call token names the account; its auth token, if any, is checked then.
        return {
          accountId: undefined,
          accountVerified: false,
          callToken: undefined,
          query: {},
          origin: origin(request),
          verifyAtStart: (settings) =>
            settings?.twilioAuthToken && !isValidTwilioSignature(settings.twilioAuthToken, signature, signedUrl, {}) ? 'invalid X-Twilio-Signature' : undefined,
        };
      }
      const checked = await providerAccount(ctx, 'twilio', accountId, request, reply);
      if (!checked) return undefined;
      const authToken = checked.settings?.twilioAuthToken;
      // Twilio signs stream URLs without a query string; one here cannot be Twilio's.
      if (authToken && (request.url.includes('?') || !isValidTwilioSignature(authToken, signature, signedUrl, {}))) {
        request.log.warn({ accountId }, 'twilio media upgrade with an invalid signature');
        await reply.code(403).send();
        return undefined;
      }
      // The signature covers a URL that is the same for every call: the start must also bring this call's token.
      return { accountId, accountVerified: true, requiresCallToken: true, callToken: undefined, query: {}, origin: origin(request) };
    };

    /** Smartflo neither signs nor sends credentials: the account's secret path segment is the proof. */
    const admitSmartflo = async (request: FastifyRequest, reply: FastifyReply): Promise<StreamAdmission | undefined> => {
      const { accountId, secret } = request.params as { accountId: string; secret: string };
      const checked = await providerAccount(ctx, 'smartflo', accountId, request, reply);
      if (!checked) return undefined;
      const expected = checked.settings?.smartfloToken;
      if (expected !== undefined && !constantTimeEqual(secret, expected)) {
        request.log.warn({ accountId }, 'smartflo media upgrade with a wrong stream secret');
        await reply.code(403).send();
        return undefined;
      }
      return { accountId, accountVerified: true, callToken: undefined, query: queryOf(request) };
    };

    registerMediaEndpoints(scope, ctx, telephony, [
      { provider: twilioProvider(), paths: [MEDIA_PATH, `${MEDIA_PATH}/:accountId`], admit: admitTwilio },
      { provider: smartfloProvider, paths: [`${SMARTFLO_MEDIA_PATH}/:accountId/:secret`], admit: admitSmartflo },
    ]);
  });
}
