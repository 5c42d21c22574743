// The Indian providers' surfaces: Exotel's Voicebot stream (Basic credentials from the applet URL), Plivo's answer
// URL, status callback and stream (X-Plivo-Signature-V3, call token in the path), and Asterisk chan_websocket
// (Basic credentials from websocket_client.conf, call settings as URI parameters). The protocols live in
// src/telephony/<provider>/; the media streams are the shared ones of telephony-media.ts.

import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import { asteriskProvider } from '../../telephony/asterisk/asterisk-provider.js';
import { exotelProvider } from '../../telephony/exotel/exotel-provider.js';
import { TRANSFER_FIELDS } from '../../telephony/agent/agent-protocol.js';
import { plivoBusyXml, plivoDialXml, plivoStreamXml } from '../../telephony/plivo/plivo-answer.js';
import { PLIVO_TRANSFER_PATH, plivoProvider } from '../../telephony/plivo/plivo-provider.js';
import { isValidPlivoSignature, PLIVO_NONCE_WINDOW_MS } from '../../telephony/plivo/plivo-signature.js';
import { matchesBasicCredentials } from '../../telephony/provider-credentials.js';
import type { ProviderName, StreamAdmission } from '../../telephony/stream-provider.js';
import type { TelephonySettings } from '../../store/store.js';
import { plivoCallFacts } from '../../telephony/provider-call-facts.js';
import type { ApiContext } from '../context.js';
import { compact, formOf, withoutProviderFields, type Form } from '../form-fields.js';
import { publicOrigin } from '../public-origin.js';
import { checkedCallParameters, mintCallToken, PROVIDER_ONLY, providerAccount, queryOf, registerMediaEndpoints, type ProviderAccount } from './telephony-media.js';
import { storeCall } from '../../core/admission.js';
import { summarizeOutboundCall } from '../../store/outbound-call.js';

/** The query of a transferred call's XML URL: what Raaga's REST transfer put there (plivo-provider.ts). */
const PlivoTransferQuerySchema = z.object(TRANSFER_FIELDS);

export const EXOTEL_PREFIX = '/v1/telephony/exotel';
export const EXOTEL_MEDIA_PATH = `${EXOTEL_PREFIX}/media`;
/** The stream URL of a call Raaga placed through Exotel: `${EXOTEL_OUTBOUND_PATH}/{account}/{call_id}/{token}`. */
export const EXOTEL_OUTBOUND_PATH = `${EXOTEL_PREFIX}/outbound`;
export const PLIVO_PREFIX = '/v1/telephony/plivo';
/** The answer URL of a call Raaga placed through Plivo: `${PLIVO_OUTBOUND_PATH}/{account}/{call_id}/{token}`. */
export const PLIVO_OUTBOUND_PATH = `${PLIVO_PREFIX}/outbound`;
export const ASTERISK_MEDIA_PATH = '/v1/telephony/asterisk/media';

type AccountParams = { accountId: string };

export function registerIndiaTelephony(app: FastifyInstance, ctx: ApiContext): void {
  const telephony = ctx.telephony;
  if (!telephony) return;
  const origin = (request: FastifyRequest): string => publicOrigin(telephony.config, request);

  /** Exotel and Asterisk cannot sign: the account's `user:secret`, sent as Basic auth, is the check. */
  const admitBasic =
    (provider: ProviderName, stored: (settings: TelephonySettings | null) => string | undefined) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<StreamAdmission | undefined> => {
      const { accountId } = request.params as AccountParams;
      const checked = await providerAccount(ctx, provider, accountId, request, reply);
      if (!checked) return undefined;
      const expected = stored(checked.settings);
      if (expected !== undefined && !matchesBasicCredentials(request.headers.authorization, expected)) {
        request.log.warn({ accountId, provider }, `${provider} media upgrade with missing or wrong Basic credentials`);
        await reply.code(401).header('www-authenticate', 'Basic realm="raaga"').send();
        return undefined;
      }
      return { accountId, accountVerified: true, callToken: undefined, query: queryOf(request) };
    };

  /**
   * Plivo's signature over the URL it requested (and the form fields of a POST), when the account has its token. A
   * signature carries no time, so its nonce is remembered (every instance, PLIVO_NONCE_WINDOW_MS) and a replay refused.
   */
  const plivoSigned = async (request: FastifyRequest, settings: TelephonySettings | null, params: Form): Promise<boolean> => {
    const authToken = settings?.plivoAuthToken;
    if (authToken === undefined) return true;
    const header = request.headers['x-plivo-signature-v3'] ?? request.headers['x-plivo-signature-ma-v3'];
    const nonceHeader = request.headers['x-plivo-signature-v3-nonce'];
    const nonce = typeof nonceHeader === 'string' ? nonceHeader : '';
    const method = request.method === 'POST' ? 'POST' : 'GET';
    const url = `${origin(request).replace(/^http/, request.raw.headers.upgrade ? 'ws' : 'http')}${request.url}`;
    if (!isValidPlivoSignature(authToken, typeof header === 'string' ? header : undefined, { method, url, nonce, params })) return false;
    const seen = randomUUID();
    const holder = await storeCall(() => ctx.store.holdKey('plivo-nonce', `${settings?.accountId}:${nonce}`, seen, PLIVO_NONCE_WINDOW_MS));
    if (holder === seen) return true;
    request.log.warn({ accountId: settings?.accountId }, 'plivo request replayed (its nonce was seen before)');
    return false;
  };

  /**
   * The <Stream> XML of an answered Plivo call: settings resolved over the layers and checked (voice included), a call
   * token bound to the CallUUID in the stream URL's path, the settings in its query.
   */
  const plivoStreamAnswer = async (request: FastifyRequest, checked: ProviderAccount, callUuid: string, layers: ReadonlyArray<Readonly<Record<string, string>> | undefined>): Promise<string> => {
    const accountId = checked.account.id;
    await checkedCallParameters(ctx, telephony, checked.account, layers);
    const token = mintCallToken(telephony, accountId, callUuid);
    const settings = new URLSearchParams(Object.assign({}, ...layers.slice(1))).toString();
    const base = origin(request);
    return plivoStreamXml({
      streamUrl: `${base.replace(/^http/, 'ws')}${PLIVO_PREFIX}/media/${accountId}/${token}${settings ? `?${settings}` : ''}`,
      statusCallbackUrl: `${base}${PLIVO_PREFIX}/status/${accountId}`,
    });
  };

  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    // The answer URL: the call's settings from its query and the account's defaults, a call token bound to the
    // CallUUID in the stream URL's path (extraHeaders cannot carry it), the settings in its query.
    const answer = async (request: FastifyRequest<{ Params: AccountParams }>, reply: FastifyReply) => {
      // Refused before anything else, as Twilio's webhook is: a busy hangup, no stream, nothing billed.
      if (telephony.callAdmission.check('plivo') !== undefined) return reply.type('application/xml; charset=utf-8').send(plivoBusyXml());
      const isGet = request.method === 'GET';
      const form = isGet ? formOf(request.query) : formOf(request.body);
      const checked = await providerAccount(ctx, 'plivo', request.params.accountId, request, reply);
      if (!checked) return reply;
      if (!(await plivoSigned(request, checked.settings, isGet ? {} : form))) {
        request.log.warn({ accountId: request.params.accountId }, 'plivo answer request with an invalid signature');
        return reply.code(403).send();
      }
      const callUuid = form.CallUUID;
      if (!callUuid || !/^[A-Za-z0-9-]{8,64}$/.test(callUuid)) throw new ApiError('bad_request', 'CallUUID is missing: this endpoint is a Plivo answer URL.');
      // On GET, Plivo's own fields (capitalised) share the query with the call settings.
      const query = withoutProviderFields(formOf(request.query));
      const numbers = { ...compact({ from: form.From, to: form.To }), ...plivoCallFacts(form) };
      const { accountId } = request.params;
      const xml = await plivoStreamAnswer(request, checked, callUuid, [checked.settings?.defaults, query, numbers]);
      app.log.info({ reqId: request.id, accountId, callSid: callUuid }, 'plivo answer URL answered');
      return reply.type('application/xml; charset=utf-8').send(xml);
    };
    for (const method of ['POST', 'GET'] as const) {
      scope.route({ method, url: `${PLIVO_PREFIX}/answer/:accountId`, logLevel: 'warn', schema: PROVIDER_ONLY, handler: answer });
    }

    // An outbound call Raaga placed (POST /v1/calls), answered: its settings come from the call record; the URL's
    // token proves Raaga made it, and Plivo's signature is checked as on the answer URL.
    scope.post<{ Params: AccountParams & { callId: string; token: string }; Body: Form }>(
      `${PLIVO_OUTBOUND_PATH}/:accountId/:callId/:token`,
      { logLevel: 'warn', schema: PROVIDER_ONLY },
      async (request, reply) => {
        const { accountId, callId, token } = request.params;
        if (!telephony.outbound.isValidUrlToken(accountId, callId, token)) return reply.code(404).send();
        const form = formOf(request.body);
        const checked = await providerAccount(ctx, 'plivo', accountId, request, reply);
        if (!checked) return reply;
        if (!(await plivoSigned(request, checked.settings, form))) {
          request.log.warn({ accountId, callId }, 'plivo outbound answer with an invalid signature');
          return reply.code(403).send();
        }
        const callUuid = form.CallUUID;
        if (!callUuid || !/^[A-Za-z0-9-]{8,64}$/.test(callUuid)) throw new ApiError('bad_request', 'CallUUID is missing: this endpoint is the answer URL of a Plivo call Raaga placed.');
        const answer = await telephony.outbound.answered(accountId, callId, { streamCallId: callUuid });
        if (!answer) return reply.code(404).send();
        request.log.info({ accountId, callId, callSid: callUuid }, 'plivo outbound call answered');
        // Plivo ends a call a machine answered itself (machine_detection=hangup): no `hangup` answer arrives here.
        const xml = await plivoStreamAnswer(request, checked, callUuid, [checked.settings?.defaults, answer.layer]);
        return reply.type('application/xml; charset=utf-8').send(xml);
      },
    );

    scope.post<{ Params: AccountParams; Body: Form }>(`${PLIVO_PREFIX}/status/:accountId`, { schema: PROVIDER_ONLY }, async (request, reply) => {
      const form = formOf(request.body);
      const checked = await providerAccount(ctx, 'plivo', request.params.accountId, request, reply);
      if (!checked) return reply;
      if (!(await plivoSigned(request, checked.settings, form))) return reply.code(403).send();
      const fields = { accountId: request.params.accountId, callSid: form.CallUUID, streamId: form.StreamID, event: form.Event };
      if (form.Event === 'DroppedStream' || form.Event === 'DegradedStream') {
        ctx.metrics?.telephonyStreamError('plivo', form.Event);
        request.log.warn(fields, 'plivo stream error');
      } else {
        request.log.info(fields, 'plivo stream status');
      }
      return reply.code(204).send();
    });

    // A transferred call's XML: Plivo fetches it after Raaga's REST transfer (plivo-provider.ts), signed like the
    // answer URL. The target is the one the agent or the REST API asked for, checked again here.
    scope.get<{ Params: AccountParams; Querystring: Record<string, string> }>(`${PLIVO_TRANSFER_PATH}/:accountId`, { logLevel: 'warn', schema: PROVIDER_ONLY }, async (request, reply) => {
      const checked = await providerAccount(ctx, 'plivo', request.params.accountId, request, reply);
      if (!checked) return reply;
      if (!(await plivoSigned(request, checked.settings, {}))) {
        request.log.warn({ accountId: request.params.accountId }, 'plivo transfer request with an invalid signature');
        return reply.code(403).send();
      }
      const query = formOf(request.query);
      const timeout = query.timeout_s === undefined ? undefined : Number(query.timeout_s);
      const parsed = PlivoTransferQuerySchema.safeParse({ to: query.to, caller_id: query.caller_id, timeout_s: timeout });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ApiError('validation_error', `${issue?.path.join('.') ?? 'to'} ${issue?.message ?? 'is invalid'}`);
      }
      const { to, caller_id: callerId, timeout_s: timeoutS } = parsed.data;
      return reply.type('application/xml; charset=utf-8').send(plivoDialXml(to, { callerId, timeoutS }));
    });

    const admitPlivo = async (request: FastifyRequest, reply: FastifyReply): Promise<StreamAdmission | undefined> => {
      const { accountId, token } = request.params as { accountId: string; token: string };
      const checked = await providerAccount(ctx, 'plivo', accountId, request, reply);
      if (!checked) return undefined;
      if (!(await plivoSigned(request, checked.settings, {}))) {
        request.log.warn({ accountId }, 'plivo media upgrade with an invalid signature');
        await reply.code(403).send();
        return undefined;
      }
      // The token (bound to the CallUUID at the answer URL) is checked against the stream's start.
      return { accountId, accountVerified: false, callToken: token, query: queryOf(request), origin: origin(request) };
    };

    /** A call Raaga placed through Exotel: the path's token is the proof, the call record has the settings. */
    const admitExotelOutbound = async (request: FastifyRequest, reply: FastifyReply): Promise<StreamAdmission | undefined> => {
      const { accountId, callId, token } = request.params as { accountId: string; callId: string; token: string };
      if (!telephony.outbound.isValidUrlToken(accountId, callId, token)) {
        await reply.code(404).send();
        return undefined;
      }
      const state = await storeCall(() => telephony.outbound.get(accountId, callId));
      const exotelSid = state ? summarizeOutboundCall(state).providerCallId : undefined;
      const answer = state ? await telephony.outbound.answered(accountId, callId, { streamCallId: exotelSid ?? callId }) : null;
      if (!answer) {
        await reply.code(404).send();
        return undefined;
      }
      return { accountId, accountVerified: true, callToken: undefined, query: answer.layer };
    };

    registerMediaEndpoints(scope, ctx, telephony, [
      { provider: exotelProvider, paths: [`${EXOTEL_OUTBOUND_PATH}/:accountId/:callId/:token`], admit: admitExotelOutbound },
      { provider: exotelProvider, paths: [`${EXOTEL_MEDIA_PATH}/:accountId`], admit: admitBasic('exotel', (s) => s?.exotelCredentials) },
      { provider: plivoProvider(), paths: [`${PLIVO_PREFIX}/media/:accountId/:token`], admit: admitPlivo },
      { provider: asteriskProvider, paths: [`${ASTERISK_MEDIA_PATH}/:accountId`], admit: admitBasic('asterisk', (s) => s?.asteriskCredentials) },
    ]);
  });
}
