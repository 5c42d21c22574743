// The Twilio surface: the voice webhook answering TwiML, the stream status callback, and the media WebSocket.
// Registered in a scope with its own form-urlencoded parser (Twilio posts forms; the rest of the API is JSON only).
// Signatures are checked here (the public URL is an HTTP concern); the protocol lives in src/telephony/twilio/.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { ApiError, errorEnvelope } from '../../errors.js';
import { monotonicClock } from '../../session/clock.js';
import { ACCOUNT_ID_PATTERN } from '../../store/store.js';
import { resolveCallParameters, TOKEN_PARAMETER } from '../../telephony/call-parameters.js';
import { signCallToken } from '../../telephony/call-token.js';
import { TwilioMediaBridge, type UpgradeFacts } from '../../telephony/twilio/media-bridge.js';
import { isValidTwilioSignature, streamUrlFor } from '../../telephony/twilio/twilio-signature.js';
import { streamTwiml, TwimlParameterError } from '../../telephony/twilio/twiml.js';
import { storeCall } from '../../core/admission.js';
import type { ApiContext, TelephonyContext } from '../context.js';

export const TWILIO_PREFIX = '/v1/telephony/twilio';
export const MEDIA_PATH = `${TWILIO_PREFIX}/media`;

type Form = Record<string, string>;
type AccountParams = { accountId: string };

/** Twilio's own webhooks and media stream: its wire format (docs/telephony.md), not part of the client API document. */
const TWILIO_ONLY = { hide: true } as const;

export function registerTwilioTelephony(app: FastifyInstance, ctx: ApiContext): void {
  const telephony = ctx.telephony;
  if (!telephony) return;
  const bridges = new Set<TwilioMediaBridge>();
  const upgrades = new WeakMap<FastifyRequest, UpgradeFacts>();
  app.addHook('preClose', async () => {
    for (const bridge of bridges) bridge.beginShutdown();
  });

  /** The origin Twilio dials: PUBLIC_URL, else this request's own scheme and Host (fine without a proxy). */
  const origin = (request: FastifyRequest): string => telephony.config.publicUrl ?? `${request.protocol}://${request.host}`;

  /**
   * Unknown accounts are 404; a configured auth token makes a valid X-Twilio-Signature mandatory (403 otherwise).
   * Returns the account and its telephony settings once the webhook is accepted, undefined once it was answered.
   */
  const checkWebhook = async (request: FastifyRequest<{ Params: AccountParams }>, reply: FastifyReply, params: Form) => {
    const { accountId } = request.params;
    const account = ACCOUNT_ID_PATTERN.test(accountId) ? await storeCall(() => ctx.store.getAccount(accountId)) : null;
    if (!account) {
      const error = new ApiError('not_found', 'No such account for this Twilio webhook; the URL ends with the Raaga account id.');
      await reply.code(error.status).send(errorEnvelope(error));
      return undefined;
    }
    const settings = await storeCall(() => ctx.store.getTelephonySettings(accountId));
    const signature = request.headers['x-twilio-signature'];
    if (settings?.twilioAuthToken && !isValidTwilioSignature(settings.twilioAuthToken, typeof signature === 'string' ? signature : undefined, origin(request) + request.url, params)) {
      request.log.warn({ accountId }, 'twilio webhook with an invalid signature');
      await reply.code(403).send();
      return undefined;
    }
    return { account, settings };
  };

  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    // The query is the call's settings, greeting text included: keep fastify's request lines (which log the URL)
    // off for this route; the one line below carries ids only.
    scope.post<{ Params: AccountParams; Body: Form; Querystring: Form }>(`${TWILIO_PREFIX}/voice/:accountId`, { logLevel: 'warn', schema: TWILIO_ONLY }, async (request, reply) => {
      const form = formOf(request.body);
      const checked = await checkWebhook(request, reply, form);
      if (!checked) return reply;
      const { accountId } = request.params;
      const callSid = form.CallSid;
      if (!callSid) throw new ApiError('bad_request', 'CallSid is missing: this endpoint is a Twilio voice webhook.');
      const query = formOf(request.query);
      const resolved = resolveCallParameters(telephony.config, [checked.settings?.defaults, query, compact({ from: form.From, to: form.To })]);
      if (!resolved.ok) throw new ApiError('validation_error', resolved.message);
      await ctx.voices.resolve(checked.account, resolved.value.voice, resolved.value.language);
      const token = signCallToken(telephony.callTokenSecret, { accountId, callSid, expiresAtMs: Date.now() + telephony.config.callTokenTtlMs });
      const parameters = { ...compact(resolved.settings), ...resolved.value.custom, [TOKEN_PARAMETER]: token };
      const base = origin(request);
      let twiml: string;
      try {
        twiml = streamTwiml({
          streamUrl: streamUrlFor(base, `${MEDIA_PATH}/${accountId}`),
          parameters,
          statusCallback: `${base}${TWILIO_PREFIX}/status/${accountId}`,
        });
      } catch (error) {
        if (error instanceof TwimlParameterError) throw new ApiError('validation_error', error.message);
        throw error;
      }
      app.log.info({ reqId: request.id, accountId, callSid }, 'twilio voice webhook answered');
      return reply.type('text/xml; charset=utf-8').send(twiml);
    });

    scope.post<{ Params: AccountParams; Body: Form }>(`${TWILIO_PREFIX}/status/:accountId`, { schema: TWILIO_ONLY }, async (request, reply) => {
      const form = formOf(request.body);
      if (!(await checkWebhook(request, reply, form))) return reply;
      const fields = { accountId: request.params.accountId, callSid: form.CallSid, streamSid: form.StreamSid, event: form.StreamEvent };
      if (form.StreamEvent === 'stream-error') request.log.warn({ ...fields, error: form.StreamError }, 'twilio stream error');
      else request.log.info(fields, 'twilio stream status');
      return reply.code(204).send();
    });

    const plainGet = async (_request: FastifyRequest, reply: FastifyReply) => {
      const error = new ApiError('bad_request', `${MEDIA_PATH} is a Twilio Media Streams WebSocket endpoint.`);
      return reply.code(error.status).send(errorEnvelope(error));
    };

    /** Before the upgrade: on the account path, a configured auth token requires a valid signature (403 otherwise). */
    const checkUpgrade = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const path = request.url.split('?')[0] ?? '';
      const signature = request.headers['x-twilio-signature'];
      const accountId = (request.params as Partial<AccountParams>).accountId;
      const facts: UpgradeFacts = {
        pathAccountId: accountId,
        signatureChecked: false,
        signature: typeof signature === 'string' ? signature : undefined,
        signedUrl: streamUrlFor(origin(request), path),
      };
      if (accountId !== undefined) {
        const known = ACCOUNT_ID_PATTERN.test(accountId) && (await storeCall(() => ctx.store.getAccount(accountId))) !== null;
        if (!known) {
          await reply.code(404).send(errorEnvelope(new ApiError('not_found', 'No such account for this media stream URL.')));
          return;
        }
        const settings = await storeCall(() => ctx.store.getTelephonySettings(accountId));
        if (settings?.twilioAuthToken) {
          // Twilio signs stream URLs without a query string; one here cannot be Twilio's.
          if (request.url.includes('?') || !isValidTwilioSignature(settings.twilioAuthToken, facts.signature, facts.signedUrl, {})) {
            request.log.warn({ accountId }, 'twilio media upgrade with an invalid signature');
            await reply.code(403).send();
            return;
          }
          upgrades.set(request, { ...facts, signatureChecked: true });
          return;
        }
      }
      upgrades.set(request, facts);
    };

    const onSocket = (socket: WebSocket, request: FastifyRequest): void => {
      const facts = upgrades.get(request);
      if (!facts) {
        socket.close(1011, 'internal error');
        return;
      }
      const bridge = new TwilioMediaBridge(bridgeDeps(ctx, telephony), socket, facts, request.log);
      bridges.add(bridge);
      void bridge.done.then(() => bridges.delete(bridge));
    };

    for (const url of [MEDIA_PATH, `${MEDIA_PATH}/:accountId`]) {
      scope.route({ method: 'GET', url, schema: TWILIO_ONLY, onRequest: checkUpgrade, handler: plainGet, wsHandler: onSocket });
    }
  });
}

function bridgeDeps(ctx: ApiContext, telephony: TelephonyContext) {
  return {
    store: ctx.store,
    admission: ctx.admission,
    voices: ctx.voices,
    synthesis: ctx.synthesis,
    shutdown: ctx.shutdown,
    clock: telephony.clock ?? monotonicClock,
    now: Date.now,
    vad: telephony.vad,
    config: telephony.config,
    callTokenSecret: telephony.callTokenSecret,
    calls: telephony.calls,
    twilioApiBaseUrl: telephony.twilioApiBaseUrl,
    metrics: ctx.metrics,
  };
}

function formOf(value: unknown): Form {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function compact(record: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));
}
