// Timed clients of the real server for bench scripts: one POST /v1/tts/stream, and a WebSocket session that speaks
// one `text` at a time. Each returns time to the first audio byte and to the end of the utterance, from the send.

import { Agent, request as httpRequest } from 'node:http';
import WebSocket from 'ws';

export interface TimedUtterance {
  readonly ttfbMs: number;
  readonly totalMs: number;
  readonly bytes: number;
}

export interface AudioRequest {
  readonly voice: string;
  readonly language: string;
  readonly format: 'pcm' | 'mulaw';
  readonly sampleRateHz: number;
}

/** Keep-alive, so that like a real client a request does not pay a TCP handshake. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** `headers`: extra request headers (e.g. `Cache-Control: no-store` to bypass the prompt cache). */
export function timedHttpStream(baseUrl: string, key: string, audio: AudioRequest, text: string, headers: Readonly<Record<string, string>> = {}): Promise<TimedUtterance> {
  return new Promise((resolve, reject) => {
    const target = new URL(`${baseUrl}/v1/tts/stream`);
    const started = performance.now();
    let ttfbMs = -1;
    const req = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers } },
      (res) => {
        let bytes = 0;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          if (ttfbMs < 0) ttfbMs = performance.now() - started;
          bytes += chunk.length;
          if (res.statusCode !== 200) chunks.push(chunk);
        });
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`));
          else resolve({ ttfbMs, totalMs: performance.now() - started, bytes });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(
      JSON.stringify({ model_id: 'raaga-v1', voice: audio.voice, language: audio.language, text, output_format: audio.format, sample_rate: audio.sampleRateHz }),
    );
  });
}

type ServerMessage = { type: string; [field: string]: unknown };

/** One configured WebSocket session; `speak` sends a `text` and waits for its `end_of_utterance`. */
export class TimedWebSocketSession {
  #pending: { started: number; ttfbMs: number; bytes: number; resolve: (run: TimedUtterance) => void; reject: (error: Error) => void } | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer, isBinary) => {
      const pending = this.#pending;
      if (pending === undefined) return;
      if (isBinary) {
        if (pending.ttfbMs < 0) pending.ttfbMs = performance.now() - pending.started;
        pending.bytes += data.length;
        return;
      }
      const message = JSON.parse(data.toString('utf8')) as ServerMessage;
      if (message.type === 'end_of_utterance') {
        this.#pending = undefined;
        pending.resolve({ ttfbMs: pending.ttfbMs, totalMs: performance.now() - pending.started, bytes: pending.bytes });
      } else if (message.type === 'error') {
        this.#pending = undefined;
        pending.reject(new Error(JSON.stringify(message)));
      }
    });
  }

  static async open(baseUrl: string, key: string, audio: AudioRequest, headers: Readonly<Record<string, string>> = {}): Promise<TimedWebSocketSession> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/v1/tts/websocket`, { headers: { authorization: `Bearer ${key}`, ...headers } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const configured = new Promise<void>((resolve, reject) => {
      const onMessage = (data: Buffer, isBinary: boolean): void => {
        if (isBinary) return;
        const message = JSON.parse(data.toString('utf8')) as ServerMessage;
        if (message.type === 'configured') {
          socket.off('message', onMessage);
          resolve();
        } else if (message.type === 'error') {
          socket.off('message', onMessage);
          reject(new Error(JSON.stringify(message)));
        }
      };
      socket.on('message', onMessage);
    });
    socket.send(JSON.stringify({ type: 'config', model_id: 'raaga-v1', voice: audio.voice, language: audio.language, output_format: audio.format, sample_rate: audio.sampleRateHz }));
    await configured;
    return new TimedWebSocketSession(socket);
  }

  speak(text: string): Promise<TimedUtterance> {
    if (this.#pending !== undefined) return Promise.reject(new Error('an utterance is already running'));
    return new Promise((resolve, reject) => {
      this.#pending = { started: performance.now(), ttfbMs: -1, bytes: 0, resolve, reject };
      this.socket.send(JSON.stringify({ type: 'text', text }));
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}
