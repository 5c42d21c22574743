// The server's end of an AudioSocket connection over real loopback TCP, closed from our side as a refusal closes it
// (the hangup packet, then our FIN, and nobody reading its frames): the descriptor is let go once the peer closes its
// side, and a peer that went away half-open (never closes, never reads) is dropped once the close timeout has passed
// on the stream's clock. Before, the first never saw the peer's FIN and the second waited forever: one leaked
// descriptor per refused call.

import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AUDIOSOCKET_TYPE, encodePacket, PacketSplitter } from '../../../src/telephony/audiosocket/audiosocket-packets.js';
import { AUDIOSOCKET_CLOSE_TIMEOUT_MS, audioSocketStream } from '../../../src/telephony/audiosocket/audiosocket-stream.js';
import { FakeClock } from '../../helpers/fake-clock.js';

let server: Server | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

/** A loopback listener's one connection: the server's socket (not yet wrapped) and the peer's. */
async function connection(): Promise<{ accepted: Socket; peer: Socket }> {
  server = createServer();
  const accepted = new Promise<Socket>((resolve) => server!.once('connection', resolve));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const peer = connect({ host: '127.0.0.1', port: (server.address() as AddressInfo).port });
  peer.on('error', () => undefined);
  await once(peer, 'connect');
  const socket = await accepted;
  sockets.push(socket, peer);
  return { accepted: socket, peer };
}

describe('audioSocketStream closed from our side', () => {
  it('lets the connection go when the peer closes, though nobody reads its frames', async () => {
    const clock = new FakeClock();
    const { accepted, peer } = await connection();
    const released = once(accepted, 'close');
    // The refusal's way: no frame handler, the hangup packet, then the close; the peer (Asterisk) says something
    // more before it hangs the leg up.
    const stream = audioSocketStream(accepted, { clock });
    stream.send(encodePacket(AUDIOSOCKET_TYPE.hangup));
    stream.close(1000, 'server busy');
    peer.write(encodePacket(AUDIOSOCKET_TYPE.slin8k, new Uint8Array(320)));
    const splitter = new PacketSplitter();
    const packets: number[] = [];
    peer.on('data', (chunk: Buffer) => packets.push(...splitter.push(chunk).map((packet) => packet[0]!)));
    await once(peer, 'end');
    expect(packets).toEqual([AUDIOSOCKET_TYPE.hangup]);
    peer.end();
    await released;
    expect(accepted.destroyed).toBe(true);
    // Released by the peer's close, not by the timeout: nothing is left pending on the clock.
    expect(clock.pendingTimers).toBe(0);
  });

  it('drops a peer that went away half-open once the close timeout passes on its clock', async () => {
    const clock = new FakeClock();
    const { accepted, peer } = await connection();
    // The peer is gone without a word: it never reads, never sends its FIN.
    peer.pause();
    const released = once(accepted, 'close');
    const stream = audioSocketStream(accepted, { clock });
    stream.onFrame(() => undefined);
    stream.send(encodePacket(AUDIOSOCKET_TYPE.hangup));
    stream.close(1000, 'hangup');
    await clock.advance(AUDIOSOCKET_CLOSE_TIMEOUT_MS - 1);
    expect(accepted.destroyed).toBe(false);
    await clock.advance(1);
    await released;
    expect(accepted.destroyed).toBe(true);
    expect(stream.open).toBe(false);
  });

  it('still delivers every packet to the media stream, split as they arrive', async () => {
    const { accepted, peer } = await connection();
    const stream = audioSocketStream(accepted, { clock: new FakeClock() });
    const frames: Uint8Array[] = [];
    stream.onFrame((data) => frames.push(data.slice()));
    const uuid = encodePacket(AUDIOSOCKET_TYPE.uuid, new Uint8Array(16).fill(7));
    const audio = encodePacket(AUDIOSOCKET_TYPE.slin8k, new Uint8Array(320).fill(1));
    const bytes = Buffer.concat([uuid, audio]);
    peer.write(bytes.subarray(0, 10));
    peer.write(bytes.subarray(10));
    const closed = new Promise<number>((resolve) => stream.onClose(resolve));
    peer.end();
    expect(await closed).toBe(1000);
    expect(frames.map((frame) => [...frame])).toEqual([[...uuid], [...audio]]);
  });
});

describe('audioSocketStream read before anyone listens', () => {
  it('keeps the packets that came before the first frame handler for it, in order', async () => {
    const { accepted, peer } = await connection();
    const stream = audioSocketStream(accepted);
    const sent = [encodePacket(AUDIOSOCKET_TYPE.uuid, new Uint8Array(16).fill(7)), encodePacket(AUDIOSOCKET_TYPE.slin8k, new Uint8Array(320).fill(1))];
    const bytes = sent.reduce((total, packet) => total + packet.length, 0);
    // Wait until the server side has read every byte (its reader is always on), then attach, as a late caller would.
    const allRead = new Promise<void>((resolve) => {
      const check = () => (accepted.bytesRead >= bytes ? resolve() : accepted.once('data', check));
      accepted.once('data', check);
    });
    for (const packet of sent) peer.write(packet);
    await allRead;
    const received: Uint8Array[] = [];
    const both = new Promise<void>((resolve) => stream.onFrame((packet) => (received.push(packet), received.length === 2 && resolve())));
    await both;
    expect(received.map((packet) => Buffer.from(packet))).toEqual(sent.map((packet) => Buffer.from(packet)));
  });
});
