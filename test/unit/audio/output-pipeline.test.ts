import { describe, expect, it } from 'vitest';
import { afterTrim, deliverClause } from '../../../src/audio/clause-delivery.js';
import { trimSilence } from '../../../src/audio/clip-shaping.js';
import type { OutputFormat } from '../../../src/audio/encoder.js';
import { alawToPcm16 } from '../../../src/audio/alaw.js';
import { mulawToPcm16 } from '../../../src/audio/mulaw.js';
import type { SampleRateHz } from '../../../src/audio/formats.js';
import { OutputPipeline } from '../../../src/audio/output-pipeline.js';
import { bytesLEToPcm16, pcm16ToFloat } from '../../../src/audio/pcm.js';
import { parseWav } from '../../../src/audio/wav.js';
import { concat, concatBytes, decodeMp3, decodeOggOpus, maxAbsDiff, rms, tone } from './signal-helpers.js';

const ENGINE_HZ = 22050;
const RATES: SampleRateHz[] = [8000, 16000, 24000, 48000];
const FORMATS: OutputFormat[] = ['pcm', 'wav', 'mulaw', 'mp3', 'alaw', 'opus'];
const MP3_SLACK = 2 * 1152;

/** Tone burst with 10 ms ramps so the clause itself has no clicks. */
function burst(freqHz: number, ms: number, amplitude: number): Float32Array {
  const n = Math.round((ms * ENGINE_HZ) / 1000);
  const x = tone(freqHz, ENGINE_HZ, n, amplitude);
  const ramp = Math.round(0.01 * ENGINE_HZ);
  for (let i = 0; i < ramp; i++) {
    x[i] = x[i]! * (i / ramp);
    x[n - 1 - i] = x[n - 1 - i]! * (i / ramp);
  }
  return x;
}

const silence = (ms: number) => new Float32Array(Math.round((ms * ENGINE_HZ) / 1000));

/** Engine-like clause: silence, two tone bursts, silence. */
function clause(amplitude: number): Float32Array {
  return concat([silence(100), burst(440, 300, amplitude), silence(50), burst(660, 200, amplitude), silence(100)]);
}

/** Decoded samples and their rate: the output rate, except Opus, which decodes at 48 kHz. */
async function decode(format: OutputFormat, bytes: Uint8Array, rate: number): Promise<{ samples: Float32Array; rate: number }> {
  switch (format) {
    case 'pcm':
      return { samples: pcm16ToFloat(bytesLEToPcm16(bytes)), rate };
    case 'wav':
      return { samples: pcm16ToFloat(parseWav(bytes).samples), rate };
    case 'mulaw':
      return { samples: pcm16ToFloat(mulawToPcm16(bytes)), rate };
    case 'alaw':
      return { samples: pcm16ToFloat(alawToPcm16(bytes)), rate };
    case 'mp3':
      return { samples: (await decodeMp3(bytes)).samples, rate };
    case 'opus':
      return { samples: (await decodeOggOpus(bytes)).samples, rate: 48000 };
  }
}

/** RMS in dBFS over the 20 ms frames within 30 dB of the loudest one (the same notion the pipeline targets). */
function activeLoudnessDb(x: Float32Array, rate: number): number {
  const len = Math.round(0.02 * rate);
  const frames: number[] = [];
  for (let o = 0; o + len <= x.length; o += len) {
    let e = 0;
    for (let i = o; i < o + len; i++) e += x[i]! * x[i]!;
    frames.push(e / len);
  }
  const max = Math.max(...frames);
  const active = frames.filter((e) => e >= max / 1000);
  return 10 * Math.log10(active.reduce((a, b) => a + b, 0) / active.length);
}

function run(opts: ConstructorParameters<typeof OutputPipeline>[0], clauses: Array<[Float32Array, number]>) {
  const p = new OutputPipeline(opts);
  const pushed = clauses.map(([x, pause]) => p.pushClause(x, pause));
  const tail = p.end();
  return { p, pushed, bytes: concatBytes([...pushed, tail]) };
}

describe('OutputPipeline', () => {
  const PAUSE_MS = 500;
  const quiet = clause(0.1);
  const loud = clause(0.8);
  // Trimming uses an absolute threshold, so the louder clause keeps a few more ramp samples.
  const trimmedLen = trimSilence(quiet.slice(), ENGINE_HZ).length;
  const trimmedLoudLen = trimSilence(loud.slice(), ENGINE_HZ).length;

  for (const format of FORMATS) {
    for (const rate of RATES) {
      for (const mode of ['streaming', 'complete'] as const) {
        it(`${format} @ ${rate} Hz (${mode}): decodable, exact duration, equal loudness across clauses`, async () => {
          const { p, pushed, bytes } = run({ inputRateHz: ENGINE_HZ, outputRateHz: rate, format, mode }, [
            [quiet, PAUSE_MS],
            [loud, 0],
          ]);
          if (mode === 'complete') expect(pushed.every((b) => b.length === 0)).toBe(true);
          if (mode === 'streaming' && format === 'wav') expect(String.fromCharCode(...pushed[0]!.subarray(0, 4))).toBe('RIFF');
          if (format === 'wav') expect(parseWav(bytes).sampleRateHz).toBe(rate);

          const expectedIn = trimmedLen + trimmedLoudLen + Math.round((PAUSE_MS * ENGINE_HZ) / 1000);
          expect(Math.abs(p.samplesOut - Math.round((expectedIn * rate) / ENGINE_HZ))).toBeLessThanOrEqual(1);
          expect(p.durationMs).toBe((p.samplesOut / rate) * 1000);

          const { samples: out, rate: decodedRate } = await decode(format, bytes, rate);
          if (format === 'mp3') {
            expect(out.length).toBeGreaterThanOrEqual(p.samplesOut);
            expect(out.length - p.samplesOut).toBeLessThanOrEqual(MP3_SLACK);
          } else {
            // Opus: exactly the same duration at 48 kHz (pre-skip dropped, the end trimmed to the last granule).
            expect(out.length).toBe((p.samplesOut * decodedRate) / rate);
          }

          // Split in the middle of the pause (MP3's ~1100-sample delay is far less than half of it).
          const split = Math.round(((trimmedLen + ((PAUSE_MS / 2) * ENGINE_HZ) / 1000) * decodedRate) / ENGINE_HZ);
          const first = activeLoudnessDb(out.subarray(0, split), decodedRate);
          const second = activeLoudnessDb(out.subarray(split), decodedRate);
          expect(Math.abs(first - second)).toBeLessThan(1);
          expect(Math.abs(first + 20)).toBeLessThan(1.5);
        });
      }
    }
  }

  // A clause that starts at a waveform peak and stops mid-cycle: without edge fades the join would click.
  const abrupt = tone(440, ENGINE_HZ, Math.round(0.3 * ENGINE_HZ) + 7, 0.5, Math.PI / 2);
  const joinCases: Array<[OutputFormat, SampleRateHz, number]> = [
    ...RATES.map((r): [OutputFormat, SampleRateHz, number] => ['pcm', r, 1.05]),
    ...RATES.map((r): [OutputFormat, SampleRateHz, number] => ['wav', r, 1.05]),
    ['mulaw', 8000, 1.3], // mu-law quantisation noise adds to sample-to-sample differences
    ['alaw', 8000, 1.3], // so does A-law's
  ];
  it.each(joinCases)('%s @ %i Hz: no click where back-to-back clauses join', async (format, rate, tolerance) => {
    const { p, bytes } = run({ inputRateHz: ENGINE_HZ, outputRateHz: rate, format, mode: 'complete' }, [
      [abrupt, 0],
      [abrupt, 0],
    ]);
    const { samples: out } = await decode(format, bytes, rate);
    expect(out.length).toBe(p.samplesOut);
    const join = Math.round((abrupt.length * rate) / ENGINE_HZ);
    const around = Math.round(0.01 * rate);
    const interior = maxAbsDiff(out, Math.round(join * 0.3), Math.round(join * 0.7));
    const atJoin = maxAbsDiff(out, join - around, join + around);
    expect(interior).toBeGreaterThan(0);
    expect(atJoin).toBeLessThanOrEqual(interior * tolerance);
    // The stream also starts and ends at (near) zero.
    expect(Math.abs(out[0]!)).toBeLessThan(0.01);
    expect(Math.abs(out[out.length - 1]!)).toBeLessThan(0.01);
  });

  it('streaming and complete modes carry identical PCM', () => {
    const opts = { inputRateHz: ENGINE_HZ, outputRateHz: 16000 as const, format: 'pcm' as const };
    const clauses: Array<[Float32Array, number]> = [
      [quiet, 200],
      [loud, 0],
    ];
    const streamed = run({ ...opts, mode: 'streaming' }, clauses).bytes;
    const complete = run({ ...opts, mode: 'complete' }, clauses).bytes;
    expect(streamed).toEqual(complete);
  });

  it('does not modify the caller clause', () => {
    const x = clause(0.3);
    const copy = x.slice();
    new OutputPipeline({ inputRateHz: ENGINE_HZ, outputRateHz: 8000, format: 'pcm', mode: 'streaming' }).pushClause(x, 100);
    expect(x).toEqual(copy);
  });

  it('emits the streaming WAV header even before any audio and only once', () => {
    const p = new OutputPipeline({ inputRateHz: ENGINE_HZ, outputRateHz: 8000, format: 'wav', mode: 'streaming' });
    const first = p.pushClause(new Float32Array(0), 0);
    expect(first.length).toBe(44);
    const rest = concatBytes([p.pushClause(clause(0.5), 0), p.end()]);
    expect(String.fromCharCode(...rest.subarray(0, 4))).not.toBe('RIFF');
    expect(rest.length).toBe(2 * p.samplesOut);
  });

  it('counts a silent clause as its pause only', () => {
    const { p } = run({ inputRateHz: ENGINE_HZ, outputRateHz: 8000, format: 'mulaw', mode: 'streaming' }, [[silence(300), 250]]);
    expect(Math.abs(p.samplesOut - 2000)).toBeLessThanOrEqual(1);
    expect(p.durationMs).toBe((p.samplesOut / 8000) * 1000);
  });

  it('rejects pushClause after end()', () => {
    const p = new OutputPipeline({ inputRateHz: ENGINE_HZ, outputRateHz: 8000, format: 'pcm', mode: 'streaming' });
    p.end();
    expect(() => p.pushClause(new Float32Array(10), 0)).toThrow();
    expect(p.end().length).toBe(0);
  });

  it('measures loudness the way the assertions above assume (helper guard)', () => {
    expect(activeLoudnessDb(tone(440, 8000, 8000, 0.1 * Math.SQRT2), 8000)).toBeCloseTo(-20, 1);
  });
});

describe('OutputPipeline with clauses shaped where they were synthesized (clause-delivery.ts)', () => {
  it('gives the same audio as shaping on the event loop: same length, same loudness, difference far below the signal', () => {
    const clauses: Array<[Float32Array, number]> = [
      [clause(0.1), 300],
      [clause(0.8), 0],
    ];
    const onLoop = run({ inputRateHz: ENGINE_HZ, outputRateHz: 8000, format: 'pcm', mode: 'complete' }, clauses);
    // What the engine worker hands over: shaped and at the output rate; the pipeline only adds pauses and encodes.
    const inWorker = new OutputPipeline({ inputRateHz: 8000, outputRateHz: 8000, format: 'pcm', mode: 'complete' });
    for (const [samples, pause] of clauses) {
      const delivered = deliverClause(samples, ENGINE_HZ, 8000).samples;
      inWorker.pushClause(delivered, pause, true);
    }
    const a = pcm16ToFloat(bytesLEToPcm16(onLoop.bytes));
    const b = pcm16ToFloat(bytesLEToPcm16(inWorker.end()));
    // Resampled clause by clause instead of as one stream: a sample or two of filter tail per clause may differ.
    expect(Math.abs(a.length - b.length)).toBeLessThanOrEqual(4);
    const n = Math.min(a.length, b.length);
    expect(Math.abs(activeLoudnessDb(a.subarray(0, n), 8000) - activeLoudnessDb(b.subarray(0, n), 8000))).toBeLessThan(0.5);
    // Clause by clause, each clause starts on a whole output sample instead of where the continuous stream put it
    // (up to half a sample, 62 µs, apart), so the waveforms are compared by their 20 ms energy envelopes.
    const envelope = (x: Float32Array) => Array.from({ length: Math.floor(n / 160) }, (_, f) => 10 * Math.log10(1e-12 + rms(x, f * 160, f * 160 + 160) ** 2));
    const ea = envelope(a);
    const eb = envelope(b);
    const active = ea.map((level, f) => ({ level, f })).filter(({ level }) => level > -50);
    expect(active.length).toBeGreaterThan(40);
    for (const { level, f } of active) expect(Math.abs(level - eb[f]!), `frame ${f}`).toBeLessThan(1);
  });

  it('reports the lead it trimmed, so word timings move with the audio; afterTrim keeps them within the clause', () => {
    // 100 ms of silence before the first burst; trimming keeps 20 ms of it.
    const delivered = deliverClause(clause(0.5), ENGINE_HZ, 8000);
    expect(delivered.leadTrimmedMs).toBeCloseTo(80, 0);
    const clipMs = (delivered.samples.length * 1000) / 8000;
    expect(afterTrim([{ atMs: 50 }, { atMs: 400 }, { atMs: 5000 }], delivered.leadTrimmedMs, clipMs).map((t) => t.atMs)).toEqual([
      0,
      400 - delivered.leadTrimmedMs,
      clipMs,
    ]);
    const pipeline = new OutputPipeline({ inputRateHz: ENGINE_HZ, outputRateHz: 8000, format: 'pcm', mode: 'complete' });
    pipeline.pushClause(clause(0.5), 0);
    expect(pipeline.lastLeadTrimmedMs).toBeCloseTo(delivered.leadTrimmedMs, 6);
    pipeline.pushClause(delivered.samples, 0, true);
    expect(pipeline.lastLeadTrimmedMs).toBe(0);
  });

  it('leaves a shaped clause as it is: the pipeline neither trims nor renormalises it again', () => {
    const shaped = deliverClause(clause(0.5), ENGINE_HZ, 8000).samples;
    const pipeline = new OutputPipeline({ inputRateHz: 8000, outputRateHz: 8000, format: 'pcm', mode: 'complete' });
    pipeline.pushClause(shaped, 0, true);
    const out = pcm16ToFloat(bytesLEToPcm16(pipeline.end()));
    expect(out.length).toBe(shaped.length);
    const worst = out.reduce((max, v, i) => Math.max(max, Math.abs(v - shaped[i]!)), 0);
    expect(worst).toBeLessThan(2 / 32768);
  });
});
