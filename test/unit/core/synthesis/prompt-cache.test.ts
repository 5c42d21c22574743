// The prompt cache and the utterance's replay of it, with a scripted engine that counts its jobs: a replay gives
// the same bytes and the same counters at every piece as synthesis did, without an engine job; the key separates
// everything that changes the audio; a cancelled or truncated utterance is never kept; the LRU keeps to its bound.

import { describe, expect, it } from 'vitest';
import { PromptCache, type PromptCacheEvent, type RecordedUtterance } from '../../../../src/core/synthesis/prompt-cache.js';
import { Utterance, type UtteranceRequest } from '../../../../src/core/synthesis/utterance.js';
import type { PcmClip, SynthesisJob, TtsEngine } from '../../../../src/engine/tts-engine.js';

/**
 * 100 ms of silence then 300 ms of a tone per clause, its pitch from the text's length, so different texts sound
 * different; a word boundary after the first word, 150 ms into the clip as made (70 ms once the pipeline trimmed
 * the lead to the 20 ms it keeps).
 */
class CountingEngine implements TtsEngine {
  readonly name = 'counting';
  jobs = 0;
  source = 'counting@1';
  start = async () => undefined;
  isReady = () => true;
  load = () => ({ queued: 0, running: 0, workers: 1 });
  close = async () => undefined;
  audioSource = () => this.source;
  kindFor = () => 'counting';
  async synthesize(job: SynthesisJob): Promise<PcmClip> {
    this.jobs++;
    const rate = 16000;
    const hz = 200 + job.text.length * 10;
    const lead = rate * 0.1;
    const samples = Float32Array.from({ length: rate * 0.4 }, (_, i) => (i < lead ? 0 : 0.4 * Math.sin((2 * Math.PI * hz * i) / rate)));
    return { samples, sampleRateHz: rate, words: [{ textEnd: job.text.indexOf(' '), atMs: 150 }] };
  }
}

const VOICE = { voiceName: 'aarav', pitchShiftSemitones: 0, rateMultiplier: 1 };
const TEXT = 'Your order ships today. It reaches you tomorrow. Thank you for calling.';
const request = (overrides: Partial<UtteranceRequest> = {}): UtteranceRequest => ({ text: TEXT, language: 'en-IN', voice: VOICE, format: 'mulaw', sampleRateHz: 8000, speed: 1, mode: 'streaming', accountId: 'acct_a', ...overrides });
const CHUNKING = { firstChunkMaxChars: 30, maxChunkChars: 30 };

/** Every piece with the counters read right after it was yielded, and the end counters. */
async function run(engine: TtsEngine, cache: PromptCache | undefined, overrides: Partial<UtteranceRequest> = {}) {
  const utterance = new Utterance(engine, request(overrides), CHUNKING, cache);
  const pieces: { bytes: number[]; codePoints: number; chunks: number; durationMs: number }[] = [];
  for await (const bytes of utterance.audio(new AbortController().signal)) {
    pieces.push({ bytes: [...bytes], codePoints: utterance.codePointsSpoken, chunks: utterance.chunksDone, durationMs: utterance.durationMs });
  }
  return { pieces, end: { codePoints: utterance.codePointsSpoken, chunks: utterance.chunksDone, durationMs: utterance.durationMs }, fromCache: utterance.fromCache, words: utterance.wordBoundaries };
}

function cacheWithLog(maxBytes = 10 * 2 ** 20) {
  const events: [PromptCacheEvent, number][] = [];
  return { cache: new PromptCache({ maxBytes, onEvent: (event, bytes) => events.push([event, bytes]) }), events };
}

describe('Utterance with a prompt cache', () => {
  it('replays the recording: same bytes, same counters at each piece and at the end, no engine job', async () => {
    const engine = new CountingEngine();
    const { cache, events } = cacheWithLog();
    const first = await run(engine, cache);
    const jobs = engine.jobs;
    expect(jobs).toBeGreaterThanOrEqual(3);
    expect(first.fromCache).toBe(false);
    const second = await run(engine, cache);
    expect(engine.jobs).toBe(jobs);
    expect(second.fromCache).toBe(true);
    expect(second.pieces).toEqual(first.pieces);
    expect(second.end).toEqual(first.end);
    expect(first.pieces.length).toBeGreaterThanOrEqual(3);
    // Word timings replay too, moved by the lead the pipeline trimmed (to a sample: the tone starts at zero): what
    // a call reports as heard is the same.
    const at70 = expect.closeTo(70, 0);
    expect(first.words).toEqual([
      { chunk: 0, atMs: at70, textEnd: 4 },
      { chunk: 1, atMs: at70, textEnd: 2 },
      { chunk: 2, atMs: at70, textEnd: 5 },
    ]);
    expect(second.words).toEqual(first.words);
    const size = first.pieces.reduce((sum, piece) => sum + piece.bytes.length, 0);
    expect(events).toEqual([
      ['miss', 0],
      ['store', size],
      ['hit', size],
    ]);
  });

  it('matches synthesis without a cache exactly', async () => {
    const uncached = await run(new CountingEngine(), undefined);
    const { cache } = cacheWithLog();
    const engine = new CountingEngine();
    await run(engine, cache);
    expect((await run(engine, cache)).pieces).toEqual(uncached.pieces);
  });

  it.each<[string, Partial<UtteranceRequest>]>([
    ['another text', { text: 'Your order ships today.' }],
    ['another language', { language: 'hi-IN' }],
    ['another format', { format: 'pcm' }],
    ['another rate', { sampleRateHz: 16000 }],
    ['another speed', { speed: 1.25 }],
    ['another mode', { mode: 'complete' }],
    ['another voice', { voice: { ...VOICE, voiceName: 'meera' } }],
    ['a pitch shift', { voice: { ...VOICE, pitchShiftSemitones: 2 } }],
    ["another account's custom voice", { voice: { ...VOICE, ownerAccountId: 'acct_other' } }],
  ])('%s is a miss', async (_what, overrides) => {
    const engine = new CountingEngine();
    const { cache } = cacheWithLog();
    await run(engine, cache);
    const jobs = engine.jobs;
    expect((await run(engine, cache, overrides)).fromCache).toBe(false);
    expect(engine.jobs).toBeGreaterThan(jobs);
  });

  it('a new engine version is a miss', async () => {
    const engine = new CountingEngine();
    const { cache } = cacheWithLog();
    await run(engine, cache);
    engine.source = 'counting@2';
    expect((await run(engine, cache)).fromCache).toBe(false);
  });

  it('the opt-out neither reads nor fills the cache', async () => {
    const engine = new CountingEngine();
    const { cache, events } = cacheWithLog();
    await run(engine, cache, { cache: false });
    expect(events).toEqual([]);
    await run(engine, cache);
    expect((await run(engine, cache, { cache: false })).fromCache).toBe(false);
    expect(events.map(([event]) => event)).toEqual(['miss', 'store']);
  });

  it('a cancelled utterance is finished once in the background and kept; a cancel mid-replay stops it with the counters of what was yielded', async () => {
    const engine = new CountingEngine();
    const { cache, events } = cacheWithLog();
    const cut = async () => {
      const controller = new AbortController();
      const partial = new Utterance(engine, request(), CHUNKING, cache);
      await expect(
        (async () => {
          for await (const _bytes of partial.audio(controller.signal)) controller.abort('client-cancel');
        })(),
      ).rejects.toBe('client-cancel');
    };
    // Two callers cut it before it is kept: one background fill, not two.
    await cut();
    await cut();
    await cache.flushed();
    expect(events.filter(([event]) => event === 'fill')).toHaveLength(1);
    expect(cache.size).toBe(1);
    const jobs = engine.jobs;
    const whole = await run(engine, cache);
    expect(whole.fromCache).toBe(true);
    expect(engine.jobs).toBe(jobs);
    expect(whole.pieces).toEqual((await run(new CountingEngine(), undefined)).pieces);
    const replay = new Utterance(engine, request(), CHUNKING, cache);
    const replayController = new AbortController();
    let yielded = 0;
    await expect(
      (async () => {
        for await (const _bytes of replay.audio(replayController.signal)) {
          if (++yielded === 2) replayController.abort('barge-in');
        }
      })(),
    ).rejects.toBe('barge-in');
    expect(replay.fromCache).toBe(true);
    expect(replay.codePointsSpoken).toBe(whole.pieces[1]!.codePoints);
    expect(replay.chunksDone).toBe(whole.pieces[1]!.chunks);
    expect(replay.codePointsSpoken).toBeLessThan(whole.end.codePoints);
  });

  it('a truncated utterance (over its audio budget) is not kept', async () => {
    const engine = new CountingEngine();
    const { cache } = cacheWithLog();
    // The budget never goes under 10 s: the short text (about 1 s) fits and is kept, 20 times that text does not.
    const utterance = new Utterance(engine, request(), { ...CHUNKING, maxAudioMsPerChar: 0.001 }, cache);
    for await (const _bytes of utterance.audio(new AbortController().signal));
    const long = new Utterance(engine, request({ text: `${TEXT} `.repeat(20) }), { ...CHUNKING, maxAudioMsPerChar: 0.001 }, cache);
    for await (const _bytes of long.audio(new AbortController().signal));
    expect(long.truncated).toBe(true);
    expect(cache.size).toBe(1);
    expect(utterance.truncated).toBe(false);
  });
});

describe('PromptCache', () => {
  const entry = (sizeBytes: number): RecordedUtterance => ({ pieces: [{ bytes: new Uint8Array(sizeBytes), after: { codePointsSpoken: 1, chunksDone: 1, durationMs: 1 } }], end: { codePointsSpoken: 1, chunksDone: 1, durationMs: 1 }, sizeBytes, words: [] });

  it('evicts the least recently used to stay within its bytes; a hit makes an entry recent', () => {
    const { cache, events } = cacheWithLog(8000);
    cache.put('a', entry(900));
    cache.put('b', entry(900));
    cache.put('c', entry(900));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    for (const key of ['d', 'e', 'f', 'g', 'h', 'i']) cache.put(key, entry(900));
    expect(cache.bytes).toBeLessThanOrEqual(8000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(events.filter(([event]) => event === 'evict').map(([, bytes]) => bytes)).toEqual([900]);
  });

  it('refuses an entry over an eighth of the bound; replacing an entry keeps the byte count right; 0 bytes is off', () => {
    const { cache } = cacheWithLog(8000);
    cache.put('big', entry(1001));
    expect(cache.size).toBe(0);
    cache.put('x', entry(500));
    cache.put('x', entry(700));
    expect(cache.bytes).toBe(700);
    const off = new PromptCache({ maxBytes: 0 });
    off.put('x', entry(1));
    expect([off.enabled, off.size]).toEqual([false, 0]);
  });
});
