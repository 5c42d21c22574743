// The client's one WebSocket: the platform's standard WebSocket where there is one (browsers, Node 22+), whose key
// travels as a subprotocol because browsers cannot set headers; on Node 20 the `ws` package, with the spec's
// Authorization header. Both are used through the standard WebSocket interface only.

/** The part of the standard WebSocket interface the client uses (the DOM's and `ws`'s both have it). */
export interface ClientSocket {
  readonly readyState: number;
  binaryType: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { readonly data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { readonly code: number; readonly reason: string }) => void): void;
  addEventListener(type: 'error', listener: (event: unknown) => void): void;
}

export const SOCKET_OPEN = 1;

type StandardWebSocket = new (url: string, protocols?: string | string[]) => ClientSocket;
type WsWebSocket = new (url: string, options: { headers: Record<string, string>; handshakeTimeout: number }) => ClientSocket;

/** The subprotocols the server accepts in place of the header: `raaga` plus the key. */
export function keyProtocols(apiKey: string): string[] {
  return ['raaga', `raaga.key.${apiKey}`];
}

export async function openSocket(url: string, apiKey: string, connectTimeoutMs: number): Promise<ClientSocket> {
  const Standard = (globalThis as { WebSocket?: StandardWebSocket }).WebSocket;
  let socket: ClientSocket;
  if (Standard) {
    socket = new Standard(url, keyProtocols(apiKey));
  } else {
    // A variable specifier keeps browser bundlers from pulling `ws` in; it is only reached on Node without WebSocket.
    const wsModule = 'ws';
    const { default: Ws } = (await import(wsModule)) as { default: WsWebSocket };
    socket = new Ws(url, { headers: { authorization: `Bearer ${apiKey}` }, handshakeTimeout: connectTimeoutMs });
  }
  socket.binaryType = 'arraybuffer';
  return socket;
}

/** A message's data as bytes (binary frame) or text. */
export function messageData(data: unknown): Uint8Array | string {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return String(data);
}
