// Silero windows of many calls in one inference (SileroBatcher over the real model): every stream's answers equal
// what the model gives that stream alone, in order, however its windows and resets interleave with other
// streams'; windows asked for in one turn of the event loop share an inference, and so do those asked for within
// the minimum interval after one; a closed or failing model answers 0 instead of stalling the calls.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulawToPcm16 } from '../../../../src/audio/mulaw.js';
import { pcm16ToFloat } from '../../../../src/audio/pcm.js';
import { MIN_INFERENCE_INTERVAL_MS, SileroBatcher } from '../../../../src/engine/vad/silero-batcher.js';
import { SILERO_WINDOW_SAMPLES, SileroVad } from '../../../../src/engine/vad/silero-vad.js';
import { CallerVoice } from '../../../../src/sim/caller-speech.js';

const MANIFEST = new URL('../../../../models/raaga-v1/manifest.json', import.meta.url).pathname;
let vad: SileroVad;
let speech: Float32Array[];

function windows(samples: Float32Array): Float32Array[] {
  const out: Float32Array[] = [];
  for (let o = 0; o + SILERO_WINDOW_SAMPLES <= samples.length; o += SILERO_WINDOW_SAMPLES) out.push(samples.slice(o, o + SILERO_WINDOW_SAMPLES));
  return out;
}

/** Resolves in the check phase after the batcher's: its answers have all been given by then (unless it waits an interval). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}

beforeAll(async () => {
  const voice = await CallerVoice.start(MANIFEST);
  try {
    speech = windows(pcm16ToFloat(mulawToPcm16(await voice.say({ text: 'नमस्ते, मुझे अपने खाते के बारे में पूछना है', language: 'hi-IN', voice: 'meera' }))));
  } finally {
    await voice.close();
  }
  vad = await SileroVad.load();
});

afterAll(() => vad?.close());

describe('SileroBatcher', () => {
  it('answers each stream as the model does alone, in order, across interleaved windows, skips and resets', async () => {
    // Three callers, each its own slice of the sentence; caller 1 resets halfway, caller 2 skips every third window.
    const plans = [0, 7, 14].map((from) => speech.slice(from, from + 24));
    const reference = plans.map((plan, caller) => {
      const alone = vad.createStream();
      return plan.map((window, i) => {
        if (caller === 1 && i === 12) alone.reset();
        if (caller === 2 && i % 3 === 2) {
          alone.skip(window);
          return undefined;
        }
        return alone.probability(window);
      });
    });
    // Turn by turn: no minimum interval, so each turn's windows are answered in its check phase.
    const batcher = new SileroBatcher(vad, { minIntervalMs: 0 });
    const streams = plans.map(() => batcher.createStream());
    const answers: (number | undefined)[][] = plans.map((plan) => plan.map(() => undefined));
    // Windows arrive in bursts of four per caller per turn (a provider sending 128 ms at a time), interleaved.
    for (let i = 0; i < 24; i += 4) {
      const answeredBefore = answers.flat().filter((p) => p !== undefined).length;
      for (const [caller, plan] of plans.entries()) {
        for (let j = i; j < i + 4; j++) {
          if (caller === 1 && j === 12) streams[caller]!.reset();
          if (caller === 2 && j % 3 === 2) streams[caller]!.skip(plan[j]!);
          else streams[caller]!.score(plan[j]!, (p) => (answers[caller]![j] = p));
        }
      }
      // Nothing is answered within the turn that asked.
      expect(answers.flat().filter((p) => p !== undefined)).toHaveLength(answeredBefore);
      await nextTurn();
    }
    answers.forEach((row, caller) => row.forEach((p, i) => (reference[caller]![i] === undefined ? expect(p).toBeUndefined() : expect(p).toBeCloseTo(reference[caller]![i]!, 5))));
    // Each turn ran four rounds (one window per caller per round) for twelve windows, minus the skipped ones.
    expect(batcher.stats.windows).toBe(reference.flat().filter((p) => p !== undefined).length);
    expect(batcher.stats.batches).toBe(6 * 4);
  });

  it('answers later than the request: in the next check phase, never inside score()', async () => {
    const batcher = new SileroBatcher(vad);
    const stream = batcher.createStream();
    let answered: number | undefined;
    stream.score(speech[10]!, (p) => (answered = p));
    expect(answered).toBeUndefined();
    await nextTurn();
    expect(answered).toBeCloseTo(vad.createStream().probability(speech[10]!), 5);
  });

  it('runs at most one inference per interval: windows asked for sooner wait for it and share one', async () => {
    let nowMs = 0;
    const batcher = new SileroBatcher(vad, { now: () => nowMs });
    const streams = [0, 1, 2].map(() => batcher.createStream());
    const answers: number[][] = [[], [], []];
    streams[0]!.score(speech[10]!, (p) => answers[0]!.push(p));
    await nextTurn();
    // Nothing ran before: answered in the next check phase.
    expect(answers[0]).toHaveLength(1);
    // 1 ms after that inference, two calls ask in two turns: both wait for the interval and share one inference.
    nowMs = 1;
    streams[1]!.score(speech[11]!, (p) => answers[1]!.push(p));
    await nextTurn();
    expect(answers[1]).toEqual([]);
    streams[2]!.score(speech[12]!, (p) => answers[2]!.push(p));
    await until(() => answers[1]!.length + answers[2]!.length === 2);
    expect(batcher.stats).toEqual({ batches: 2, windows: 3 });
    answers.forEach((row, i) => expect(row[0]).toBeCloseTo(vad.createStream().probability(speech[10 + i]!), 5));
    // Once the interval has passed, a window is answered in the next check phase again.
    nowMs = 1 + MIN_INFERENCE_INTERVAL_MS;
    streams[0]!.score(speech[13]!, (p) => answers[0]!.push(p));
    await nextTurn();
    expect(answers[0]).toHaveLength(2);
  });

  it('answers 0 once the model is closed, and 0 with the error reported when an inference fails', async () => {
    const own = await SileroVad.load();
    const closing = new SileroBatcher(own);
    const stream = closing.createStream();
    own.close();
    let afterClose: number | undefined;
    stream.score(speech[10]!, (p) => (afterClose = p));
    await nextTurn();
    expect(afterClose).toBe(0);

    const failure = new Error('inference failed');
    const broken = Object.create(vad, { inferBatch: { value: () => { throw failure; } } }) as SileroVad;
    const errors: unknown[] = [];
    const failing = new SileroBatcher(broken, { onError: (error) => errors.push(error) });
    const answers: number[] = [];
    failing.createStream().score(speech[10]!, (p) => answers.push(p));
    failing.createStream().score(speech[11]!, (p) => answers.push(p));
    await nextTurn();
    expect(answers).toEqual([0, 0]);
    expect(errors).toEqual([failure]);
  });

  it('batches the legacy model too (h and c per stream)', async () => {
    const legacy = await SileroVad.load({ variant: 'legacy' });
    try {
      const plans = [speech.slice(0, 12), speech.slice(6, 18)];
      const reference = plans.map((plan) => {
        const alone = legacy.createStream();
        return plan.map((window) => alone.probability(window));
      });
      const batcher = new SileroBatcher(legacy, { minIntervalMs: 0 });
      const answers: number[][] = [[], []];
      const streams = plans.map(() => batcher.createStream());
      for (let i = 0; i < 12; i++) {
        plans.forEach((plan, caller) => streams[caller]!.score(plan[i]!, (p) => answers[caller]!.push(p)));
        await nextTurn();
      }
      answers.forEach((row, caller) => row.forEach((p, i) => expect(p).toBeCloseTo(reference[caller]![i]!, 5)));
      expect(answers.map((row) => row.length)).toEqual([12, 12]);
      expect(batcher.stats).toEqual({ batches: 12, windows: 24 });
    } finally {
      legacy.close();
    }
  });

  it('refuses windows of another size', () => {
    expect(() => new SileroBatcher(vad).createStream().score(new Float32Array(160), () => undefined)).toThrow(RangeError);
  });
});
