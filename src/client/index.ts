// `raaga/client`: a typed TypeScript client for the Raaga TTS API (HTTP generate and stream, WebSocket sessions)
// with the spec's retry guidance built in. Imports nothing of the server at run time.

export { RaagaClient, type CallOptions, type GenerateResult, type RaagaClientOptions, type StreamInfo, type StreamOptions } from './raaga-client.js';
export { RaagaSession, type SessionEvents, type SpokenUtterance, type UtteranceResult } from './websocket-session.js';
export { RaagaApiError, RaagaSessionClosedError } from './errors.js';
export { DEFAULT_RETRY_OPTIONS, retryDecision, type FailedAttempt, type RetryDecision, type RetryOptions } from './retry.js';
export type * from './types.js';
