// The event loop's recent lag, for load shedding: Node's native delay monitor (perf_hooks) read once a second as that
// second's p99, reported as the median of the last three seconds, so that one GC pause or one noisy second neither
// starts nor ends shedding on its own. It measures only from `start()` (the server calls it once it listens: start-up
// work is no load to shed) and gives no verdict until three seconds are in.

import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The event loop's recent lag p99 in ms; tests inject a fixed or settable one. */
export interface EventLoopLag {
  /** undefined: no verdict yet (not a full window since the monitor started); call admission then admits. */
  p99Ms(): number | undefined;
}

/** The sampling timer of the native monitor (prom-client's nodejs_eventloop_lag_* use the same). */
const RESOLUTION_MS = 10;
const SLICE_MS = 1000;
const SLICES = 3;

/** The median of the last `size` slices' p99; no verdict until `size` slices are in. */
export class LagWindow {
  readonly #slices: number[] = [];

  constructor(readonly size = SLICES) {}

  push(p99Ms: number): void {
    this.#slices.push(p99Ms);
    if (this.#slices.length > this.size) this.#slices.shift();
  }

  clear(): void {
    this.#slices.length = 0;
  }

  p99Ms(): number | undefined {
    if (this.#slices.length < this.size) return undefined;
    const sorted = [...this.#slices].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  }
}

/** What the monitor reads: Node's native delay histogram, or a test's. Delays in nanoseconds. */
export interface DelayHistogram {
  readonly count: number;
  percentile(percentile: number): number;
  enable(): void;
  /** Forgets every delay so far, including the interval in progress. */
  reset(): void;
  disable(): void;
}

export interface EventLoopLagMonitorOptions {
  /** Default: Node's native monitor (perf_hooks) sampling every RESOLUTION_MS, enabled by `start()`. */
  readonly histogram?: DelayHistogram;
  /** Calls `slice` once a second until the returned stop is called. Default: an unref'd interval timer. */
  readonly everySlice?: (slice: () => void) => () => void;
}

function everySecond(slice: () => void): () => void {
  const timer = setInterval(slice, SLICE_MS);
  // A monitor never keeps the process alive.
  timer.unref();
  return () => clearInterval(timer);
}

export class EventLoopLagMonitor implements EventLoopLag {
  readonly #histogram: DelayHistogram;
  readonly #everySlice: (slice: () => void) => () => void;
  readonly #window = new LagWindow();
  #stop: (() => void) | undefined;

  constructor(options: EventLoopLagMonitorOptions = {}) {
    this.#histogram = options.histogram ?? monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    this.#everySlice = options.everySlice ?? everySecond;
  }

  /** Starts measuring now, discarding whatever came before (a second call starts over). No verdict until the window is full. */
  start(): void {
    this.#stop?.();
    this.#histogram.enable();
    this.#histogram.reset();
    this.#window.clear();
    this.#stop = this.#everySlice(() => this.#slice());
  }

  p99Ms(): number | undefined {
    return this.#window.p99Ms();
  }

  close(): void {
    this.#stop?.();
    this.#stop = undefined;
    this.#histogram.disable();
  }

  #slice(): void {
    // The monitor records whole timer intervals: an idle loop reads the resolution itself, so it is subtracted.
    const p99 = this.#histogram.count === 0 ? 0 : Math.max(0, this.#histogram.percentile(99) / 1e6 - RESOLUTION_MS);
    this.#histogram.reset();
    this.#window.push(Math.round(p99 * 10) / 10);
  }
}
