// The event loop's recent lag, for load shedding: Node's native delay monitor (perf_hooks) read once a second as that
// second's p99, reported as the median of the last three seconds, so that one GC pause or one noisy second neither
// starts nor ends shedding on its own.

import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The event loop's recent lag p99 in ms; tests inject a fixed or settable one. */
export interface EventLoopLag {
  p99Ms(): number;
}

/** The sampling timer of the native monitor (prom-client's nodejs_eventloop_lag_* use the same). */
const RESOLUTION_MS = 10;
const SLICE_MS = 1000;
const SLICES = 3;

/** The median of the last `size` slices' p99 (the larger middle one while only two are in). */
export class LagWindow {
  readonly #slices: number[] = [];

  constructor(readonly size = SLICES) {}

  push(p99Ms: number): void {
    this.#slices.push(p99Ms);
    if (this.#slices.length > this.size) this.#slices.shift();
  }

  p99Ms(): number {
    if (this.#slices.length === 0) return 0;
    const sorted = [...this.#slices].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  }
}

/** What the monitor reads: Node's native delay histogram, or a test's. Delays in nanoseconds. */
export interface DelayHistogram {
  readonly count: number;
  percentile(percentile: number): number;
  reset(): void;
  disable(): void;
}

export interface EventLoopLagMonitorOptions {
  /** Default: Node's native monitor (perf_hooks) sampling every RESOLUTION_MS. */
  readonly histogram?: DelayHistogram;
  /** Calls `slice` once a second until the returned stop is called. Default: an unref'd interval timer. */
  readonly everySlice?: (slice: () => void) => () => void;
}

function nativeHistogram(): DelayHistogram {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  return histogram;
}

function everySecond(slice: () => void): () => void {
  const timer = setInterval(slice, SLICE_MS);
  // A monitor never keeps the process alive.
  timer.unref();
  return () => clearInterval(timer);
}

export class EventLoopLagMonitor implements EventLoopLag {
  readonly #histogram: DelayHistogram;
  readonly #stop: () => void;
  readonly #window = new LagWindow();

  constructor(options: EventLoopLagMonitorOptions = {}) {
    this.#histogram = options.histogram ?? nativeHistogram();
    this.#stop = (options.everySlice ?? everySecond)(() => this.#slice());
  }

  p99Ms(): number {
    return this.#window.p99Ms();
  }

  close(): void {
    this.#stop();
    this.#histogram.disable();
  }

  #slice(): void {
    // The monitor records whole timer intervals: an idle loop reads the resolution itself, so it is subtracted.
    const p99 = this.#histogram.count === 0 ? 0 : Math.max(0, this.#histogram.percentile(99) / 1e6 - RESOLUTION_MS);
    this.#histogram.reset();
    this.#window.push(Math.round(p99 * 10) / 10);
  }
}
