// WebSocket barge-in latency against the real server (in-process, port 0, real engine): time from sending
// `text` to the first binary frame, and from sending `cancel` (right after that first frame) to receiving
// `cancellation`. One session, the eight sample prompts in turn, 200 utterances (BENCH_UTTERANCES), pcm 24 kHz.

import WebSocket from 'ws';
import { LANGUAGE_CODES } from '../src/languages.js';
import { startTestServer } from '../test/helpers/test-server.js';
import { SAMPLE_TEXTS } from './lib/sample-texts.js';
import { summary, writeResult } from './lib/stats.js';

const UTTERANCES = Number(process.env.BENCH_UTTERANCES ?? 200);
const WARM_UP = LANGUAGE_CODES.length;
const WORKERS = 2;

type Message = { type: string; [field: string]: unknown };

/** A session driven one step at a time: each step resolves on the server message it waits for. */
class Driver {
  #onMessage: ((data: Buffer, isBinary: boolean) => void) | undefined;

  constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer, isBinary) => this.#onMessage?.(data, isBinary));
  }

  /** Sends `message` and resolves with the first server message accepted by `want`, timed from the send. */
  step(message: Message, want: (data: Buffer, isBinary: boolean) => boolean): Promise<{ ms: number; data: Buffer }> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      this.#onMessage = (data, isBinary) => {
        if (!isBinary) {
          const parsed = JSON.parse(data.toString('utf8')) as Message;
          if (parsed.type === 'error') reject(new Error(JSON.stringify(parsed)));
        }
        if (want(data, isBinary)) {
          this.#onMessage = undefined;
          resolve({ ms: performance.now() - started, data });
        }
      };
      this.socket.send(JSON.stringify(message));
    });
  }
}

const isType = (type: string) => (data: Buffer, isBinary: boolean) => !isBinary && (JSON.parse(data.toString('utf8')) as Message).type === type;
const isAudio = (_data: Buffer, isBinary: boolean) => isBinary;

const server = await startTestServer({ TTS_WORKERS: String(WORKERS) });
try {
  const { keys } = await server.account('growth', 100_000_000);
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/v1/tts/websocket`, { headers: { authorization: `Bearer ${keys[0]}` } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const driver = new Driver(socket);
  const firstFrameMs: number[] = [];
  const cancelMs: number[] = [];
  let language = '';
  for (let i = 0; i < WARM_UP + UTTERANCES; i++) {
    const next = LANGUAGE_CODES[i % LANGUAGE_CODES.length]!;
    if (next !== language) {
      await driver.step({ type: 'config', model_id: 'raaga-v1', voice: 'priya', language: next }, isType('configured'));
      language = next;
    }
    const first = await driver.step({ type: 'text', text: SAMPLE_TEXTS[next] }, isAudio);
    const cancelled = await driver.step({ type: 'cancel' }, isType('cancellation'));
    if (i >= WARM_UP) {
      firstFrameMs.push(first.ms);
      cancelMs.push(cancelled.ms);
    }
  }
  socket.close();
  const textToFirstFrame = summary(firstFrameMs);
  const cancelToCancellation = summary(cancelMs);
  const file = await writeResult('websocket-latency', {
    n: UTTERANCES,
    p50: { textToFirstFrameMs: textToFirstFrame.p50, cancelToCancellationMs: cancelToCancellation.p50 },
    p95: { textToFirstFrameMs: textToFirstFrame.p95, cancelToCancellationMs: cancelToCancellation.p95 },
    textToFirstFrameMs: textToFirstFrame,
    cancelToCancellationMs: cancelToCancellation,
    format: 'pcm',
    sampleRateHz: 24000,
    workers: WORKERS,
  });
  console.log(
    `websocket (n=${UTTERANCES}, pcm 24 kHz): text→first frame p50 ${textToFirstFrame.p50.toFixed(1)} ms p95 ${textToFirstFrame.p95.toFixed(1)} ms; ` +
      `cancel→cancellation p50 ${cancelToCancellation.p50.toFixed(2)} ms p95 ${cancelToCancellation.p95.toFixed(2)} ms → ${file}`,
  );
} finally {
  await server.close();
}
