// The Asterisk AudioSocket listener, a TCP server beside the HTTP one. AudioSocket has no authentication, so only the
// allowed networks connect (anything else is closed and logged), billed to AUDIOSOCKET_ACCOUNT; a connection this
// process has no room for (its calls, or its connections not yet identified) gets the hangup packet; the rest are
// ordinary media streams on the shared call core, which hold a call slot only once their UUID packet names the call.

import { BlockList, createServer, isIP, type AddressInfo, type Server, type Socket } from 'node:net';
import type { Logger } from 'pino';
import type { AudioSocketConfig } from '../config.js';
import { audioSocketModule } from '../telephony/audiosocket/audiosocket-module.js';
import { audioSocketStream } from '../telephony/audiosocket/audiosocket-stream.js';
import type { CallAdmission } from '../telephony/call-admission.js';
import { MediaStream } from '../telephony/media-stream.js';
import type { ApiContext, TelephonyContext } from './context.js';
import { mediaStreamDeps } from './routes/telephony-media.js';

export class AudioSocketListener {
  readonly #server: Server;
  readonly #allowed = new BlockList();
  readonly #streams = new Set<MediaStream>();
  readonly #config: AudioSocketConfig;
  readonly #log: Logger;
  readonly #admission: CallAdmission;

  constructor(ctx: ApiContext, telephony: TelephonyContext, config: AudioSocketConfig, logger: Logger) {
    this.#config = config;
    this.#admission = telephony.callAdmission;
    this.#log = logger.child({ provider: 'audiosocket' });
    for (const block of config.allow) {
      const [address = '', prefix] = block.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.#allowed.addAddress(address, family);
      else this.#allowed.addSubnet(address, Number(prefix), family);
    }
    const deps = mediaStreamDeps(ctx, telephony);
    this.#server = createServer((socket) => this.#accept(socket, deps, ctx));
    this.#server.on('error', (error) => this.#log.error({ err: error }, 'audiosocket listener failed'));
  }

  /** Starts listening; rejects when the port cannot be bound. */
  async listen(): Promise<AddressInfo> {
    await new Promise<void>((resolve, reject) => {
      const failed = (error: Error): void => reject(new Error(`AudioSocket listener cannot bind ${this.#config.host}:${this.#config.port}: ${error.message}`));
      this.#server.once('error', failed);
      this.#server.listen(this.#config.port, this.#config.host, () => {
        this.#server.off('error', failed);
        resolve();
      });
    });
    const address = this.address()!;
    this.#log.info({ host: address.address, port: address.port, accountId: this.#config.accountId }, 'audiosocket listening');
    return address;
  }

  address(): AddressInfo | undefined {
    const address = this.#server.address();
    return address !== null && typeof address === 'object' ? address : undefined;
  }

  /** Server shutdown: no new connections; live calls end after their current utterance. */
  beginShutdown(): void {
    if (this.#server.listening) this.#server.close();
    for (const stream of this.#streams) stream.beginShutdown();
  }

  /** Resolves once every call has ended and settled. */
  async closed(): Promise<void> {
    if (this.#server.listening) this.#server.close();
    await Promise.all([...this.#streams].map((stream) => stream.done));
  }

  #accept(socket: Socket, deps: ReturnType<typeof mediaStreamDeps>, ctx: ApiContext): void {
    // A dual-stack listener sees IPv4 peers as ::ffff:a.b.c.d; the allow-list is written with plain IPv4.
    const remote = (socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
    const family = isIP(remote) === 6 ? 'ipv6' : 'ipv4';
    if (!this.#allowed.check(remote, family)) {
      this.#log.warn({ remote }, 'audiosocket connection refused: the address is not in AUDIOSOCKET_ALLOW');
      ctx.metrics?.telephonyStreamError('audiosocket', 'not-allowed');
      socket.destroy();
      return;
    }
    socket.setNoDelay(true);
    // Until its UUID packet names a call, the connection holds a pending place, not a call slot: a peer that connects
    // and sends nothing is closed at TELEPHONY_START_TIMEOUT_MS and never refuses a call.
    const ticket = this.#admission.admitConnection('audiosocket', remote);
    if (!ticket.ok) {
      // AudioSocket's own refusal, before any audio: the hangup packet, then the close; the dialplan after
      // AudioSocket() runs (a queue, another server). The stream reads and drops what the peer still sends, so its FIN
      // is seen, and drops a peer that never closes (audiosocket-stream.ts): the descriptor goes with the call.
      const refused = audioSocketStream(socket, { clock: deps.clock });
      for (const packet of audioSocketModule.createCodec().hangup()) refused.send(packet);
      refused.close(1000, 'server busy');
      return;
    }
    socket.once('close', ticket.release);
    const admission = { accountId: this.#config.accountId, accountVerified: true, callToken: undefined, query: {} };
    const stream = new MediaStream(deps, audioSocketStream(socket, { clock: deps.clock }), audioSocketModule, admission, ticket, this.#log.child({ remote }));
    this.#streams.add(stream);
    void stream.done.then(() => {
      this.#streams.delete(stream);
      ticket.release();
    });
  }
}
