// buildApp(deps): the Fastify instance with hooks and routes, no listen and no environment,
// so tests build the same app the server runs.

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import './api/fastify-types.js';
import { ApiError } from './errors.js';
import { authenticate } from './api/auth.js';
import type { ApiContext } from './api/context.js';
import { AudioSocketListener } from './api/audiosocket-listener.js';
import { registerOpenApi } from './api/docs/openapi.js';
import { clientErrorAnswer, frameworkErrorAnswer, MAX_PATH_PARAM_CHARS, registerErrorHandling } from './api/error-handler.js';
import { useZodSchemas } from './api/route-schemas.js';
import { setRateLimitHeaders } from './api/rate-limit-headers.js';
import { registerHealthRoutes } from './api/routes/health.js';
import { registerMetricsRoute } from './api/routes/metrics.js';
import { registerPlaygroundCallRoute } from './api/routes/playground-call.js';
import { registerSynthesisRoutes } from './api/routes/synthesize.js';
import { registerTtsWebSocket } from './api/routes/tts-websocket.js';
import { OpenSockets } from './api/open-sockets.js';
import { registerElevenLabsRoutes } from './api/elevenlabs/elevenlabs-routes.js';
import { elevenLabsErrorDialect } from './api/elevenlabs/elevenlabs-errors.js';
import { registerProviderRoutes } from './api/routes/provider-routes.js';
import { registerCallControlRoutes } from './api/routes/calls.js';
import { registerOutboundCallRoutes } from './api/routes/outbound-calls.js';
import { registerVoicesRoute } from './api/routes/voices.js';
import { registerUsageRoute } from './api/routes/usage.js';
import { registerLexiconRoutes } from './api/routes/lexicons.js';
import { registerWebPages } from './api/routes/web-pages.js';
import { openAiErrorDialect } from './api/openai/openai-errors.js';
import { registerOpenAiRoutes } from './api/openai/openai-routes.js';

export interface AppDeps extends ApiContext {
  readonly logger: Logger;
  /** Slow or idle clients are cut: headers within `headersMs`, the whole request within `requestMs` (M6). */
  readonly httpTimeouts: HttpTimeouts;
}

export interface HttpTimeouts {
  readonly headersMs: number;
  readonly requestMs: number;
}

/** How often node looks for requests past their timeouts: a slow client is cut within its timeout plus this. */
const TIMEOUT_CHECK_INTERVAL_MS = 500;

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Vendor dialects whose paths answer errors in their own envelope (src/api/<dialect>/). */
const ERROR_DIALECTS = [openAiErrorDialect, elevenLabsErrorDialect];

export function buildApp(deps: AppDeps): FastifyInstance {
  const { headersMs, requestMs } = deps.httpTimeouts;
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: deps.maxBodyBytes,
    // Every listener this app serves (API, provider webhooks, media upgrades) cuts a client that holds a request
    // open: node closes it once headers or the whole request are late. An upgraded WebSocket is no longer a request.
    serverFactory: (handler) =>
      createServer({ headersTimeout: Math.min(headersMs, requestMs), requestTimeout: requestMs, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS }, handler),
    clientErrorHandler: clientErrorAnswer(deps.httpTimeouts),
    frameworkErrors: frameworkErrorAnswer(deps.maxBodyBytes, ERROR_DIALECTS),
    // Plivo's stream URL carries the call token (~180 characters) as a path segment; fastify's default is 100.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_CHARS },
    // Honour a sane client X-Request-Id so logs join across systems; otherwise make one.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    // fastify's own answer while closing is a bare 503 in its own shape, written around the hooks: on a WebSocket
    // upgrade nothing then destroys the socket, which holds shutdown open forever. The hook below answers instead.
    return503OnClosing: false,
  }) as unknown as FastifyInstance;

  const connections = new Set<Socket>();
  openConnections.set(app, connections);
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  app.decorate('shuttingDown', false);
  app.addHook('onRequest', async (request, reply) => {
    if (!app.shuttingDown || request.routeOptions.config.openWhileDraining === true) return;
    // The retry must not come back on this connection: behind a load balancer it reaches another instance.
    reply.header('Connection', 'close');
    // A refused WebSocket upgrade's socket belongs to no HTTP server any more: only this ends it.
    if (request.headers.upgrade !== undefined) reply.raw.once('finish', () => request.raw.socket.destroy());
    throw new ApiError('server_shutting_down', 'This server is shutting down and takes no new requests; retry (another instance, or this one once it is back).', {
      retryAfterSeconds: 1,
    });
  });

  // Bodies are JSON only; fastify's default text/plain parser would let other types reach validation.
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('account', null);
  app.decorateRequest('apiKeyId', null);
  app.decorateRequest('rateInfo', null);
  app.decorateRequest('errorCode', null);

  const requireAccount = async (request: FastifyRequest): Promise<void> => {
    const principal = await authenticate(deps.store, request.headers.authorization);
    request.account = principal.account;
    request.apiKeyId = principal.keyId;
    request.log = request.log.child({ accountId: request.account.id });
  };

  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    if (!request.account || reply.hasHeader('X-RateLimit-Limit')) return;
    try {
      setRateLimitHeaders(reply, request.rateInfo ?? (await deps.admission.rateStatus(request.account)));
    } catch {
      // The store is down: the response (often a 503 saying so) still goes out, without window headers.
    }
  });

  if (deps.metrics) {
    const metrics = deps.metrics;
    // The route pattern, never the raw URL: unknown paths would otherwise each become a time series.
    app.addHook('onResponse', async (request, reply) => {
      metrics.httpResponse(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, request.errorCode ?? undefined);
    });
  }

  // Asterisk AudioSocket is TCP, not HTTP: its listener lives beside the app and is started after app.listen()
  // (startAudioSocket), so a port it cannot bind fails the start like the HTTP port does.
  const telephony = deps.telephony;
  const audioSocket = telephony?.config.audioSocket ? new AudioSocketListener(deps, telephony, telephony.config.audioSocket, deps.logger) : null;
  app.decorate('audioSocket', audioSocket);
  if (audioSocket) {
    app.addHook('preClose', async () => audioSocket.beginShutdown());
    app.addHook('onClose', async () => audioSocket.closed());
  }

  registerErrorHandling(app, deps.maxBodyBytes, ERROR_DIALECTS);
  useZodSchemas(app);
  registerOpenApi(app);
  // In a plugin of their own so they are added after swagger has loaded and documents each of them.
  void app.register(async (api) => {
    registerMetricsRoute(api, deps);
    registerWebPages(api);
    registerHealthRoutes(api, deps);
    registerVoicesRoute(api, deps, requireAccount);
    registerUsageRoute(api, deps, requireAccount);
    registerLexiconRoutes(api, deps, requireAccount);
    registerSynthesisRoutes(api, deps, requireAccount);
    registerOpenAiRoutes(api, deps, requireAccount);
    // One count of open streaming sockets per account across both dialects.
    const openSockets = new OpenSockets();
    registerTtsWebSocket(api, deps, openSockets);
    registerElevenLabsRoutes(api, deps, openSockets);
    // After the WebSocket plugin, which the media stream routes need.
    registerProviderRoutes(api, deps);
    registerCallControlRoutes(api, deps, requireAccount);
    registerOutboundCallRoutes(api, deps, requireAccount);
    registerPlaygroundCallRoute(api, deps, requireAccount);
  });
  return app;
}

/** Connections still open this long after the grace period are cut, so shutdown always ends. */
const FORCE_CLOSE_AFTER_GRACE_MS = 2_000;
/**
 * Every connection each app's HTTP server accepted and has not closed, WebSockets included: node's server forgets a
 * socket once it is upgraded, so its closeAllConnections() cannot cut a call or a WebSocket session.
 */
const openConnections = new WeakMap<FastifyInstance, Set<Socket>>();
const IDLE_SWEEP_MS = 200;

/**
 * Graceful close: stop accepting, let in-flight requests finish for `graceMs`, then abort them.
 * Fastify closes idle keep-alive connections once, at the start; a connection whose response ends later
 * would hold the server open until its keep-alive timeout (72 s), so idle connections are swept until done.
 */
export async function closeApp(app: FastifyInstance, graceMs: number, onGraceExpired: () => void): Promise<void> {
  app.shuttingDown = true;
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  const force = setTimeout(() => {
    app.server.closeAllConnections();
    for (const socket of openConnections.get(app) ?? []) socket.destroy();
  }, graceMs + FORCE_CLOSE_AFTER_GRACE_MS);
  const grace = setTimeout(onGraceExpired, graceMs);
  for (const timer of [sweep, force, grace]) timer.unref();
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(force);
    clearTimeout(grace);
  }
}

/**
 * The server's drain on SIGTERM, so a deploy keeps every live call: /readyz turns 503 at once and new calls are
 * refused the way overload refuses them (webhooks answer busy, POST /v1/calls 503 with Retry-After); HTTP requests
 * get SHUTDOWN_GRACE_MS to finish, TTS WebSocket sessions finish their utterance and close 1011 (reconnect); live
 * calls go on until they end, or until CALL_DRAIN_LIMIT_MS, when each says its closing line and hangs up. The
 * listener stays open meanwhile (a provider's webhook for a new call is answered, not refused at the TCP level); the
 * app closes once no call is left. docs/operations.md ("Shutdown") has the timeline.
 */
export interface DrainOptions {
  /** What HTTP requests and TTS WebSocket sessions are given to finish (SHUTDOWN_GRACE_MS). */
  readonly graceMs: number;
  /** What live calls are given (CALL_DRAIN_LIMIT_MS). */
  readonly callDrainLimitMs: number;
  /** How often the number of calls still live is logged while the drain waits for them. */
  readonly progressEveryMs?: number;
}

const PROGRESS_EVERY_MS = 30_000;

/** What a drain acts on: the three signals of the shutdown's phases and the call admission (deps.ts builds them). */
export interface DrainControllers {
  readonly drainController: AbortController;
  readonly shutdownController: AbortController;
  readonly callsEndingController: AbortController;
  readonly telephony?: Pick<NonNullable<ApiContext['telephony']>, 'callAdmission'> | undefined;
}

/** Runs the drain to its end: resolves once the app is closed (every call over, every request finished or cut). */
export async function drainApp(app: FastifyInstance, deps: DrainControllers, logger: Logger, options: DrainOptions): Promise<void> {
  const startedAt = performance.now();
  app.shuttingDown = true;
  deps.telephony?.callAdmission.beginDrain();
  deps.drainController.abort('shutdown');
  const grace = setTimeout(() => deps.shutdownController.abort('shutdown'), options.graceMs);
  const limit = setTimeout(() => {
    logger.warn({ liveCalls: deps.telephony?.callAdmission.liveCalls ?? 0, callDrainLimitMs: options.callDrainLimitMs }, 'call drain limit reached: live calls say their closing line and hang up');
    deps.callsEndingController.abort('call drain limit');
  }, options.callDrainLimitMs);
  const progress = setInterval(
    () => logger.info({ liveCalls: deps.telephony?.callAdmission.liveCalls ?? 0, drainingForMs: Math.round(performance.now() - startedAt) }, 'draining: waiting for live calls to end'),
    options.progressEveryMs ?? PROGRESS_EVERY_MS,
  );
  for (const timer of [grace, limit, progress]) timer.unref();
  try {
    logger.info({ liveCalls: deps.telephony?.callAdmission.liveCalls ?? 0, graceMs: options.graceMs, callDrainLimitMs: options.callDrainLimitMs }, 'draining: new calls refused, live calls go on');
    await deps.telephony?.callAdmission.whenNoCalls();
    logger.info({ drainingForMs: Math.round(performance.now() - startedAt) }, 'draining: no call left; closing');
    // HTTP requests keep what is left of their grace (counted from the signal).
    const graceLeftMs = Math.max(0, options.graceMs - (performance.now() - startedAt));
    await closeApp(app, graceLeftMs, () => deps.shutdownController.abort('shutdown'));
  } finally {
    clearTimeout(grace);
    clearTimeout(limit);
    clearInterval(progress);
  }
}
