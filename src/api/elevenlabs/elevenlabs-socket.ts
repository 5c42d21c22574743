// ElevenLabs' streaming-input sockets, so LiveKit's and pipecat's ElevenLabs services reach Raaga by changing one
// base URL and one key: `…/text-to-speech/{voice_id}/stream-input` (one context, ended by an empty text) and
// `…/multi-stream-input` (contexts named by `context_id`, each flushed and closed on its own: how those frameworks
// barge in). Text is spoken clause by clause as it arrives (session/streamed-input-session.ts); audio comes back as
// base64 JSON with `alignment` (each character's start and duration, from the engine's word timings) where the engine
// has them. Keys: `xi-api-key` (or `Authorization: Bearer`), or `xi_api_key` in stream-input's first message.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import { languageOfScript } from '../../core/text/script-language.js';
import type { CharacterAlignment } from '../../core/synthesis/character-alignment.js';
import { ApiError, isApiError } from '../../errors.js';
import type { LanguageCode } from '../../languages.js';
import { systemClock } from '../../session/clock.js';
import { CLOSE_CODES } from '../../session/close-codes.js';
import { DEFAULT_SESSION_LIMITS } from '../../session/session-limits.js';
import type { AudioSpan, SegmentSpeaker } from '../../session/streamed-context.js';
import { StreamedInputSession, type StreamedInputLimits, type StreamedInputSocket } from '../../session/streamed-input-session.js';
import type { ResolvedVoice } from '../../core/voice-resolver.js';
import type { Account } from '../../store/store.js';
import { closeSocket, rawText } from '../../util/ws-socket.js';
import { authenticate, type Principal } from '../auth.js';
import { refusesCachedAudio } from '../cache-control.js';
import type { ApiContext } from '../context.js';
import { maxOpenSessions, type OpenSockets } from '../open-sockets.js';
import { ELEVENLABS_MESSAGE_TIMES_PREFIX, ELEVENLABS_PREFIX, elevenLabsKey } from './elevenlabs-auth.js';
import { parseDictionaryLocators, parseLanguageCode, parseOutputFormat, parseVoiceSpeed } from './elevenlabs-request.js';

/** ElevenLabs' own default and ceiling for `inactivity_timeout`, in seconds. */
const DEFAULT_INACTIVITY_S = 20;
const MAX_INACTIVITY_S = 180;
/** The first message must bring the key when the upgrade did not (a browser cannot set headers). */
const KEY_MESSAGE_DEADLINE_MS = 10_000;

/** The cutting of streamed text and the pace of sending, as on /v1/tts/websocket. */
const STREAM_LIMITS: Omit<StreamedInputLimits, 'idleTimeoutMs'> = {
  clauseCutChars: 60,
  maxPendingChars: 300,
  maxQueuedSegments: 64,
  maxContexts: 5,
  highWaterBytes: DEFAULT_SESSION_LIMITS.highWaterBytes,
  backpressurePollMs: DEFAULT_SESSION_LIMITS.backpressurePollMs,
  stallTimeoutMs: DEFAULT_SESSION_LIMITS.stallTimeoutMs,
  maxPendingEvents: DEFAULT_SESSION_LIMITS.maxPendingEvents,
};

const QuerySchema = z
  .object({
    model_id: z.string().max(200).optional(),
    language_code: z.string().max(20).optional(),
    output_format: z.string().max(40).optional(),
    inactivity_timeout: z.coerce.number().int().min(1).max(MAX_INACTIVITY_S).optional(),
  })
  .loose();

const ClientMessageSchema = z
  .object({
    text: z.string().optional(),
    context_id: z.string().min(1).max(256).optional(),
    flush: z.boolean().optional(),
    close_context: z.boolean().optional(),
    close_socket: z.boolean().optional(),
    voice_settings: z.unknown().optional(),
    pronunciation_dictionary_locators: z.unknown().optional(),
    xi_api_key: z.string().max(512).optional(),
  })
  .loose();
type ClientMessage = z.infer<typeof ClientMessageSchema>;

type Variant = 'single' | 'multi';
/** Where alignment times count from: the context's audio, or each message's own. */
type AlignmentTimes = 'context' | 'message';
/** stream-input's one context. */
const SINGLE_CONTEXT = '';

interface SocketRequest {
  readonly voiceId: string;
  readonly language: LanguageCode | undefined;
  readonly format: ReturnType<typeof parseOutputFormat>;
  readonly idleTimeoutMs: number;
}

export function registerElevenLabsSockets(app: FastifyInstance, ctx: ApiContext, openSockets: OpenSockets): void {
  const sessions = new Set<StreamedInputSession>();
  ctx.draining?.addEventListener('abort', () => {
    for (const session of sessions) session.beginShutdown();
  }, { once: true });
  app.addHook('preClose', (done) => {
    for (const session of sessions) session.close(CLOSE_CODES.sessionLost, 'server shutting down; reconnect');
    done();
  });

  // In a plugin of its own, so the WebSocket plugin (registered by the /v1/tts/websocket route) has loaded first.
  void app.register(async (scope) => {
    const routes = [ELEVENLABS_PREFIX, ELEVENLABS_MESSAGE_TIMES_PREFIX].flatMap((prefix) =>
      (['single', 'multi'] as const).map((variant) => ({
        variant,
        times: (prefix === ELEVENLABS_PREFIX ? 'context' : 'message') as AlignmentTimes,
        url: `${prefix}/text-to-speech/:voiceId/${variant === 'single' ? 'stream-input' : 'multi-stream-input'}`,
      })),
    );
    for (const { variant, times, url } of routes) {
      scope.route({
        method: 'GET',
        url,
        schema: { hide: true },
        handler: async (_request, reply) => reply.code(400).send({ detail: { status: 'bad_request', message: `${url} is a WebSocket endpoint.` } }),
        wsHandler: (socket: WebSocket, request: FastifyRequest) => {
          void accept(ctx, { variant, times }, socket, request, sessions, openSockets).catch((error: unknown) => {
            request.log.error({ err: error }, 'elevenlabs socket failed');
            closeSocket(socket, CLOSE_CODES.internalError, 'internal server error');
          });
        },
      });
    }
  });
}

async function accept(
  ctx: ApiContext,
  { variant, times }: { readonly variant: Variant; readonly times: AlignmentTimes },
  socket: WebSocket,
  request: FastifyRequest,
  sessions: Set<StreamedInputSession>,
  openSockets: OpenSockets,
): Promise<void> {
  const send = (message: object): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const refuse = (error: ApiError): void => {
    send({ error: error.code, message: error.message });
    closeSocket(socket, CLOSE_CODES.policyViolation, error.message);
  };
  let params: SocketRequest;
  try {
    params = socketRequest(request);
  } catch (error) {
    if (isApiError(error)) return refuse(error);
    throw error;
  }
  // Messages that arrive while the key is checked wait for the session.
  const early: RawData[] = [];
  const hold = (data: RawData): void => void early.push(data);
  socket.on('message', hold);
  let principal: Principal;
  try {
    const header = elevenLabsKey(request.headers);
    const key = header ?? (variant === 'single' ? await keyFromFirstMessage(socket, early) : undefined);
    if (key === undefined) throw new ApiError('invalid_api_key', 'Send your Raaga API key in the xi-api-key header.');
    principal = await authenticate(ctx.store, `Bearer ${key}`);
  } catch (error) {
    socket.off('message', hold);
    if (isApiError(error)) return refuse(error.code === 'invalid_api_key' ? new ApiError('invalid_api_key', 'Invalid API key.') : error);
    throw error;
  }
  const { account, keyId } = principal;
  const cap = maxOpenSessions(account.plan);
  if (!openSockets.tryOpen(account.id, cap)) {
    socket.off('message', hold);
    return refuse(new ApiError('concurrency_limit_exceeded', `This account already has ${cap} streaming sockets open on this server; close one first.`));
  }
  const output = socketOutput(socket, variant, times);
  const session = new StreamedInputSession(
    {
      account,
      services: ctx.services,
      clock: ctx.webSocket?.clock ?? systemClock,
      logger: request.log.child({ accountId: account.id }),
      limits: { ...STREAM_LIMITS, idleTimeoutMs: params.idleTimeoutMs },
      usage: { keyId, endpoint: 'elevenlabs_stream_input' },
      promptCache: !refusesCachedAudio(request.headers['cache-control']),
      audio: {
        voiceName: params.voiceId,
        format: params.format.format,
        sampleRateHz: params.format.sampleRateHz,
        speed: 1,
        speaker: speakerFor(ctx, account, params),
      },
    },
    {
      ...output,
      final: (contextId) => {
        output.final(contextId);
        // stream-input's one context is the socket: its end is the socket's.
        if (variant === 'single') session.close(CLOSE_CODES.normal, 'end of input');
      },
      failed: (contextId, error) => {
        output.failed(contextId, error);
        if (variant === 'single') session.close(CLOSE_CODES.policyViolation, error.message);
      },
    },
  );
  sessions.add(session);
  ctx.metrics?.sessionOpened('websocket');
  void session.closed.then(() => {
    sessions.delete(session);
    openSockets.closed(account.id);
    ctx.metrics?.sessionClosed('websocket');
  });
  const onMessage = (data: RawData, isBinary: boolean): void => {
    if (isBinary) return session.invalid(undefined, new ApiError('validation_error', 'Binary messages are not accepted; send JSON text messages.'));
    let message: ClientMessage;
    try {
      message = ClientMessageSchema.parse(JSON.parse(rawText(data)));
    } catch {
      return session.invalid(variant === 'single' ? SINGLE_CONTEXT : undefined, new ApiError('validation_error', 'The message is not a JSON object of the documented fields.'));
    }
    dispatch(session, variant, message);
  };
  socket.off('message', hold);
  socket.on('message', onMessage);
  socket.on('close', (code: number) => {
    request.log.info({ accountId: account.id, code, variant }, 'elevenlabs socket closed');
    session.peerClosed();
  });
  session.open();
  for (const data of early) onMessage(data, false);
}

function socketRequest(request: FastifyRequest): SocketRequest {
  const query = QuerySchema.safeParse(request.query);
  if (!query.success) {
    const field = query.error.issues[0]?.path.join('.') ?? 'query';
    throw new ApiError('validation_error', `Query parameter '${field}' is invalid (inactivity_timeout: whole seconds from 1 to ${MAX_INACTIVITY_S}).`);
  }
  const { voiceId } = request.params as { voiceId: string };
  const format = parseOutputFormat(query.data.output_format);
  if (format.format === 'opus') {
    // Each segment is its own encoder stream: Ogg pages of several streams would make a chained Ogg file.
    throw new ApiError('validation_error', `output_format '${query.data.output_format}' is served on the HTTP routes; the streaming sockets send pcm_*, ulaw_8000, alaw_8000 or mp3_*.`);
  }
  return {
    voiceId,
    language: parseLanguageCode(query.data.language_code),
    format,
    idleTimeoutMs: (query.data.inactivity_timeout ?? DEFAULT_INACTIVITY_S) * 1000,
  };
}

/** The voice, per language: the socket's, or each segment's script when the socket named none. */
function speakerFor(ctx: ApiContext, account: Account, params: SocketRequest): (text: string) => Promise<SegmentSpeaker> {
  const resolved = new Map<LanguageCode, Promise<ResolvedVoice>>();
  return async (text) => {
    const language = params.language ?? languageOfScript(text);
    let voice = resolved.get(language);
    if (!voice) {
      voice = ctx.voices.resolve(account, params.voiceId, language);
      resolved.set(language, voice);
      // A refusal is not kept: the voice may be created meanwhile.
      voice.catch(() => resolved.delete(language));
    }
    return { language, voice: await voice };
  };
}

/** stream-input without a key header: the first message carries `xi_api_key` (ElevenLabs' browser form). */
function keyFromFirstMessage(socket: WebSocket, early: RawData[]): Promise<string | undefined> {
  const read = (data: RawData): string | undefined => {
    try {
      const parsed = ClientMessageSchema.safeParse(JSON.parse(rawText(data)));
      return parsed.success ? parsed.data.xi_api_key : undefined;
    } catch {
      return undefined;
    }
  };
  if (early.length > 0) return Promise.resolve(read(early[0] as RawData));
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(undefined), KEY_MESSAGE_DEADLINE_MS);
    timer.unref();
    const onMessage = (): void => finish(read(early[0] as RawData));
    const finish = (key: string | undefined): void => {
      clearTimeout(timer);
      socket.off('message', onMessage);
      socket.off('close', onClose);
      resolve(key);
    };
    const onClose = (): void => finish(undefined);
    // `early` collects the message (its listener was added first); this one only wakes up.
    socket.on('message', onMessage);
    socket.once('close', onClose);
  });
}

function dispatch(session: StreamedInputSession, variant: Variant, message: ClientMessage): void {
  if (message.close_socket === true) return session.close(CLOSE_CODES.normal, 'close_socket');
  const contextId = variant === 'single' ? SINGLE_CONTEXT : message.context_id;
  if (contextId === undefined) {
    // pipecat's keep-alive names no context; anything else must.
    if (message.text === '' && message.flush !== true) return session.keepAlive();
    return session.invalid(undefined, new ApiError('validation_error', 'context_id is required on multi-stream-input.'));
  }
  if (message.close_context === true) return session.closeContext(contextId);
  let speed: number | undefined;
  let lexicons: string[] | undefined;
  try {
    speed = parseVoiceSpeed(message.voice_settings);
    lexicons = parseDictionaryLocators(message.pronunciation_dictionary_locators);
  } catch (error) {
    if (isApiError(error)) return session.invalid(contextId, error);
    throw error;
  }
  const { text } = message;
  if (variant === 'single' && text === '') {
    // stream-input's end of input: what was sent is spoken, then `isFinal` and the close.
    session.flush(contextId);
    return session.closeContext(contextId);
  }
  if (text === undefined) {
    if (message.flush === true) return session.flush(contextId);
    return session.keepAlive();
  }
  // multi-stream-input: an empty text keeps its context alive.
  if (text === '' && message.flush !== true) return session.keepAlive();
  // Like voice_settings, the dictionaries of the message that opens a context are the context's.
  session.text(contextId, text, { flush: message.flush === true, ...(speed !== undefined ? { speed } : {}), ...(lexicons !== undefined ? { lexicons } : {}) });
}

/**
 * ElevenLabs' socket alignment. With `message` times, each message's times start at its own audio and its last
 * character lasts to the message's end (pauses included), so a client adding up the messages stays on the audio.
 */
function alignmentJson(alignment: CharacterAlignment | undefined, span: AudioSpan, times: AlignmentTimes): object | null {
  if (!alignment) return null;
  if (times === 'context') return { chars: alignment.chars, charStartTimesMs: alignment.startsMs, charDurationsMs: alignment.durationsMs };
  const starts = alignment.startsMs.map((ms) => Math.max(0, Math.round(ms - span.startMs)));
  const durations = [...alignment.durationsMs];
  const last = starts.length - 1;
  if (last >= 0) durations[last] = Math.max(0, Math.round(span.endMs - span.startMs) - (starts[last] as number));
  return { chars: alignment.chars, charStartTimesMs: starts, charDurationsMs: durations };
}

/** The session's events in ElevenLabs' shapes; stream-input's carry no context id. */
function socketOutput(socket: WebSocket, variant: Variant, times: AlignmentTimes): StreamedInputSocket {
  const send = (message: object): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  // A refusal of a message that named no context carries none.
  const idOf = (contextId: string): object => (variant === 'multi' && contextId !== '' ? { contextId } : {});
  return {
    audio: (contextId, bytes, alignment, span) => {
      // Raaga's text is normalized inside the engine; both alignments carry the text as the client sent it.
      const timing = alignmentJson(alignment, span, times);
      send({ audio: Buffer.from(bytes).toString('base64'), isFinal: null, normalizedAlignment: timing, alignment: timing, ...idOf(contextId) });
    },
    final: (contextId) => send({ isFinal: true, ...idOf(contextId) }),
    failed: (contextId, error) => send({ error: error.code, message: error.message, ...idOf(contextId) }),
    bufferedBytes: () => socket.bufferedAmount,
    close: (code, reason) => closeSocket(socket, code, reason),
  };
}
