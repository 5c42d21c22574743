// Requests that arrive while the server shuts down: the spec's 503 envelope, and shutdown still ends. A WebSocket
// upgrade refused then used to keep its socket open forever (node's server forgets upgraded sockets), so the
// process never exited after SIGTERM.

import { connect, type Socket } from 'node:net';
import { expect, it } from 'vitest';
import { startTestServer } from '../helpers/test-server.js';

/** Everything the server sent on `socket` until it closed the connection. */
function readUntilClosed(socket: Socket): Promise<string> {
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  return new Promise((resolve) => socket.once('close', () => resolve(received)));
}

it('a WebSocket upgrade during shutdown gets 503 server_shutting_down, its socket is closed, and shutdown ends', async () => {
  const server = await startTestServer();
  const { port, hostname } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  const response = readUntilClosed(socket);
  // The request's first line before shutdown: the connection is busy with a request, so shutdown waits for it
  // (an idle one would just be closed). A full round trip on another connection afterwards proves the server has
  // read those bytes: they were readable on the same poll, or an earlier one, as that request.
  socket.write('GET /v1/tts/websocket HTTP/1.1\r\nHost: raaga\r\n');
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  const closed = server.close();
  socket.write('Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');

  const text = await response;
  const [head, body] = text.split('\r\n\r\n') as [string, string];
  expect(head.split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable');
  expect(head.toLowerCase()).toContain('\r\nconnection: close');
  expect(head.toLowerCase()).toContain('\r\nretry-after: 1');
  const envelope = JSON.parse(body) as { error: { status_code: number; code: string; message: string } };
  expect(envelope.error).toMatchObject({ status_code: 503, code: 'server_shutting_down' });
  expect(envelope.error.message).toMatch(/shutting down.*retry/);
  await closed; // hung forever before: the refused upgrade's socket held the server open
});
