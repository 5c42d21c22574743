// closeSocket over a real socket: a long Indic reason is cut to RFC 6455's 123 bytes on whole characters, not thrown.

import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { closeSocket, rawText } from '../../../src/util/ws-socket.js';

it('closes with a reason cut to 123 UTF-8 bytes at a character boundary', async () => {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  const reason = 'सत्र बंद हो रहा है क्योंकि सर्वर बहुत व्यस्त है और कोई जवाब नहीं दे रहा था'; // ~200 bytes
  expect(Buffer.byteLength(reason)).toBeGreaterThan(123);
  server.on('connection', (socket) => closeSocket(socket, 4002, reason));
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const [code, received] = (await once(client, 'close')) as [number, Buffer];
  expect(code).toBe(4002);
  expect(received.byteLength).toBeLessThanOrEqual(123);
  expect(received.byteLength).toBeGreaterThan(110);
  expect(reason.startsWith(received.toString('utf8'))).toBe(true);
  server.close();
});

it('reads text frames in every shape ws delivers', () => {
  expect(rawText(Buffer.from('नमस्ते'))).toBe('नमस्ते');
  expect(rawText([Buffer.from('न'), Buffer.from('मस्ते')])).toBe('नमस्ते');
  expect(rawText(new TextEncoder().encode('ok').buffer as ArrayBuffer)).toBe('ok');
});
