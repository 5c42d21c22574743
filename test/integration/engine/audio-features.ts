// Small voice-feature estimators for engine tests: median F0 by autocorrelation and spectral centroid.
// Deliberately simple; they only need to tell the sixteen preset voices apart, not be accurate pitch trackers.

const FRAME = 1024;
const HOP = 256;

function frameEnergies(samples: Float32Array): { start: number; rms: number }[] {
  const frames: { start: number; rms: number }[] = [];
  for (let start = 0; start + FRAME <= samples.length; start += HOP) {
    let energy = 0;
    for (let i = 0; i < FRAME; i++) {
      const v = samples[start + i] ?? 0;
      energy += v * v;
    }
    frames.push({ start, rms: Math.sqrt(energy / FRAME) });
  }
  return frames;
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? Number.NaN;
}

/** Median F0 in Hz over voiced frames (normalised autocorrelation peak above 0.5, 60..450 Hz). */
export function medianF0(samples: Float32Array, sampleRateHz: number): number {
  const frames = frameEnergies(samples);
  const loudest = Math.max(...frames.map((f) => f.rms), 0);
  const minLag = Math.floor(sampleRateHz / 450);
  const maxLag = Math.ceil(sampleRateHz / 60);
  const pitches: number[] = [];
  for (const { start, rms } of frames) {
    if (rms < loudest * 0.15) continue;
    const corr = new Float64Array(maxLag + 2);
    for (let lag = minLag - 1; lag <= maxLag + 1; lag++) {
      let sum = 0;
      let e1 = 0;
      let e2 = 0;
      for (let i = 0; i + lag < FRAME; i++) {
        const a = samples[start + i] ?? 0;
        const b = samples[start + i + lag] ?? 0;
        sum += a * b;
        e1 += a * a;
        e2 += b * b;
      }
      corr[lag] = sum / Math.sqrt(e1 * e2 + 1e-12);
    }
    let bestLag = 0;
    let best = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      const c = corr[lag] ?? 0;
      if (c > best) {
        best = c;
        bestLag = lag;
      }
    }
    if (best < 0.5) continue;
    // Prefer the shortest lag whose peak is nearly as strong: avoids picking a period multiple (octave error).
    for (let lag = minLag; lag < bestLag; lag++) {
      const c = corr[lag] ?? 0;
      if (c > 0.9 * best && c >= (corr[lag - 1] ?? 0) && c >= (corr[lag + 1] ?? 0)) {
        bestLag = lag;
        break;
      }
    }
    pitches.push(sampleRateHz / bestLag);
  }
  return median(pitches);
}

/** Mean spectral centroid in Hz over loud frames (naive DFT on 512-sample Hann frames, up to 5 kHz). */
export function spectralCentroid(samples: Float32Array, sampleRateHz: number): number {
  const n = 512;
  const frames = frameEnergies(samples);
  const loudest = Math.max(...frames.map((f) => f.rms), 0);
  const maxBin = Math.floor((5000 / sampleRateHz) * n);
  const window = Float64Array.from({ length: n }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1)));
  let weighted = 0;
  let total = 0;
  for (let f = 0; f < frames.length; f += 4) {
    const frame = frames[f];
    if (frame === undefined || frame.rms < loudest * 0.15) continue;
    for (let k = 1; k <= maxBin; k++) {
      let re = 0;
      let im = 0;
      const w = (2 * Math.PI * k) / n;
      for (let i = 0; i < n; i++) {
        const v = (samples[frame.start + i] ?? 0) * (window[i] ?? 0);
        re += v * Math.cos(w * i);
        im -= v * Math.sin(w * i);
      }
      const mag = Math.sqrt(re * re + im * im);
      weighted += mag * ((k * sampleRateHz) / n);
      total += mag;
    }
  }
  return total > 0 ? weighted / total : Number.NaN;
}

export function rms(samples: Float32Array): number {
  let energy = 0;
  for (const v of samples) energy += v * v;
  return Math.sqrt(energy / Math.max(1, samples.length));
}
