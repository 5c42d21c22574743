// The call's WebSocket to its agent: dials the agent URL at the address the destination policy checked, sends the
// call's events as JSON in their wire shape (agent-events.ts; caller audio as binary frames when opted in), turns the
// agent's messages into call commands, and reports a lost agent once (the call then speaks its fallback and hangs up).

import WebSocket, { type RawData } from 'ws';
import { ApiError, isApiError } from '../../errors.js';
import type { CallAgentPort, CallEvent, SessionReply } from '../../session/call-events.js';
import type { CallSession } from '../../session/call-session.js';
import type { Clock } from '../../session/clock.js';
import { closeSocket, rawText } from '../../util/ws-socket.js';
import { pinnedLookup, type CheckedDestination } from '../destination/destination-policy.js';
import { agentEvent, type AgentMessage } from './agent-events.js';
import { parseAgentMessage } from './agent-protocol.js';

/** Caller audio is dropped (not queued) while the agent has this much unsent: a slow agent never grows our memory. */
const MAX_AGENT_BUFFER_BYTES = 256 * 1024;
/** JSON events are not dropped; an agent this far behind is treated as gone. */
const MAX_AGENT_BACKLOG_BYTES = 4 * 1024 * 1024;
/** Agent messages are small JSON commands; a bigger one closes the link with 1009 (message too big). */
export const MAX_AGENT_MESSAGE_BYTES = 64 * 1024;

export interface AgentLinkOptions {
  /** The agent URL as the destination policy checked it: the link connects to exactly that address. */
  readonly destination: CheckedDestination;
  readonly connectTimeoutMs: number;
  /** The call's clock: a link that fails before it opens is reported at the connect deadline (see #onLost). */
  readonly clock: Clock;
  readonly callSid: string;
  readonly wantsAudio: boolean;
  readonly logger: { warn(fields: object, message: string): void; info(fields: object, message: string): void };
}

export class AgentLink implements CallAgentPort {
  readonly #socket: WebSocket;
  #lost = false;
  #closing = false;
  #opened = false;
  readonly #dialledAt: number;

  constructor(
    private readonly call: CallSession,
    private readonly options: AgentLinkOptions,
  ) {
    this.#dialledAt = options.clock.now();
    this.#socket = new WebSocket(options.destination.url, {
      handshakeTimeout: options.connectTimeoutMs,
      headers: { 'user-agent': 'raaga-telephony', 'x-raaga-call-sid': options.callSid },
      lookup: pinnedLookup(options.destination),
      maxPayload: MAX_AGENT_MESSAGE_BYTES,
      perMessageDeflate: false,
      followRedirects: false,
    });
    this.#socket.on('open', () => {
      this.#opened = true;
      call.attachAgent(this, options.wantsAudio);
    });
    this.#socket.on('message', (data: RawData, isBinary: boolean) => this.#onMessage(data, isBinary));
    this.#socket.on('error', (error) => this.#onLost(`agent socket error: ${error.message}`));
    this.#socket.on('close', (code) => this.#onLost(`agent closed the socket (${code})`));
  }

  event(event: CallEvent): void {
    this.#send(agentEvent(event));
  }

  reply(message: SessionReply): void {
    this.#send(message);
  }

  #send(message: AgentMessage): void {
    if (this.#socket.readyState !== WebSocket.OPEN) return;
    if (this.#socket.bufferedAmount > MAX_AGENT_BACKLOG_BYTES) {
      this.#socket.terminate();
      return;
    }
    this.#socket.send(JSON.stringify(message));
  }

  sendAudio(frame: Uint8Array): void {
    if (this.#socket.readyState !== WebSocket.OPEN || this.#socket.bufferedAmount > MAX_AGENT_BUFFER_BYTES) return;
    this.#socket.send(frame, { binary: true });
  }

  /** The call is over: a normal close, not a lost agent. */
  close(): void {
    this.#closing = true;
    closeSocket(this.#socket, 1000, 'call ended');
  }

  #onMessage(data: RawData, isBinary: boolean): void {
    if (isBinary) {
      this.call.receiveInvalid(new ApiError('validation_error', 'Binary messages are not accepted; send JSON text messages.'));
      return;
    }
    let command;
    try {
      command = parseAgentMessage(rawText(data));
    } catch (error) {
      this.call.receiveInvalid(isApiError(error) ? error : new ApiError('validation_error', 'The message could not be read.'));
      return;
    }
    switch (command.kind) {
      case 'session':
        if (command.bargeIn) {
          try {
            this.call.configureBargeIn(command.bargeIn);
          } catch (error) {
            this.call.receiveInvalid(isApiError(error) ? error : new ApiError('validation_error', 'The barge_in settings could not be applied.'));
            return;
          }
        }
        this.call.receive(command.event);
        return;
      case 'append':
        this.call.appendText(command.text, { utteranceId: command.utteranceId, interruptible: command.interruptible });
        return;
      case 'flush':
        this.call.flushText();
        return;
      case 'verdict':
        this.call.bargeInVerdict(command.suspectId, command.verdict);
        return;
      case 'hangup':
        void this.call.hangup(command.drain);
        return;
      case 'transfer':
        void this.call.transfer(command.to, command.options);
        return;
      case 'gather':
        this.call.gather(command.request);
        return;
    }
  }

  /**
   * Reports the agent gone once. A link that never opened is reported at the connect deadline, however fast it
   * failed: otherwise the moment the fallback starts would tell a tenant whether a port is closed, open or silent.
   */
  #onLost(why: string): void {
    if (this.#lost || this.#closing) return;
    this.#lost = true;
    this.options.logger.warn({ callSid: this.options.callSid, why }, 'call agent unavailable');
    const { clock, connectTimeoutMs } = this.options;
    const untilDeadlineMs = this.#opened ? 0 : this.#dialledAt + connectTimeoutMs - clock.now();
    if (untilDeadlineMs > 0) clock.setTimeout(() => this.call.agentLost(), untilDeadlineMs);
    else this.call.agentLost();
  }
}
