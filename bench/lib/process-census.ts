// What a server process holds, read from outside it: its open file descriptors by kind and its RSS from /proc, and
// the samples of its GET /metrics (heap, active handles and resources, clock timers, held admission, live calls).
// The soak bench compares one census with another (the baseline) and fits lines through many.

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface Census {
  /** Seconds since the bench's origin. */
  readonly atS: number;
  readonly fds: number;
  /** Descriptors by kind: socket, pipe, anon_inode, file. */
  readonly fdsByKind: Readonly<Record<string, number>>;
  readonly rssMb: number;
  readonly heapUsedMb: number;
  readonly activeHandles: number;
  /** nodejs_active_resources by type (TCPSocketWrap, Timeout, …): what keeps the loop alive. */
  readonly activeResources: Readonly<Record<string, number>>;
  readonly clockTimers: number;
  readonly liveCalls: number;
  readonly held: { readonly callSlots: number; readonly concurrencySlots: number; readonly creditReservations: number };
  readonly creditsConsumed: number;
  /** raaga_call_refusals_total by `provider reason`. */
  readonly refusals: Readonly<Record<string, number>>;
}

/** Every sample of a Prometheus text exposition, by its full name with labels (`x{kind="a"}`). */
export function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.length === 0 || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}

function descriptors(pid: number): { fds: number; fdsByKind: Record<string, number> } {
  const fdsByKind: Record<string, number> = {};
  let fds = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed between the listing and the read
    }
    const kind = /^(socket|pipe|anon_inode):/.exec(target)?.[1] ?? 'file';
    fdsByKind[kind] = (fdsByKind[kind] ?? 0) + 1;
    fds++;
  }
  return { fds, fdsByKind };
}

function rssMb(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb === undefined ? NaN : Number(kb) / 1024;
}

export function census(pid: number, metricsText: string, atS: number): Census {
  const m = parseMetrics(metricsText);
  const value = (name: string) => m.get(name) ?? NaN;
  const activeResources: Record<string, number> = {};
  const refusals: Record<string, number> = {};
  for (const [name, count] of m) {
    const type = /^nodejs_active_resources\{type="([^"]+)"\}$/.exec(name)?.[1];
    if (type !== undefined) activeResources[type] = count;
    const refusal = /^raaga_call_refusals_total\{reason="([^"]+)",provider="([^"]+)"\}$/.exec(name);
    if (refusal) refusals[`${refusal[2]} ${refusal[1]}`] = count;
  }
  return {
    atS,
    ...descriptors(pid),
    rssMb: rssMb(pid),
    heapUsedMb: value('nodejs_heap_size_used_bytes') / 2 ** 20,
    activeHandles: value('nodejs_active_handles_total'),
    activeResources,
    clockTimers: value('raaga_clock_timers_pending'),
    liveCalls: value('raaga_active_sessions{kind="call"}'),
    held: {
      callSlots: value('raaga_admission_held{kind="call_slot"}'),
      concurrencySlots: value('raaga_admission_held{kind="concurrency_slot"}'),
      creditReservations: value('raaga_admission_held{kind="credit_reservation"}'),
    },
    creditsConsumed: m.get('raaga_credits_consumed_total') ?? 0,
    refusals,
  };
}

/** The least-squares slope of y over x (NaN with fewer than two distinct x). */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - meanX) * (p.y - meanY);
    sxx += (p.x - meanX) ** 2;
  }
  return sxx === 0 ? NaN : sxy / sxx;
}
