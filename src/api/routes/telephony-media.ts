// Every provider's media endpoint at the HTTP layer, written once: the upgrade takes one of this process's call slots
// (503 server_busy otherwise), the URL's account must take this provider's requests (a bare 403), the provider's own
// upgrade check runs, and the socket becomes a MediaStream; live streams are told to finish on server shutdown.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { storeCall } from '../../core/admission.js';
import { ApiError, errorEnvelope } from '../../errors.js';
import { monotonicClock } from '../../session/clock.js';
import { ACCOUNT_ID_PATTERN, type Account, type TelephonySettings } from '../../store/store.js';
import { AGENT_URL_SCHEMES, resolveCallParameters } from '../../telephony/call-parameters.js';
import { signCallToken } from '../../telephony/call-token.js';
import { serverBusyError, type CallSlot } from '../../telephony/call-admission.js';
import { MediaStream, type MediaStreamDeps } from '../../telephony/media-stream.js';
import { providerRequestsAllowed } from '../../telephony/provider-credentials.js';
import type { ProviderName, StreamAdmission, StreamProvider } from '../../telephony/stream-provider.js';
import { webSocketStream } from '../../telephony/stream-socket.js';
import type { ApiContext, TelephonyContext } from '../context.js';

/** Provider-only surfaces (webhooks, media streams): their wire formats are in docs/telephony.md, not the API document. */
export const PROVIDER_ONLY = { hide: true } as const;

export interface ProviderAccount {
  readonly account: Account;
  readonly settings: TelephonySettings | null;
}

/**
 * The account a provider URL names, once it may take this provider's requests; otherwise the request is answered
 * (403, alike for an unknown account and one without credentials or opt-in) and undefined returned.
 */
export async function providerAccount(ctx: ApiContext, provider: ProviderName, accountId: string, request: FastifyRequest, reply: FastifyReply): Promise<ProviderAccount | undefined> {
  const account = ACCOUNT_ID_PATTERN.test(accountId) ? await storeCall(() => ctx.store.getAccount(accountId)) : null;
  const settings = account ? await storeCall(() => ctx.store.getTelephonySettings(accountId)) : null;
  if (!account || !providerRequestsAllowed(provider, settings)) {
    // An unknown account gets the same bare 403 as one without credentials: the URL does not tell which ids exist.
    request.log.warn(
      { accountId, provider },
      account
        ? `${provider} request refused: the account has no ${provider} credentials (raaga telephony set) and does not allow unsigned requests`
        : `${provider} request refused: no such account`,
    );
    await reply.code(403).send();
    return undefined;
  }
  return { account, settings };
}

/**
 * An answered call's settings over `layers` (account defaults first), checked as a call would use them: a bad
 * setting is 422 validation_error and an unknown voice 422 voice_language_not_found, before any stream opens.
 */
export async function checkedCallParameters(ctx: ApiContext, telephony: TelephonyContext, account: Account, layers: ReadonlyArray<Readonly<Record<string, string>> | undefined>) {
  const resolved = resolveCallParameters(telephony.config, layers);
  if (!resolved.ok) throw new ApiError('validation_error', resolved.message);
  await ctx.voices.resolve(account, resolved.value.voice, resolved.value.language);
  const { agentUrl } = resolved.value;
  if (agentUrl !== undefined) {
    const checked = await telephony.destinations.check(agentUrl, AGENT_URL_SCHEMES);
    if (!checked.ok) throw new ApiError('validation_error', `call parameter 'agent_url' ${checked.reason}`);
  }
  return resolved;
}

/** The call token an answer step hands the stream: this account pays for this call id, for CALL_TOKEN_TTL_MS. */
export function mintCallToken(telephony: TelephonyContext, accountId: string, callSid: string): string {
  return signCallToken(telephony.callTokenSecret, { accountId, callSid, expiresAtMs: Date.now() + telephony.config.callTokenTtlMs });
}

export interface MediaEndpoint {
  readonly provider: StreamProvider;
  /** fastify route paths of the WebSocket. */
  readonly paths: readonly string[];
  /** The provider's upgrade check: the admission, or undefined once it answered the request itself. */
  readonly admit: (request: FastifyRequest, reply: FastifyReply) => Promise<StreamAdmission | undefined>;
}

/** Registers each endpoint's WebSocket route; a plain GET (no upgrade) is a 400 that says what the URL is for. */
export function registerMediaEndpoints(scope: FastifyInstance, ctx: ApiContext, telephony: TelephonyContext, endpoints: readonly MediaEndpoint[]): void {
  const streams = new Set<MediaStream>();
  const admissions = new WeakMap<FastifyRequest, { readonly admission: StreamAdmission; readonly slot: CallSlot }>();
  scope.addHook('preClose', async () => {
    for (const stream of streams) stream.beginShutdown();
  });
  const deps = mediaStreamDeps(ctx, telephony);
  for (const endpoint of endpoints) {
    const { provider } = endpoint;
    const onRequest = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      // A plain GET (answered 400 below once checked) never becomes a call: only an upgrade asks for a slot.
      if (!request.ws) {
        await endpoint.admit(request, reply);
        return;
      }
      // This process's capacity first: a refusal costs no store round trip and so reserves nothing anywhere (no
      // account slot, no credits); the 503 lets the provider's flow go on (TwiML after <Connect>, the next applet).
      const slot = telephony.callAdmission.tryAdmit(provider.name);
      if (!slot.ok) throw serverBusyError(slot.reason);
      // The connection's end frees the slot, whatever happened to it before the socket became a stream.
      request.raw.socket.once('close', slot.release);
      try {
        const admission = await endpoint.admit(request, reply);
        if (admission) admissions.set(request, { admission, slot });
        else slot.release();
      } catch (error) {
        slot.release();
        throw error;
      }
    };
    const plainGet = async (_request: FastifyRequest, reply: FastifyReply) => {
      const error = new ApiError('bad_request', `This is a ${provider.name} media stream WebSocket endpoint; open it with a WebSocket upgrade.`);
      return reply.code(error.status).send(errorEnvelope(error));
    };
    const onSocket = (socket: WebSocket, request: FastifyRequest): void => {
      const admitted = admissions.get(request);
      if (!admitted) {
        socket.close(1011, 'internal error');
        return;
      }
      // The route's own logger is held at warn (above); the call's lifecycle lines are info and must still be written.
      const stream = new MediaStream(deps, webSocketStream(socket), provider, admitted.admission, scope.log.child({ reqId: request.id }));
      streams.add(stream);
      void stream.done.then(() => {
        streams.delete(stream);
        admitted.slot.release();
      });
    };
    for (const url of endpoint.paths) {
      // The URL may carry call settings (greeting text) and secrets: fastify's request lines stay off; the stream logs ids.
      scope.route({ method: 'GET', url, logLevel: 'warn', schema: PROVIDER_ONLY, onRequest, handler: plainGet, wsHandler: onSocket });
    }
  }
}

export function mediaStreamDeps(ctx: ApiContext, telephony: TelephonyContext): MediaStreamDeps {
  return {
    store: ctx.store,
    services: ctx.services,
    clock: telephony.clock ?? monotonicClock,
    now: Date.now,
    vad: telephony.vad,
    config: telephony.config,
    callTokenSecret: telephony.callTokenSecret,
    calls: telephony.calls,
    destinations: telephony.destinations,
    metrics: ctx.metrics,
    outbound: telephony.outbound,
  };
}

/** The query string of a request as a flat record (repeated names: the last wins). */
export function queryOf(request: FastifyRequest): Record<string, string> {
  const at = request.url.indexOf('?');
  return at < 0 ? {} : Object.fromEntries(new URLSearchParams(request.url.slice(at + 1)));
}
