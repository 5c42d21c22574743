// Browser authentication for /v1/tts/websocket: a browser cannot set `Authorization` on a WebSocket, so it offers
// the key as a subprotocol, `new WebSocket(url, ['raaga', 'raaga.key.<API key>'])`. The server selects the fixed
// `raaga` (never echoing the key) and reads the key from the offer. Never the query string: URLs end up in logs.

/** The subprotocol the server selects; a browser fails the handshake unless one it offered comes back. */
export const RAAGA_SUBPROTOCOL = 'raaga';
export const KEY_SUBPROTOCOL_PREFIX = 'raaga.key.';

/** The offered subprotocols, from a `Sec-WebSocket-Protocol` header (comma-separated, possibly repeated). */
export function offeredSubprotocols(header: string | string[] | undefined): string[] {
  const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
  return joined
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '');
}

/**
 * The `Authorization` value to authenticate with: the header when present (it wins), else a Bearer built from
 * the first `raaga.key.<key>` subprotocol, else undefined (a 4001 close follows).
 */
export function authorizationFromUpgrade(authorization: string | undefined, protocolHeader: string | string[] | undefined): string | undefined {
  if (authorization) return authorization;
  const offered = offeredSubprotocols(protocolHeader).find((token) => token.startsWith(KEY_SUBPROTOCOL_PREFIX));
  return offered === undefined ? undefined : `Bearer ${offered.slice(KEY_SUBPROTOCOL_PREFIX.length)}`;
}

/** `ws`'s handleProtocols: select `raaga` when offered; otherwise no subprotocol (header-authenticated clients). */
export function selectSubprotocol(offered: ReadonlySet<string>): string | false {
  return offered.has(RAAGA_SUBPROTOCOL) ? RAAGA_SUBPROTOCOL : false;
}
