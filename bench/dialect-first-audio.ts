// First audio of the vendor dialects against Raaga's own stream, same text, same voice, 24 kHz PCM, one run
// (issue 38): POST /v1/audio/speech as raw audio and as SSE, and ElevenLabs' multi-stream-input after its first whole
// sentence (timed from the message that completes it, on a socket opened beforehand as agents do), each divided by
// POST /v1/tts/stream's first audio. The four are taken in turn, the order rotated every round, so drift on a noisy
// machine falls on all alike. → bench/results/dialect-first-audio.json

import { Agent, request as httpRequest } from 'node:http';
import WebSocket from 'ws';
import { startTestServer } from '../test/helpers/test-server.js';
import { machine, round, summary, writeResult } from './lib/stats.js';

const ROUNDS = Number(process.env.BENCH_REPEATS ?? 30);
const FIRST_SENTENCE = 'Your parcel is on its way. ';
const REST = 'It will reach you tomorrow by five in the evening.';
const TEXT = FIRST_SENTENCE + REST;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** Milliseconds from the request to its first body byte that satisfies `isAudio`; the rest of the body is drained. */
function firstByte(url: string, headers: Record<string, string>, body: object, isAudio: (chunk: string) => boolean = () => true): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const started = performance.now();
    let firstMs = -1;
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`${url}: status ${res.statusCode}`));
        return;
      }
      res.setEncoding('latin1');
      res.on('data', (chunk: string) => {
        if (firstMs < 0 && isAudio(chunk)) firstMs = performance.now() - started;
      });
      res.on('end', () => resolve(firstMs));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

class MultiStreamSocket {
  #waiting: { contextId: string; started: number; resolve: (ms: number) => void; firstMs: number; done: () => void } | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as { audio?: string; isFinal?: boolean; contextId?: string; error?: string };
      const waiting = this.#waiting;
      if (!waiting || message.contextId !== waiting.contextId) return;
      if (message.error) throw new Error(`multi-stream-input: ${message.error}`);
      if (message.audio && waiting.firstMs < 0) {
        waiting.firstMs = performance.now() - waiting.started;
        waiting.resolve(waiting.firstMs);
      }
      if (message.isFinal) waiting.done();
    });
  }

  static async open(baseUrl: string, key: string): Promise<MultiStreamSocket> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/elevenlabs/v1/text-to-speech/priya/multi-stream-input?output_format=pcm_24000&language_code=en`;
    const socket = new WebSocket(url, { headers: { 'xi-api-key': key } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new MultiStreamSocket(socket);
  }

  /** One context: opened, its first sentence sent (timed from here), the rest, flush, close; resolves at isFinal. */
  async speak(contextId: string): Promise<number> {
    this.socket.send(JSON.stringify({ text: ' ', context_id: contextId }));
    let resolveFirst: (ms: number) => void = () => undefined;
    const first = new Promise<number>((resolve) => (resolveFirst = resolve));
    let done: () => void = () => undefined;
    const final = new Promise<void>((resolve) => (done = resolve));
    this.#waiting = { contextId, started: performance.now(), resolve: resolveFirst, firstMs: -1, done };
    this.socket.send(JSON.stringify({ text: FIRST_SENTENCE, context_id: contextId }));
    this.socket.send(JSON.stringify({ text: REST, context_id: contextId, flush: true }));
    this.socket.send(JSON.stringify({ context_id: contextId, close_context: true }));
    const ms = await first;
    await final;
    this.#waiting = undefined;
    return ms;
  }

  close(): void {
    this.socket.close();
  }
}

const server = await startTestServer({ TTS_WORKERS: '2' }, { vad: null });
try {
  // An account per path: each stays under the growth plan's 300 requests a minute (a context's two sentences count two).
  const keyOf = async (): Promise<string> => (await server.account('growth', 100_000_000)).keys[0] as string;
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  const [streamKey, audioKey, sseKey, socketKey] = await Promise.all([keyOf(), keyOf(), keyOf(), keyOf()]);
  const socket = await MultiStreamSocket.open(server.url, socketKey as string);
  let context = 0;
  const runs: Record<string, () => Promise<number>> = {
    tts_stream: () => firstByte(`${server.url}/v1/tts/stream`, bearer(streamKey as string), { model_id: 'raaga-v1', voice: 'priya', language: 'en-IN', text: TEXT, output_format: 'pcm', sample_rate: 24000 }),
    openai_audio: () => firstByte(`${server.url}/v1/audio/speech`, bearer(audioKey as string), { model: 'tts-1', voice: 'priya', language: 'en-IN', input: TEXT, response_format: 'pcm' }),
    openai_sse: () =>
      firstByte(`${server.url}/v1/audio/speech`, bearer(sseKey as string), { model: 'gpt-4o-mini-tts', voice: 'priya', language: 'en-IN', input: TEXT, response_format: 'pcm', stream_format: 'sse' }, (chunk) =>
        chunk.includes('speech.audio.delta'),
      ),
    elevenlabs_multi_stream: () => socket.speak(`c${++context}`),
  };
  const names = Object.keys(runs);
  // Warm every path once.
  for (const name of names) await (runs[name] as () => Promise<number>)();
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(roundIndex + k) % names.length] as string;
      samples[name]!.push(await (runs[name] as () => Promise<number>)());
    }
  }
  socket.close();
  const firstAudioMs = Object.fromEntries(names.map((name) => [name, summary(samples[name]!)]));
  const base = firstAudioMs.tts_stream!;
  const ratios = Object.fromEntries(
    names.filter((name) => name !== 'tts_stream').map((name) => [name, { p50: round(firstAudioMs[name]!.p50 / base.p50, 2), p95: round(firstAudioMs[name]!.p95 / base.p95, 2) }]),
  );
  const result = { at: new Date().toISOString(), machine: machine(), rounds: ROUNDS, text: TEXT, format: 'pcm 24 kHz', firstAudioMs, ratioToTtsStream: ratios };
  const file = await writeResult('dialect-first-audio', result);
  console.log(JSON.stringify(result, null, 2));
  console.log(`dialect first audio ÷ /v1/tts/stream (p50): ${Object.entries(ratios).map(([name, r]) => `${name} ${r.p50}`).join(', ')} → ${file}`);
} finally {
  await server.close();
}
