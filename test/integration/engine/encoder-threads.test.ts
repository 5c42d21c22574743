// The encoder threads (src/engine/encoder-threads.ts) against the pipeline run in place: the same bytes for every
// format and mode, clause after clause on one session, several sessions at once, and the event loop free while a
// long clause encodes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlinePipeline, type AudioPipeline } from '../../../src/audio/audio-pipeline.js';
import type { OutputFormat, SampleRateHz } from '../../../src/audio/formats.js';
import { EncoderThreads } from '../../../src/engine/encoder-threads.js';
import { concatBytes, decodeMp3, decodeOggOpus, tone } from '../../unit/audio/signal-helpers.js';

const ENGINE_HZ = 22050;
let threads: EncoderThreads;

beforeAll(async () => {
  threads = new EncoderThreads({ threads: 2 });
  await threads.start();
});
afterAll(() => threads.close());

function clauses(count: number, ms: number): Float32Array[] {
  return Array.from({ length: count }, (_, i) => tone(300 + 40 * i, ENGINE_HZ, Math.round((ms * ENGINE_HZ) / 1000), 0.3));
}

async function run(pipeline: AudioPipeline, input: readonly Float32Array[]): Promise<{ bytes: Uint8Array; durationMs: number }> {
  const out: Uint8Array[] = [];
  for (const samples of input) out.push(await pipeline.pushClause(samples, 120, false));
  out.push(...(await pipeline.end()));
  return { bytes: concatBytes(out), durationMs: pipeline.durationMs };
}

describe('EncoderThreads', () => {
  const cases: [OutputFormat, SampleRateHz, 'streaming' | 'complete'][] = [
    ['mp3', 24000, 'streaming'],
    ['mp3', 48000, 'complete'],
    ['mp3', 8000, 'streaming'],
    ['wav', 16000, 'complete'],
    ['mulaw', 8000, 'streaming'],
    ['alaw', 8000, 'complete'],
  ];
  for (const [format, outputRateHz, mode] of cases) {
    it(`gives the in-place pipeline's exact bytes and duration: ${format} ${outputRateHz} Hz ${mode}`, async () => {
      const input = clauses(4, 700);
      const options = { inputRateHz: ENGINE_HZ, outputRateHz, format, mode } as const;
      const remote = await run(threads.pipeline(options), input);
      const local = await run(inlinePipeline(options), input);
      expect(remote.bytes.length).toBeGreaterThan(0);
      expect(Buffer.from(remote.bytes).equals(Buffer.from(local.bytes))).toBe(true);
      expect(remote.durationMs).toBe(local.durationMs);
    });
  }

  for (const [outputRateHz, mode] of [[24000, 'streaming'], [48000, 'complete'], [8000, 'streaming']] as const) {
    it(`gives the in-place pipeline's audio and duration for opus: ${outputRateHz} Hz ${mode} (each stream has its own serial)`, async () => {
      const input = clauses(4, 700);
      const options = { inputRateHz: ENGINE_HZ, outputRateHz, format: 'opus', mode } as const;
      const remote = await run(threads.pipelines(options), input);
      const local = await run(inlinePipeline(options), input);
      expect(remote.bytes.length).toBe(local.bytes.length);
      const [a, b] = await Promise.all([decodeOggOpus(remote.bytes), decodeOggOpus(local.bytes)]);
      expect(a.errors).toBe(0);
      expect(Array.from(a.samples)).toEqual(Array.from(b.samples));
      expect(a.samples.length).toBe((remote.durationMs * 48000) / 1000);
      expect(remote.durationMs).toBe(local.durationMs);
    });
  }

  it('the pipeline factory encodes opus (like mp3) on a thread: the event loop turns while a long clause encodes', async () => {
    const pipeline = threads.pipelines({ inputRateHz: ENGINE_HZ, outputRateHz: 48000, format: 'opus', mode: 'streaming' });
    const order: string[] = [];
    setImmediate(() => order.push('event-loop turn'));
    await pipeline.pushClause(clauses(1, 20_000)[0]!, 0, false).then(() => order.push('clause encoded'));
    pipeline.close();
    expect(order).toEqual(['event-loop turn', 'clause encoded']);
  });

  it('keeps sessions apart when several utterances encode at once on the same threads', async () => {
    const options = { inputRateHz: ENGINE_HZ, outputRateHz: 24000, format: 'mp3', mode: 'streaming' } as const;
    const inputs = [clauses(3, 400), clauses(5, 300), clauses(2, 900)];
    const remote = await Promise.all(inputs.map((input) => run(threads.pipeline(options), input)));
    for (const [i, input] of inputs.entries()) {
      const local = await run(inlinePipeline(options), input);
      expect(Buffer.from(remote[i]!.bytes).equals(Buffer.from(local.bytes))).toBe(true);
    }
    const decoded = await decodeMp3(remote[2]!.bytes);
    expect(decoded.samples.length).toBeGreaterThan(24000 * 1.8);
  });

  it('leaves the event loop free while a long clause encodes (a turn runs before the clause is answered)', async () => {
    const pipeline = threads.pipeline({ inputRateHz: ENGINE_HZ, outputRateHz: 48000, format: 'mp3', mode: 'complete' });
    const order: string[] = [];
    setImmediate(() => order.push('event-loop turn'));
    await pipeline.pushClause(clauses(1, 20_000)[0]!, 0, false).then(() => order.push('clause encoded'));
    await pipeline.end();
    expect(order).toEqual(['event-loop turn', 'clause encoded']);
  });

  it('the caller keeps its clip (a copy moves to the thread) and a closed session refuses more clauses', async () => {
    const pipeline = threads.pipeline({ inputRateHz: ENGINE_HZ, outputRateHz: 16000, format: 'mp3', mode: 'streaming' });
    const clip = clauses(1, 200)[0]!;
    await pipeline.pushClause(clip, 0, false);
    expect(clip.length).toBe(Math.round((200 * ENGINE_HZ) / 1000));
    pipeline.close();
    await expect(pipeline.pushClause(clip, 0, false)).rejects.toThrow(/closed/);
  });

});
