// RedisStore's usage report: each interval's rollup buckets (src/store/usage-rollup.ts) read as hashes, a batch at a
// time, and the sub-quarter edges read from the stream in pages. Replies arrive between turns of the event loop, and
// each is a few fields per group: nothing here reads every record of a period.

import type { Redis } from 'ioredis';
import type { TimeRange, UsageAggregate, UsageDimension } from '../store.js';
import { UsageAccumulator, rollupPieces } from '../usage-rollup.js';
import { parseUsageEntry } from './replies.js';
import { bucketRows } from './usage-totals.js';

/** Bucket hashes asked for at once (pipelined on the one connection). */
const BUCKET_BATCH = 256;
/** Stream entries per XRANGE on an edge (edges are shorter than a quarter hour). */
const EDGE_PAGE = 1_000;

type UsageCommands = Pick<Redis, 'hgetall' | 'xrange'>;

export async function aggregateRedisUsage(
  redis: UsageCommands,
  totalsBase: string,
  stream: string,
  intervals: readonly TimeRange[],
  dimension: UsageDimension | null,
): Promise<UsageAggregate[][]> {
  const results: UsageAggregate[][] = [];
  for (const interval of intervals) {
    const totals = new UsageAccumulator();
    const buckets: string[] = [];
    const edges: TimeRange[] = [];
    for (const piece of rollupPieces(interval)) {
      if (!piece.tier) {
        edges.push(piece);
        continue;
      }
      for (let bucket = piece.fromMs; bucket < piece.toMs; bucket += piece.tier.spanMs) buckets.push(`${totalsBase}${piece.tier.name}:${bucket}`);
    }
    for (let i = 0; i < buckets.length; i += BUCKET_BATCH) {
      const hashes = await Promise.all(buckets.slice(i, i + BUCKET_BATCH).map((key) => redis.hgetall(key)));
      for (const hash of hashes) {
        for (const row of bucketRows(hash, dimension)) totals.add(row.group, row.outcome, row.characters, row.requests, row.audioSeconds);
      }
    }
    for (const edge of edges) await addEdge(redis, stream, edge, dimension, totals);
    results.push(totals.result());
  }
  return results;
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
