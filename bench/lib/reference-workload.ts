// A fixed CPU job that says how fast this machine is right now, so capacity figures from different days (this VM
// moves 2–3× between days) compare: the capacity bench runs it in the same run and reports calls per reference-core
// beside the raw count. The job is a call's audio path in miniature, frozen here on purpose (its own filter, mu-law
// and framing, not src/audio/), so that making the server cheaper never makes the yardstick cheaper too.
// Run alone: `npx tsx bench/lib/reference-workload.ts` prints one JSON line.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * What the job costs on a "reference core": one core of the 2-vCPU development VM as measured on 26 November 2026
 * (150–156 ms, load average 4). Calls per reference-core = calls per core × (reference_core_ms now / this): on a
 * day when the job takes twice as long, calls per core halve and calls per reference-core stay.
 */
export const REFERENCE_CORE_MS = 150;

/** Seconds of 22.05 kHz audio the job carries through its pipeline. */
const AUDIO_SECONDS = 120;
const FROM_HZ = 22_050;
const TO_HZ = 8_000;
const TAPS = 96;

/** The job: deterministic input, a windowed-sinc decimator, mu-law, 20 ms frames as base64 JSON and back. */
export function referenceJob(): number {
  const input = new Float32Array(AUDIO_SECONDS * FROM_HZ);
  let seed = 12345;
  for (let i = 0; i < input.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    input[i] = 0.3 * Math.sin((2 * Math.PI * (200 + (i % 22050) / 10) * i) / FROM_HZ) + 0.05 * (seed / 2 ** 32 - 0.5);
  }
  const taps = new Float32Array(TAPS);
  const cutoff = (0.45 * TO_HZ) / FROM_HZ;
  for (let j = 0; j < TAPS; j++) {
    const t = j - (TAPS - 1) / 2;
    const sinc = t === 0 ? 1 : Math.sin(2 * Math.PI * cutoff * t) / (2 * Math.PI * cutoff * t);
    taps[j] = 2 * cutoff * sinc * (0.54 - 0.46 * Math.cos((2 * Math.PI * j) / (TAPS - 1)));
  }
  const outLength = Math.floor(((input.length - TAPS) * TO_HZ) / FROM_HZ);
  const mulaw = new Uint8Array(outLength);
  for (let n = 0; n < outLength; n++) {
    const start = Math.floor((n * FROM_HZ) / TO_HZ);
    let acc = 0;
    for (let j = 0; j < TAPS; j++) acc += input[start + j]! * taps[j]!;
    mulaw[n] = encodeMulaw(Math.max(-32768, Math.min(32767, Math.round(acc * 32767))));
  }
  let checksum = 0;
  for (let offset = 0; offset + 160 <= mulaw.length; offset += 160) {
    const text = JSON.stringify({ event: 'media', streamSid: 'MZ0', media: { payload: Buffer.from(mulaw.subarray(offset, offset + 160)).toString('base64') } });
    const back = JSON.parse(text) as { media: { payload: string } };
    checksum = (checksum + Buffer.from(back.media.payload, 'base64')[80]!) >>> 0;
  }
  return checksum;
}

function encodeMulaw(sample: number): number {
  const sign = sample < 0 ? 0x80 : 0;
  let magnitude = Math.min(32635, Math.abs(sample)) + 132;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  magnitude = 0;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

export interface ReferenceMeasure {
  /** CPU milliseconds of one job: the median of `runs` after a warm-up run. */
  readonly referenceCoreMs: number;
  readonly wallMs: number;
  readonly runs: number;
}

/** Runs the job `runs` times after one warm-up in this process; CPU time from process.cpuUsage (run it where nothing else runs). */
export function measureHere(runs = 5): ReferenceMeasure {
  referenceJob();
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const wallStart = performance.now();
    const cpuStart = process.cpuUsage();
    referenceJob();
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
    wall.push(performance.now() - wallStart);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { referenceCoreMs: Math.round(median(cpu) * 10) / 10, wallMs: Math.round(median(wall) * 10) / 10, runs };
}

/** The job in a child process of its own (a bench process has peers and timers of its own running). */
export async function measureReference(runs = 5): Promise<ReferenceMeasure> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), String(runs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  for await (const chunk of child.stdout) out += String(chunk);
  return JSON.parse(out) as ReferenceMeasure;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(measureHere(Number(process.argv[2] ?? 5))));
}
