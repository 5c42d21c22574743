// The simulated Twilio peer against a tiny local WebSocket server on port 0 that plays a scripted Raaga: the peer's
// opening, 20 ms framing, signature, DTMF and stop; playout with mark echoes, clear and underruns on an injected
// clock; abrupt drops and half-open vanishing; and the voice webhook round trip. The bridge's own tests use this peer
// against the real server.

import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { parseWav } from '../../../src/audio/wav.js';
import { CallerTrack } from '../../../src/sim/caller-audio.js';
import { CallPeer } from '../../../src/sim/call-peer.js';
import { fetchStreamInstruction, VOICE_WEBHOOK_PATH } from '../../../src/sim/dialects/twilio-voice-webhook-client.js';
import { FakeClock } from '../../helpers/fake-clock.js';

type Json = Record<string, any>;

interface Connection {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
  /** Every message from the peer, in arrival order. */
  readonly received: { readonly message: Json }[];
  readonly closed: Promise<number>;
  next(event: string, timeoutMs?: number): Promise<{ message: Json }>;
  sendAudio(ms: number, byte?: number): void;
  send(message: Json): void;
}

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A WebSocket server on port 0; `onConnection` scripts one call. */
async function scriptedServer(onConnection: (connection: Connection) => void | Promise<void>, verify?: (request: IncomingMessage) => boolean) {
  const wss = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    ...(verify ? { verifyClient: (info: { req: IncomingMessage }, done: (ok: boolean, code?: number) => void) => done(verify(info.req), 403) } : {}),
  });
  await once(wss, 'listening');
  servers.push(wss);
  const connections: Connection[] = [];
  wss.on('connection', (socket, request) => {
    const received: Connection['received'][number][] = [];
    const waiters = new Set<() => void>();
    const cursors = new Map<string, number>();
    socket.on('message', (data) => {
      received.push({ message: JSON.parse(data.toString()) as Json });
      for (const waiter of [...waiters]) waiter();
    });
    const connection: Connection = {
      socket,
      request,
      received,
      closed: new Promise((resolve) => socket.once('close', (code) => resolve(code))),
      next(event, timeoutMs = 3000) {
        // Each call consumes the next message of that event not yet returned.
        const index = cursors.get(event) ?? 0;
        cursors.set(event, index + 1);
        return new Promise((resolve, reject) => {
          const check = () => {
            const hit = received.filter((r) => r.message.event === event)[index];
            if (hit) {
              waiters.delete(check);
              clearTimeout(timer);
              resolve(hit);
            }
          };
          const timer = setTimeout(() => reject(new Error(`no ${event} #${index + 1}`)), timeoutMs);
          waiters.add(check);
          check();
        });
      },
      sendAudio(ms, byte = 0x10) {
        for (let sent = 0; sent < ms; sent += 20) {
          connection.send({ event: 'media', streamSid: 'MZ', media: { payload: Buffer.alloc(160, byte).toString('base64') } });
        }
      },
      send(message) {
        socket.send(JSON.stringify(message));
      },
    };
    connections.push(connection);
    // A script that fails shows up as the assertion that waits on it; keep it from being an unhandled rejection.
    Promise.resolve(onConnection(connection)).catch(() => undefined);
  });
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v1/telephony/twilio/media`;
  return { url, connections };
}

/** A peer on a fake clock, connected to an unscripted server whose side of the call has read `start`. */
async function startedPeer() {
  const server = await scriptedServer(() => undefined);
  const clock = new FakeClock(0);
  const peer = await CallPeer.connect({ url: server.url, clock });
  await vi.waitFor(() => expect(server.connections).toHaveLength(1));
  const connection = server.connections[0]!;
  await connection.next('start');
  return { clock, peer, connection };
}

describe('CallPeer', () => {
  it('opens like Twilio (signed), then sends 20 ms media frames paced by its clock, and stop', async () => {
    const authToken = 'test-auth-token';
    const publicUrl = 'wss://raaga.example/v1/telephony/twilio/media';
    const server = await scriptedServer(() => undefined);
    const clip = new Uint8Array(400).fill(0x05);
    const clock = new FakeClock(0);
    const peer = await CallPeer.connect({
      url: server.url,
      signature: { authToken, url: publicUrl },
      customParameters: { voice: 'meera', language: 'hi-IN' },
      caller: new CallerTrack([{ atMs: 300, mulaw: clip, label: 'hello' }]),
      clock,
    });
    await vi.waitFor(() => expect(server.connections).toHaveLength(1));
    const connection = server.connections[0]!;
    const mediaIn = () => connection.received.filter((r) => r.message.event === 'media');
    // Paced, not burst: a frame leaves when its 20 ms have passed on the peer's clock, and only then.
    await clock.advance(500);
    await vi.waitFor(() => expect(mediaIn()).toHaveLength(25));
    await clock.advance(500);
    await vi.waitFor(() => expect(mediaIn()).toHaveLength(50));
    await peer.stop();
    const signature = connection.request.headers['x-twilio-signature'];
    expect(typeof signature).toBe('string');
    expect(twilio.validateRequest(authToken, signature as string, publicUrl, {})).toBe(true);

    const messages = connection.received.map((r) => r.message);
    expect(messages[0]).toEqual({ event: 'connected', protocol: 'Call', version: '1.0.0' });
    expect(messages[1]).toEqual({
      event: 'start',
      sequenceNumber: '1',
      streamSid: peer.start.streamSid,
      start: {
        accountSid: peer.start.accountSid,
        streamSid: peer.start.streamSid,
        callSid: peer.start.callSid,
        tracks: ['inbound'],
        customParameters: { voice: 'meera', language: 'hi-IN' },
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
      },
    });
    expect(peer.start.callSid).toMatch(/^CA[0-9a-f]{32}$/);
    const media = mediaIn();
    expect(media).toHaveLength(50);
    media.forEach(({ message }, i) => {
      expect(message.sequenceNumber).toBe(String(i + 2));
      expect(message.media).toMatchObject({ track: 'inbound', chunk: String(i + 1), timestamp: String(i * 20) });
      expect(Buffer.from(message.media.payload, 'base64').length).toBe(160);
    });
    // The clip (300-350 ms) sits in frames 15-17.
    const payload = (i: number) => Buffer.from(media[i]!.message.media.payload, 'base64');
    expect([...payload(14)].every((b) => b === 0xff)).toBe(true);
    expect([...payload(15)].every((b) => b === 0x05)).toBe(true);
    expect(payload(17).subarray(0, 80).every((b) => b === 0x05)).toBe(true);
    expect(messages.at(-1)).toMatchObject({ event: 'stop', streamSid: peer.start.streamSid, stop: { callSid: peer.start.callSid } });
    expect(await connection.closed).toBe(1000);
    expect(peer.timeline.map((e) => e.kind)).toEqual(['connected', 'start', 'caller_speech', 'stop_sent', 'closed']);
  });

  it('plays received audio at its clock and echoes each mark once the audio before it has played', async () => {
    const server = await scriptedServer(async (c) => {
      await c.next('start');
      c.send({ event: 'mark', streamSid: 'MZ', mark: { name: 'nothing-buffered' } });
      c.sendAudio(300);
      c.send({ event: 'mark', streamSid: 'MZ', mark: { name: 'after-300' } });
    });
    const clock = new FakeClock(0);
    const peer = await CallPeer.connect({ url: server.url, clock });
    const echoed = () => peer.timeline.filter((e) => e.kind === 'mark_echoed').map((e) => e.detail);
    await peer.waitFor('mark_received', 3000, (detail) => detail === 'after-300');
    // Nothing was buffered before the first mark: it came back at once; the second waits for its 300 ms to play.
    expect(echoed()).toEqual(['nothing-buffered']);
    await clock.advance(299);
    expect(echoed()).toEqual(['nothing-buffered']);
    await clock.advance(1);
    expect(echoed()).toEqual(['nothing-buffered', 'after-300']);
    const connection = server.connections[0]!;
    await vi.waitFor(() => expect(connection.received.filter((r) => r.message.event === 'mark').map((r) => r.message.mark.name)).toEqual(['nothing-buffered', 'after-300']));
    await clock.advance(300);
    await peer.stop();
    const summary = peer.summary();
    expect(summary).toMatchObject({ mediaReceived: 15, marksReceived: 2, marksEchoed: 2, marksEchoedByClear: 0, clears: 0 });
    expect(summary.playout).toMatchObject({ receivedMs: 300, clearedMs: 0, underruns: 0 });
    // What the caller heard: 300 ms of the server's audio, then silence.
    const heard = parseWav(peer.heardWav(600));
    expect(heard.sampleRateHz).toBe(8000);
    const firstInMs = summary.firstMediaInMs!;
    const at = (ms: number) => heard.samples[Math.round(ms * 8)]!;
    expect(at(firstInMs + 150)).not.toBe(0);
    expect(at(firstInMs + 320)).toBe(0);
  });

  it('on clear drops what has not played and echoes every pending mark at once', async () => {
    let sendClear!: () => void;
    const clearWanted = new Promise<void>((resolve) => (sendClear = resolve));
    const server = await scriptedServer(async (c) => {
      await c.next('start');
      c.sendAudio(2000, 0x20);
      c.send({ event: 'mark', streamSid: 'MZ', mark: { name: 'a' } });
      c.sendAudio(1000, 0x30);
      c.send({ event: 'mark', streamSid: 'MZ', mark: { name: 'b' } });
      await clearWanted;
      c.send({ event: 'clear', streamSid: 'MZ' });
      for (let i = 0; i < 2; i++) await c.next('mark');
      c.sendAudio(200, 0x40);
      c.send({ event: 'mark', streamSid: 'MZ', mark: { name: 'c' } });
    });
    const clock = new FakeClock(0);
    const peer = await CallPeer.connect({ url: server.url, clock });
    const echoed = () => peer.timeline.filter((e) => e.kind === 'mark_echoed').map((e) => e.detail);
    await peer.waitFor('mark_received', 3000, (detail) => detail === 'b');
    // 300 ms of the 3 s queued have played when the clear comes: a and b come back because of it, at once.
    await clock.advance(300);
    expect(echoed()).toEqual([]);
    sendClear();
    await peer.waitFor('mark_received', 3000, (detail) => detail === 'c');
    expect(echoed()).toEqual(['a (cleared)', 'b (cleared)']);
    // c only after its own 200 ms, from the moment it arrived into an empty buffer.
    await clock.advance(199);
    expect(echoed()).toHaveLength(2);
    await clock.advance(1);
    expect(echoed()).toEqual(['a (cleared)', 'b (cleared)', 'c']);
    const connection = server.connections[0]!;
    await vi.waitFor(() => expect(connection.received.filter((r) => r.message.event === 'mark').map((r) => r.message.mark.name)).toEqual(['a', 'b', 'c']));
    await peer.stop();
    const summary = peer.summary();
    expect(summary).toMatchObject({ clears: 1, marksEchoedByClear: 2, marksEchoed: 3 });
    // 3 s were queued and 300 ms had played: the clear dropped exactly the rest.
    expect(summary.playout.clearedMs).toBe(2700);
    expect(summary.playout.receivedMs).toBe(3200);
    const kinds = peer.timeline.map((e) => e.kind);
    expect(kinds.indexOf('clear_received')).toBeLessThan(kinds.indexOf('mark_echoed'));
    // The inbound record keeps the server's order: 150 frames, a, b, clear, 10 frames, c.
    const order = peer.inbound.map((r) => (r.event === 'mark' ? r.name : r.event));
    expect(order.filter((e) => e === 'media')).toHaveLength(160);
    expect(order.filter((e) => e !== 'media')).toEqual(['a', 'b', 'clear', 'c']);
    expect(order.indexOf('clear')).toBe(152);
  });

  it('counts underruns when the server falls behind the playout', async () => {
    const { clock, peer, connection } = await startedPeer();
    // 20 ms of audio every 45 ms of the peer's clock: each frame after the first comes 25 ms after the buffer ran dry.
    for (let i = 0; i < 10; i++) {
      connection.sendAudio(20);
      await vi.waitFor(() => expect(peer.summary().mediaReceived).toBe(i + 1));
      await clock.advance(45);
    }
    connection.send({ event: 'mark', streamSid: 'MZ', mark: { name: 'end' } });
    await peer.waitFor('mark_echoed', 3000);
    await peer.stop();
    expect(peer.summary().playout.underruns).toBe(9);
    expect(peer.summary().playout.maxLateMs).toBe(25);
  });

  it('sends DTMF at its time and can drop the socket without stop', async () => {
    const server = await scriptedServer(() => undefined);
    const peer = await CallPeer.connect({ url: server.url, dtmf: [{ digit: '5', atMs: 100 }] });
    const connection = server.connections[0]!;
    const dtmf = await connection.next('dtmf');
    expect(dtmf.message).toMatchObject({ event: 'dtmf', streamSid: peer.start.streamSid, dtmf: { track: 'inbound_track', digit: '5' } });
    expect(Number(dtmf.message.sequenceNumber)).toBeGreaterThan(1);
    await peer.drop();
    expect(await connection.closed).toBe(1006);
    expect(connection.received.some((r) => r.message.event === 'stop')).toBe(false);
    expect(peer.timeline.map((e) => e.kind)).toContain('dropped');
  });

  it('can vanish half-open: sends and acknowledges nothing more, and keeps the connection until the server ends it', async () => {
    const { clock, peer, connection } = await startedPeer();
    await clock.advance(100);
    await connection.next('media');
    peer.vanish();
    const receivedAtVanish = connection.received.length;
    // A mark with nothing buffered is echoed at once by a live peer; the pong (answered by the socket itself) comes
    // after the peer has read it.
    connection.send({ event: 'mark', streamSid: 'MZ', mark: { name: 'ignored' } });
    const pong = once(connection.socket, 'pong');
    connection.socket.ping();
    await pong;
    await clock.advance(1000);
    expect(connection.received.length).toBe(receivedAtVanish);
    connection.socket.close(1000, 'stream timeout');
    expect(await peer.closed).toBe(1000);
    const kinds = peer.timeline.map((e) => e.kind);
    expect(kinds.slice(-2)).toEqual(['vanished', 'closed']);
    expect(kinds).not.toContain('mark_echoed');
  });

  it('fails to connect when the server refuses the upgrade', async () => {
    const server = await scriptedServer(() => undefined, () => false);
    await expect(CallPeer.connect({ url: server.url })).rejects.toThrow(/403/);
  });
});

describe('fetchStreamInstruction', () => {
  it('posts the webhook form-encoded and signed, and reads the stream it is told to open', async () => {
    const authToken = 'webhook-token';
    const publicUrl = `https://raaga.example${VOICE_WEBHOOK_PATH}`;
    const seen: { signatureOk: boolean; params: Record<string, string> }[] = [];
    const http: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const params = Object.fromEntries(new URLSearchParams(body));
        const signatureOk = twilio.validateRequest(authToken, String(req.headers['x-twilio-signature']), publicUrl, params);
        seen.push({ signatureOk, params });
        if (!signatureOk) {
          res.writeHead(403).end('bad signature');
          return;
        }
        const twiml = new twilio.twiml.VoiceResponse();
        twiml.connect().stream({ url: 'wss://raaga.example/v1/telephony/twilio/media' }).parameter({ name: 'token', value: `t-${params.CallSid}` });
        res.writeHead(200, { 'content-type': 'text/xml' }).end(twiml.toString());
      });
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    servers.push(http);
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}${VOICE_WEBHOOK_PATH}`;

    const instruction = await fetchStreamInstruction({ url, authToken, signedUrl: publicUrl, params: { From: '+911234567890' } });
    expect(seen[0]?.signatureOk).toBe(true);
    expect(seen[0]?.params).toMatchObject({ From: '+911234567890', Direction: 'inbound', CallStatus: 'ringing' });
    expect(instruction.streamUrl).toBe('wss://raaga.example/v1/telephony/twilio/media');
    expect(instruction.parameters).toEqual({ token: `t-${instruction.params.CallSid}` });

    await expect(fetchStreamInstruction({ url, authToken: 'wrong', signedUrl: publicUrl })).rejects.toThrow(/403/);
  });
});
