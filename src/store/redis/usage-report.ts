// RedisStore's usage report: each interval's rollup buckets (src/store/usage-rollup.ts) read as hashes, a batch at a
// time, and the sub-quarter edges read from the stream in pages. Replies arrive between turns of the event loop, and
// each is a few fields per group: nothing here reads every record of a period.

import type { Redis } from 'ioredis';
import type { TimeRange, UsageAggregate, UsageDimension } from '../store.js';
import { UsageAccumulator, rollupPieces } from '../usage-rollup.js';
import { parseUsageEntry } from './replies.js';
import { TOTAL_FIELDS, bucketRows, totalFieldsHash } from './usage-totals.js';

/**
 * Bucket hashes asked for at once (pipelined on the one connection): 12 fields each by day, whole hashes (a field per
 * combination) otherwise, so each batch's replies are summed in a short block.
 */
const BUCKET_BATCH = { totals: 1_024, combinations: 128 } as const;
/** Stream entries per XRANGE on an edge (edges are shorter than a quarter hour). */
const EDGE_PAGE = 1_000;

type UsageCommands = Pick<Redis, 'hgetall' | 'hmget' | 'xrange'>;

export async function aggregateRedisUsage(
  redis: UsageCommands,
  totalsBase: string,
  stream: string,
  intervals: readonly TimeRange[],
  dimension: UsageDimension | null,
): Promise<UsageAggregate[][]> {
  const totals = intervals.map(() => new UsageAccumulator());
  // Every interval's buckets in one list, fetched a batch at a time: round trips follow the buckets, not the days.
  const buckets: { readonly interval: number; readonly key: string }[] = [];
  const edges: { readonly interval: number; readonly range: TimeRange }[] = [];
  intervals.forEach((interval, i) => {
    for (const piece of rollupPieces(interval)) {
      if (!piece.tier) edges.push({ interval: i, range: piece });
      else for (let bucket = piece.fromMs; bucket < piece.toMs; bucket += piece.tier.spanMs) buckets.push({ interval: i, key: `${totalsBase}${piece.tier.name}:${bucket}` });
    }
  });
  const batchSize = dimension === null ? BUCKET_BATCH.totals : BUCKET_BATCH.combinations;
  for (let i = 0; i < buckets.length; i += batchSize) {
    const batch = buckets.slice(i, i + batchSize);
    const hashes = await Promise.all(batch.map(async ({ key }) => (dimension === null ? totalFieldsHash(await redis.hmget(key, ...TOTAL_FIELDS)) : redis.hgetall(key))));
    hashes.forEach((hash, j) => {
      const into = totals[batch[j]!.interval]!;
      for (const row of bucketRows(hash, dimension)) into.add(row.group, row.outcome, row.characters, row.requests, row.audioSeconds);
    });
  }
  for (const edge of edges) await addEdge(redis, stream, edge.range, dimension, totals[edge.interval]!);
  return totals.map((t) => t.result());
}

async function addEdge(redis: UsageCommands, stream: string, edge: TimeRange, dimension: UsageDimension | null, totals: UsageAccumulator): Promise<void> {
  let start = String(edge.fromMs);
  const end = String(edge.toMs - 1);
  for (;;) {
    const page = (await redis.xrange(stream, start, end, 'COUNT', EDGE_PAGE)) as [string, string[]][];
    for (const entry of page) {
      const record = parseUsageEntry('', entry);
      const group = dimension === null ? null : dimension === 'key' ? record.keyId : record[dimension];
      totals.add(group, record.outcome, record.characters, 1, record.audioSeconds);
    }
    const last = page.at(-1);
    if (page.length < EDGE_PAGE || !last) return;
    start = `(${last[0]}`;
  }
}
