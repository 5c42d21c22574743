// GET /v1/tts/websocket: registers @fastify/websocket, authenticates the upgrade, and binds each socket to a
// SynthesisSession (the protocol lives in src/session/). Also owns the set of live sessions, so a server
// drain lets each one finish its utterance and close with 1011 (reconnect).

import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { ApiError, errorEnvelope, isApiError } from '../../errors.js';
import { systemClock } from '../../session/clock.js';
import { CLOSE_CODES } from '../../session/close-codes.js';
import { SynthesisSession } from '../../session/synthesis-session.js';
import { errorMessage } from '../../session/session-errors.js';
import { refusesCachedAudio } from '../cache-control.js';
import { authenticate, type Principal } from '../auth.js';
import type { ApiContext } from '../context.js';
import { z } from 'zod';
import { errorResponses } from '../route-schemas.js';
import { MeteredSessionSink } from '../metered-session-sink.js';
import { authorizationFromUpgrade, selectSubprotocol } from '../websocket-key-protocol.js';
import { closeSocket, rawText } from '../../util/ws-socket.js';
import { maxOpenSessions, type OpenSockets } from '../open-sockets.js';
import { parseClientMessage } from '../websocket-messages.js';
import { WebSocketSessionSink } from '../websocket-sink.js';

export const WEBSOCKET_PATH = '/v1/tts/websocket';
/** 64 KiB: a 3000-character text is at most 12 KiB of UTF-8 (18 KiB if every character is \u-escaped). */
export const DEFAULT_WS_MAX_PAYLOAD_BYTES = 64 * 1024;

export function registerTtsWebSocket(app: FastifyInstance, ctx: ApiContext, openSockets: OpenSockets): void {
  const sessions = new Set<SynthesisSession>();
  ctx.draining?.addEventListener('abort', () => {
    for (const session of sessions) session.beginShutdown();
  }, { once: true });
  // The key is checked before the upgrade; the verdict waits here so a bad key still gets 101, then 4001.
  const verdicts = new WeakMap<FastifyRequest, Principal | ApiError>();

  void app.register(fastifyWebsocket, {
    // Browsers authenticate with the `raaga.key.<key>` subprotocol; the server answers `raaga`, never the key.
    options: { maxPayload: ctx.webSocket?.maxPayloadBytes ?? DEFAULT_WS_MAX_PAYLOAD_BYTES, handleProtocols: selectSubprotocol },
    // Socket errors: `ws` has already started closing (1002 protocol, 1007 bad UTF-8, 1009 too big) or the
    // peer is gone; the session learns it from 'close'. Only our own handler's errors need a close here.
    errorHandler: (error, socket, request) => {
      request.log.info({ err: error }, 'websocket error');
      closeSocket(socket, CLOSE_CODES.internalError, 'internal server error');
    },
    preClose: (done) => {
      // Sessions began to close when the drain began; this is for an app closed without one (tests).
      for (const session of sessions) session.beginShutdown();
      app.websocketServer.close();
      done();
    },
  });

  const checkKey = async (request: FastifyRequest): Promise<void> => {
    try {
      const authorization = authorizationFromUpgrade(request.headers.authorization, request.headers['sec-websocket-protocol']);
      verdicts.set(request, await authenticate(ctx.store, authorization));
    } catch (error) {
      verdicts.set(request, isApiError(error) ? error : new ApiError('internal_error', 'Authentication failed unexpectedly.'));
    }
  };

  void app.register(async (scope) => {
    scope.route({
      method: 'GET',
      url: WEBSOCKET_PATH,
      schema: {
        tags: ['synthesis'],
        operationId: 'websocket',
        summary: 'WebSocket session: config, then one sentence per text message, audio as binary frames.',
        description:
          'Upgrade with `Authorization: Bearer <key>`, or from a browser with the subprotocols `raaga` and `raaga.key.<key>` ' +
          '(the server selects `raaga`). A bad key still gets 101, then close code 4001. Messages: asyncapi.json, docs/websocket.md.',
        response: {
          101: z.null().meta({ description: 'Switching protocols; the server sends `connected` (or closes with 4001 for a bad key).' }),
          ...errorResponses(['bad_request']),
        },
      },
      onRequest: checkKey,
      // A plain GET (no Upgrade header) cannot speak the protocol.
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const error = new ApiError('bad_request', `${WEBSOCKET_PATH} is a WebSocket endpoint; connect with a WebSocket client (Upgrade: websocket).`);
        return reply.code(error.status).send(errorEnvelope(error, request.id));
      },
      wsHandler: (socket: WebSocket, request: FastifyRequest) => {
        const verdict = verdicts.get(request);
        if (verdict === undefined || verdict instanceof ApiError) {
          rejectSocket(socket, verdict);
          return;
        }
        const accountId = verdict.account.id;
        const cap = maxOpenSessions(verdict.account.plan);
        if (!openSockets.tryOpen(accountId, cap)) {
          socket.send(JSON.stringify(errorMessage(new ApiError('concurrency_limit_exceeded', `This account already has ${openSockets.count(accountId)} WebSocket sessions open on this server (at most ${cap}); close one first.`))));
          closeSocket(socket, CLOSE_CODES.policyViolation, 'too many open sessions');
          return;
        }
        const session = startSession(ctx, socket, verdict, request);
        sessions.add(session);
        ctx.metrics?.sessionOpened('websocket');
        void session.closed.then(() => {
          sessions.delete(session);
          openSockets.closed(accountId);
          ctx.metrics?.sessionClosed('websocket');
        });
      },
    });
  });
}

function rejectSocket(socket: WebSocket, error: ApiError | undefined): void {
  if (error?.code === 'invalid_api_key') {
    closeSocket(socket, CLOSE_CODES.authFailed, error.message);
  } else if (error?.code === 'store_unavailable') {
    closeSocket(socket, CLOSE_CODES.sessionLost, 'account store unavailable; reconnect');
  } else {
    closeSocket(socket, CLOSE_CODES.internalError, 'internal server error');
  }
}

function startSession(ctx: ApiContext, socket: WebSocket, { account, keyId }: Principal, request: FastifyRequest): SynthesisSession {
  const metered = ctx.metrics ? new MeteredSessionSink(new WebSocketSessionSink(socket), ctx.metrics, 'websocket') : undefined;
  const sink = metered ?? new WebSocketSessionSink(socket);
  const session = new SynthesisSession(
    {
      services: ctx.services,
      clock: ctx.webSocket?.clock ?? systemClock,
      logger: request.log.child({ accountId: account.id }),
      promptCache: !refusesCachedAudio(request.headers['cache-control']),
      usage: { keyId, endpoint: 'websocket' },
      ...(ctx.webSocket?.limits ? { limits: ctx.webSocket.limits } : {}),
    },
    account,
    sink,
  );
  socket.on('message', (data: RawData, isBinary: boolean) => {
    if (isBinary) {
      session.receiveInvalid(new ApiError('validation_error', 'Binary messages are not accepted; send JSON text messages.'));
      return;
    }
    try {
      const event = parseClientMessage(rawText(data));
      if (event.type === 'text') metered?.textReceived();
      session.receive(event);
    } catch (error) {
      session.receiveInvalid(isApiError(error) ? error : new ApiError('validation_error', 'The message could not be read.'));
    }
  });
  // The transport owns its lifecycle line (a phone call's session logs none of its own): the code is ours or the client's.
  socket.on('close', (code: number, reason: Buffer) => {
    request.log.info({ accountId: account.id, code, reason: reason.toString(), utterances: session.utterances }, 'websocket session closed');
    session.peerClosed();
  });
  session.open();
  return session;
}

