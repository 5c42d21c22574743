// A server-side WebSocket stream over a real loopback connection: messages sent in one turn of the event loop are
// held and leave together at the end of it, each still its own frame with its own bytes, in order; flush() sends
// them at once (a clear cannot wait for the turn to end).

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { webSocketStream, type StreamSocket } from '../../../src/telephony/stream-socket.js';

let server: Server | undefined;
let client: WebSocket | undefined;

afterEach(async () => {
  client?.terminate();
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
  }
  server = undefined;
  client = undefined;
});

/** A loopback server whose one connection is wrapped with its TCP socket, and the client's received messages. */
async function connect(): Promise<{ stream: StreamSocket; transport: Socket; received: { data: Buffer; isBinary: boolean }[] }> {
  const wss = new WebSocketServer({ noServer: true });
  server = createServer();
  const accepted = new Promise<{ stream: StreamSocket; transport: Socket }>((resolve) => {
    server!.on('upgrade', (request, socket, head) => {
      wss.handleUpgrade(request, socket, head, (ws) => resolve({ stream: webSocketStream(ws, request.socket), transport: request.socket }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const received: { data: Buffer; isBinary: boolean }[] = [];
  client.on('message', (data: Buffer, isBinary: boolean) => received.push({ data, isBinary }));
  await once(client, 'open');
  return { ...(await accepted), received };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('webSocketStream with its TCP socket', () => {
  it('holds a turn of messages and sends them at its end, each frame as sent', async () => {
    const { stream, transport, received } = await connect();
    const media = (n: number) => JSON.stringify({ event: 'media', streamSid: 'MZ1', media: { payload: Buffer.alloc(160, n).toString('base64') } });
    stream.send(media(1));
    stream.send(Uint8Array.of(1, 2, 3));
    stream.send(media(2));
    stream.send(JSON.stringify({ event: 'mark', streamSid: 'MZ1', mark: { name: 'p1' } }));
    // Held: all of it waits in the socket (an uncorked write to an idle loopback socket leaves at once, see below).
    expect(transport.writableLength).toBe(2 * (4 + media(1).length) + (2 + 3) + (2 + 55));
    await until(() => received.length === 4);
    expect(received.map(({ data, isBinary }) => (isBinary ? [...data] : data.toString()))).toEqual([
      media(1),
      [1, 2, 3],
      media(2),
      '{"event":"mark","streamSid":"MZ1","mark":{"name":"p1"}}',
    ]);
    expect(transport.writableLength).toBe(0);
  });

  it('sends at once on flush()', async () => {
    const { stream, transport, received } = await connect();
    stream.send(JSON.stringify({ event: 'clear', streamSid: 'MZ1' }));
    expect(transport.writableLength).toBe(2 + 35);
    stream.flush();
    // Handed to the kernel in this same turn.
    expect(transport.writableLength).toBe(0);
    await until(() => received.length === 1);
    expect(received[0]!.data.toString()).toBe('{"event":"clear","streamSid":"MZ1"}');
  });
});
