// The client's vocabulary, derived at compile time from the server's own zod schemas (type-only imports: nothing
// of the server is loaded at run time), so a field renamed on the server breaks the client's build, not its users.

import type { z } from 'zod';
import type { SynthesisResultSchema, VoicesByLanguageSchema, VoicesByVoiceSchema } from '../api/response-schemas.js';
import type { SynthesisBodySchema } from '../api/synthesis-request.js';
import type { ConfigMessageSchema } from '../api/websocket-messages.js';
import type { WebSocketServerMessage } from '../api/websocket-server-messages.js';

/** The body of POST /v1/tts/generate and /v1/tts/stream. */
export type SynthesisRequest = z.input<typeof SynthesisBodySchema>;
export type SynthesisResult = z.output<typeof SynthesisResultSchema>;
export type VoicesByLanguage = z.output<typeof VoicesByLanguageSchema>;
export type VoicesByVoice = z.output<typeof VoicesByVoiceSchema>;

/** A WebSocket `config` message without its `type`. */
export type SessionConfig = Omit<z.input<typeof ConfigMessageSchema>, 'type'>;

export type ServerMessage = WebSocketServerMessage;
export type ServerMessageOf<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;
export type ConfiguredMessage = ServerMessageOf<'configured'>;
export type EndOfUtteranceMessage = ServerMessageOf<'end_of_utterance'>;
export type CancellationMessage = ServerMessageOf<'cancellation'>;
export type ErrorMessage = ServerMessageOf<'error'>;
