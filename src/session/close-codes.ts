// WebSocket close codes a session can end with: the spec's four plus the RFC 6455 codes for the cases
// the spec leaves open (a client breaking the flow rules). docs/websocket.md lists them.

export const CLOSE_CODES = {
  /** `disconnect`, idle timeout. */
  normal: 1000,
  /** The client broke a flow rule: stopped reading audio, or flooded messages faster than they are handled. */
  policyViolation: 1008,
  /** Message over the size limit (sent by the `ws` library itself). */
  messageTooBig: 1009,
  /** Session lost: concurrency slot lease or synthesis worker capacity revoked mid-session, or the server shutting down; reconnect. */
  sessionLost: 1011,
  /** Authentication failed. */
  authFailed: 4001,
  /** Internal server error. */
  internalError: 4002,
} as const;

export type CloseCode = (typeof CLOSE_CODES)[keyof typeof CLOSE_CODES];
