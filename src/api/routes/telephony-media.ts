// Every provider's media paths at the HTTP layer, written once from the provider modules: the upgrade takes a place
// among this process's connections not yet authenticated, never a call slot (503 server_busy when the process is full
// of calls or that budget is full), the path's proof is checked (the shared provider admission over the module's
// authenticator, or a placed call's URL token), and the socket becomes a MediaStream, which takes the call slot once
// its start is authenticated; live streams are told to finish on server shutdown.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { storeCall } from '../../core/store-call.js';
import { ApiError, errorEnvelope } from '../../errors.js';
import { monotonicClock } from '../../session/clock.js';
import { summarizeOutboundCall } from '../../store/outbound-call.js';
import type { Account, HeldKeyNamespace } from '../../store/store.js';
import { AGENT_URL_SCHEMES, resolveCallParameters } from '../../telephony/call-parameters.js';
import { signCallToken } from '../../telephony/call-token.js';
import { serverBusyError, type ConnectionTicket } from '../../telephony/call-admission.js';
import { MediaStream, type MediaStreamDeps } from '../../telephony/media-stream.js';
import type { MediaPath, ProviderModule } from '../../telephony/provider-module.js';
import type { AnswerToken, CheckedParameters } from '../../telephony/provider-webhook.js';
import type { StreamAdmission } from '../../telephony/stream-provider.js';
import { webSocketStream } from '../../telephony/stream-socket.js';
import type { ApiContext, TelephonyContext } from '../context.js';
import { authenticateProviderRequest, providerAccount, providerRequest, sendRefusal } from '../provider-admission.js';

/** Provider-only surfaces (webhooks, media streams): their wire formats are in docs/telephony.md, not the API document. */
export const PROVIDER_ONLY = { hide: true } as const;

/**
 * An answered call's settings over `layers` (account defaults first), checked as a call would use them: a bad
 * setting is 422 validation_error and an unknown voice 422 voice_language_not_found, before any stream opens.
 */
export async function checkedCallParameters(ctx: ApiContext, telephony: TelephonyContext, account: Account, layers: ReadonlyArray<Readonly<Record<string, string>> | undefined>): Promise<CheckedParameters> {
  const resolved = resolveCallParameters(telephony.config, layers);
  if (!resolved.ok) throw new ApiError('validation_error', resolved.message);
  await ctx.voices.resolve(account, resolved.value.voice, resolved.value.language);
  // A lexicon the account lacks is this request's error, not a call that cannot be configured later.
  await ctx.synthesis.lexicons(account.id, resolved.value.lexicons, resolved.value.language);
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

/**
 * The call token of a call id's first answer within `windowMs`, on every instance: its expiry is held (Store.holdKey,
 * `account:callId` of `scope`), and a token is its claims' MAC, so an answer asked again (a provider's retry, or a
 * replay of its signed request) gets the very same token, whose single use then covers every copy of the answer.
 */
export async function heldCallToken(ctx: Pick<ApiContext, 'store'>, telephony: TelephonyContext, scope: HeldKeyNamespace, accountId: string, callSid: string, windowMs: number): Promise<AnswerToken> {
  const fresh = String(Date.now() + telephony.config.callTokenTtlMs);
  const held = await storeCall(() => ctx.store.holdKey(scope, `${accountId}:${callSid}`, fresh, windowMs));
  const expiresAtMs = Number(held);
  if (!Number.isSafeInteger(expiresAtMs)) throw new ApiError('internal_error', `The held answer of call ${callSid} is not a token expiry.`);
  return { token: signCallToken(telephony.callTokenSecret, { accountId, callSid, expiresAtMs }), repeated: held !== fresh };
}

/** What the connection to one media path proved, or undefined once the request was answered (403, 401, 404). */
async function admitMedia(ctx: ApiContext, telephony: TelephonyContext, module: ProviderModule, path: MediaPath, request: FastifyRequest, reply: FastifyReply): Promise<StreamAdmission | undefined> {
  const params = request.params as Readonly<Record<string, string | undefined>>;
  const asked = providerRequest(request, telephony, { media: true, form: {} });
  const query = path.queryIsSettings === false ? {} : queryOf(request);
  switch (path.proof) {
    case 'start':
      // Nobody pays yet: the start's API key or call token names the account, whose credentials are checked then.
      return {
        accountId: undefined,
        accountVerified: false,
        callToken: undefined,
        query,
        ...(path.keepsOrigin ? { origin: asked.origin() } : {}),
        verifyAtStart: (settings) => {
          const verdict = module.authenticate(asked, settings);
          return verdict.ok ? undefined : verdict.reason;
        },
      };
    case 'placed-call': {
      const { accountId = '', callId = '', token = '' } = params;
      if (!telephony.outbound.isValidUrlToken(accountId, callId, token)) {
        await reply.code(404).send();
        return undefined;
      }
      const state = await storeCall(() => telephony.outbound.get(accountId, callId));
      const providerCallId = state ? summarizeOutboundCall(state).providerCallId : undefined;
      const answer = state ? await telephony.outbound.answered(accountId, callId, { streamCallId: providerCallId ?? callId }) : null;
      if (!answer) {
        await reply.code(404).send();
        return undefined;
      }
      return { accountId, accountVerified: true, callToken: undefined, query: answer.layer };
    }
    case 'account': {
      const accountId = params.accountId ?? '';
      const checked = await providerAccount(ctx.store, module, accountId, request.log);
      if (!checked) {
        await reply.code(403).send();
        return undefined;
      }
      const refused = await authenticateProviderRequest(ctx.store, module, asked, checked.settings, request.log, `${module.name} media upgrade`);
      if (refused) {
        await sendRefusal(reply, refused);
        return undefined;
      }
      const callToken = path.callTokenParam === undefined ? undefined : params[path.callTokenParam];
      return {
        accountId,
        // A token in the path pays, not the path's account (which only proved the request came from the provider).
        accountVerified: path.callTokenParam === undefined,
        ...(path.requiresCallToken ? { requiresCallToken: true } : {}),
        callToken,
        query,
        ...(path.keepsOrigin ? { origin: asked.origin() } : {}),
      };
    }
  }
}

/** Registers every media path of these modules; a plain GET (no upgrade) is a 400 that says what the URL is for. */
export function registerMediaEndpoints(scope: FastifyInstance, ctx: ApiContext, telephony: TelephonyContext, modules: readonly ProviderModule[]): void {
  const streams = new Set<MediaStream>();
  const admissions = new WeakMap<FastifyRequest, { readonly admission: StreamAdmission; readonly ticket: ConnectionTicket }>();
  scope.addHook('preClose', async () => {
    for (const stream of streams) stream.beginShutdown();
  });
  const deps = mediaStreamDeps(ctx, telephony);
  for (const module of modules) {
    for (const path of module.mediaPaths) {
      const admit = (request: FastifyRequest, reply: FastifyReply) => admitMedia(ctx, telephony, module, path, request, reply);
      const onRequest = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
        // A plain GET (answered 400 below once checked) never becomes a call: only an upgrade asks for a slot.
        if (!request.ws) {
          await admit(request, reply);
          return;
        }
        // This process's capacity first: a refusal costs no store round trip and so reserves nothing anywhere (no
        // account slot, no credits); the 503 lets the provider's flow go on (TwiML after <Connect>, the next applet).
        // Nothing is proved yet, so the connection takes no call slot: only a pending place (TELEPHONY_MAX_PENDING_*),
        // which bare sockets can fill without ever refusing a caller whose stream has authenticated.
        const ticket = telephony.callAdmission.admitConnection(module.name, request.ip);
        if (!ticket.ok) throw serverBusyError(ticket.reason);
        // The connection's end frees its place or slot, whatever happened to it before the socket became a stream.
        request.raw.socket.once('close', ticket.release);
        try {
          const admission = await admit(request, reply);
          if (admission) admissions.set(request, { admission, ticket });
          else ticket.release();
        } catch (error) {
          ticket.release();
          throw error;
        }
      };
      const plainGet = async (_request: FastifyRequest, reply: FastifyReply) => {
        const error = new ApiError('bad_request', `This is a ${module.name} media stream WebSocket endpoint; open it with a WebSocket upgrade.`);
        return reply.code(error.status).send(errorEnvelope(error));
      };
      const onSocket = (socket: WebSocket, request: FastifyRequest): void => {
        const admitted = admissions.get(request);
        if (!admitted) {
          socket.close(1011, 'internal error');
          return;
        }
        // The route's own logger is held at warn (above); the call's lifecycle lines are info and must still be written.
        const stream = new MediaStream(deps, webSocketStream(socket, request.raw.socket), module, admitted.admission, admitted.ticket, scope.log.child({ reqId: request.id }));
        streams.add(stream);
        void stream.done.then(() => {
          streams.delete(stream);
          admitted.ticket.release();
        });
      };
      // The URL may carry call settings (greeting text) and secrets: fastify's request lines stay off; the stream logs ids.
      // Open while the server drains: the stream of a call answered before the drain still connects (call admission refuses new ones).
      scope.route({ method: 'GET', url: path.path, logLevel: 'warn', schema: PROVIDER_ONLY, config: { openWhileDraining: true }, onRequest, handler: plainGet, wsHandler: onSocket });
    }
  }
}

export function mediaStreamDeps(ctx: ApiContext, telephony: TelephonyContext): MediaStreamDeps {
  return {
    store: ctx.store,
    // A call is not cut when the shutdown grace of HTTP requests runs out: it goes on until it ends, or until the
    // call drain limit (`callsEnding`), when it speaks its closing line and hangs up.
    services: { ...ctx.services, shutdown: undefined },
    callsEnding: ctx.callsEnding,
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
