// WebSocket mode: one session on /v1/tts/websocket that speaks the text sentence by sentence (the protocol takes
// one sentence per `text`, the next only after end_of_utterance), plays the PCM frames as they come, and stops on
// demand with `cancel`, reading on until the server's `cancellation`, as docs/websocket.md asks.

import { PcmPlayer } from './pcm-player.js';

/** The next sentence is sent when this much audio is left to play: enough to hide its first-audio latency. */
const LOOKAHEAD_S = 1.5;

/** Browsers cannot set Authorization on a WebSocket: the key travels as a subprotocol, the server answers `raaga`. */
const protocolsFor = (key) => ['raaga', `raaga.key.${key}`];

export function splitSentences(text) {
  return (text.match(/[^.?!।॥\n]+[.?!।॥]*/g) ?? []).map((s) => s.trim()).filter((s) => s !== '');
}

export class WsSpeaker {
  /** `onEvent(kind, detail)` reports every step for the page's log; `onState(state)` its coarse state. */
  constructor({ key, config, onEvent, onState }) {
    this.key = key;
    this.config = config;
    this.onEvent = onEvent;
    this.onState = onState;
    this.stopped = false;
    this.waiters = [];
    /** Messages nobody was waiting for yet (a `cancellation` can beat the wait for it). */
    this.inbox = [];
    this.frames = 0;
  }

  async speak(sentences) {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/v1/tts/websocket`;
    const socket = new WebSocket(url, protocolsFor(this.key));
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    this.player = new PcmPlayer(this.config.sample_rate);
    socket.onmessage = (event) => this.#receive(event.data);
    socket.onclose = (event) => {
      this.onEvent('closed', `${event.code}${event.reason ? ` ${event.reason}` : ''}`);
      this.#wake({ type: 'closed', code: event.code, reason: event.reason });
    };
    try {
      const connected = await this.#next(['connected', 'closed']);
      if (connected.type === 'closed') throw new Error(`connection closed (${connected.code} ${connected.reason})`);
      this.#send({ type: 'config', ...this.config, output_format: 'pcm' });
      const configured = await this.#next(['configured', 'error', 'closed']);
      if (configured.type !== 'configured') throw new Error(describe(configured));
      for (const sentence of sentences) {
        if (this.stopped) break;
        this.onState('speaking');
        this.#send({ type: 'text', text: sentence });
        const end = await this.#next(['end_of_utterance', 'cancellation', 'error', 'closed']);
        if (end.type === 'error' || end.type === 'closed') throw new Error(describe(end));
        if (end.type === 'cancellation') return this.#finish('cancelled', end);
        // Synthesis runs far ahead of playback; pacing the texts keeps Stop meaningful (nothing queued to waste).
        while (!this.stopped && this.player.remaining() > LOOKAHEAD_S) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (this.stopped) return this.#finish('cancelled', await this.#next(['cancellation', 'closed']));
      // Let the last audio play out before saying we are done.
      await new Promise((resolve) => setTimeout(resolve, this.player.remaining() * 1000));
      return this.#finish('done');
    } finally {
      if (socket.readyState === WebSocket.OPEN) this.#send({ type: 'disconnect' });
      setTimeout(() => this.player.close(), 200);
    }
  }

  /** Stop: silence what is scheduled and ask the server to cancel; speak() resolves once `cancellation` arrives. */
  stop() {
    if (this.stopped) return;
    this.stopped = true;
    this.player?.stop();
    if (this.socket?.readyState === WebSocket.OPEN) {
      this.#send({ type: 'cancel' });
      this.onState('cancelling');
    }
  }

  #finish(state, message) {
    this.onState(state);
    return { state, frames: this.frames, message };
  }

  #send(message) {
    this.onEvent('sent', JSON.stringify(message));
    this.socket.send(JSON.stringify(message));
  }

  #receive(data) {
    if (data instanceof ArrayBuffer) {
      if (this.frames++ === 0) this.onEvent('audio', 'first audio frame');
      // Frames that were already on the wire when Stop was pressed are dropped, not played.
      if (!this.stopped) this.player.push(data);
      return;
    }
    const message = JSON.parse(data);
    this.onEvent('received', data);
    this.#wake(message);
  }

  #next(types) {
    const early = this.inbox.findIndex((message) => types.includes(message.type));
    if (early >= 0) return Promise.resolve(this.inbox.splice(early, 1)[0]);
    return new Promise((resolve) => this.waiters.push({ types, resolve }));
  }

  #wake(message) {
    const index = this.waiters.findIndex((w) => w.types.includes(message.type));
    if (index >= 0) this.waiters.splice(index, 1)[0].resolve(message);
    else this.inbox.push(message);
  }
}

function describe(message) {
  if (message.type === 'error') return `${message.error.code}: ${message.error.message}`;
  if (message.type === 'closed') return `connection closed (${message.code}${message.reason ? ` ${message.reason}` : ''})`;
  return message.type;
}
