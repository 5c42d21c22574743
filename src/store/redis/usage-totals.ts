// RedisStore's usage totals: per account, one hash per rollup bucket (src/store/usage-rollup.ts: UTC day, hour and
// quarter hour), `<prefix>{<account>}:usage-totals:<tier>:<bucket ms>`, field `<metric>␟<outcome>␟<voice>␟<language>␟<key>`
// (metric c = characters, n = requests, s = audio seconds; key '' for phone calls) and, for reports by day, the same
// per outcome alone, `<metric>␟<outcome>` (read with HMGET: 12 fields a bucket), added to by SETTLE_LUA in the same
// script as the record's XADD. Each hash expires USAGE_RETENTION after its bucket ends, as the stream is trimmed.
// Records written before the totals existed are added once by USAGE_TOTALS_BACKFILL_LUA (`raaga usage --backfill`).
// The Lua fragments, the report window script, and the decoding of bucket hashes (pure).

import { ROLLUP_TIERS } from '../usage-rollup.js';
import { USAGE_OUTCOMES, type UsageDimension } from '../store.js';

/** Field separator of a bucket hash (ASCII unit separator: in no voice, language or key name). */
export const FIELD_SEPARATOR = '\u001f';

/**
 * Lua: `add_usage_totals(base, ms, now, retention, f, characters)` adds one record (`f`: its fields by name) to the
 * buckets of its time `ms`; `usage_fields(from)` reads ARGV pairs from index `from` into such a table.
 */
export const ADD_USAGE_TOTALS_LUA = `
local USAGE_TIERS = {${ROLLUP_TIERS.map((t) => `{'${t.name}', ${t.spanMs}}`).join(', ')}}
local function usage_fields(list, from)
  local f = {}
  for i = from, #list - 1, 2 do f[list[i]] = list[i + 1] end
  return f
end
local function add_usage_totals(base, ms, now, retention, f, characters)
  local outcome = '\\31' .. (f['outcome'] or '')
  local combo = outcome .. '\\31' .. (f['voice'] or '') .. '\\31' .. (f['language'] or '') .. '\\31' .. (f['keyId'] or '')
  for _, tier in ipairs(USAGE_TIERS) do
    local bucket = ms - (ms % tier[2])
    local ttl = bucket + tier[2] + retention - now
    if ttl > 0 then
      local key = base .. tier[1] .. ':' .. string.format('%d', bucket)
      redis.call('HINCRBY', key, 'c' .. combo, characters)
      redis.call('HINCRBY', key, 'n' .. combo, 1)
      redis.call('HINCRBYFLOAT', key, 's' .. combo, f['audioSeconds'] or '0')
      redis.call('HINCRBY', key, 'c' .. outcome, characters)
      redis.call('HINCRBY', key, 'n' .. outcome, 1)
      redis.call('HINCRBYFLOAT', key, 's' .. outcome, f['audioSeconds'] or '0')
      redis.call('PEXPIRE', key, string.format('%d', ttl))
    end
  end
end`;

/**
 * One page of the backfill: adds the account's records written before its totals existed to the buckets, once.
 * The account hash keeps `usageTotalsFrom` (the XRANGE end bound of those records: set by the first settlement with
 * totals, or here when none came yet) and `usageTotalsBackfilled` (the last record added, or `done`).
 * KEYS: account, usage stream, totals base. ARGV: now, retention ms, page size. Returns records added (0: done), -1
 * for an unknown account.
 */
export function usageTotalsBackfillLua(now: string): string {
  return `${now}${ADD_USAGE_TOTALS_LUA}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local now = now_ms(ARGV[1])
local retention = tonumber(ARGV[2])
local stop = redis.call('HGET', KEYS[1], 'usageTotalsFrom')
if not stop then
  local top = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
  stop = '0-0'
  if top[1] then stop = top[1][1] end
  redis.call('HSET', KEYS[1], 'usageTotalsFrom', stop)
end
local cursor = redis.call('HGET', KEYS[1], 'usageTotalsBackfilled')
if cursor == 'done' then return 0 end
local start = '-'
if cursor then start = '(' .. cursor end
local entries = redis.call('XRANGE', KEYS[2], start, stop, 'COUNT', tonumber(ARGV[3]))
for i = 1, #entries do
  local f = usage_fields(entries[i][2], 1)
  local ms = tonumber(string.match(entries[i][1], '^(%d+)'))
  add_usage_totals(KEYS[3], ms, now, retention, f, tonumber(f['characters'] or '0'))
end
if #entries < tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], 'usageTotalsBackfilled', 'done')
else
  redis.call('HSET', KEYS[1], 'usageTotalsBackfilled', entries[#entries][1])
end
return #entries`;
}

/**
 * GET /v1/usage's window: counts one report unless `limit` are in the last window. KEYS: the report window (sorted
 * set). ARGV: now, limit, window ms, member. Returns {1, count, resetAtMs} or {0, count, resetAtMs, retryAfterMs}.
 */
export function usageReportWindowLua(now: string): string {
  return `${now}
local now = now_ms(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local reset = now + window
if oldest[2] then reset = tonumber(oldest[2]) + window end
if count >= limit then
  local freeing = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  local at = now
  if freeing[2] then at = tonumber(freeing[2]) end
  return {0, count, reset, math.max(1, at + window - now)}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return {1, count + 1, reset}`;
}

export interface BucketRow {
  readonly group: string | null;
  readonly outcome: string;
  readonly characters: number;
  readonly requests: number;
  readonly audioSeconds: number;
}

const DIMENSION_INDEX: Readonly<Record<UsageDimension, number>> = { voice: 2, language: 3, key: 4 };

/** The per-outcome fields of a bucket, for HMGET (a report by day needs nothing else). */
export const TOTAL_FIELDS: readonly string[] = ['c', 'n', 's'].flatMap((metric) => USAGE_OUTCOMES.map((outcome) => `${metric}${FIELD_SEPARATOR}${outcome}`));

/** HMGET of TOTAL_FIELDS as the hash of those fields present. */
export function totalFieldsHash(values: readonly (string | null)[]): Record<string, string> {
  const hash: Record<string, string> = {};
  TOTAL_FIELDS.forEach((field, i) => {
    const value = values[i];
    if (value !== null && value !== undefined) hash[field] = value;
  });
  return hash;
}

/**
 * A bucket hash as rows of (group, outcome): with a dimension, the fields of each combination grouped by it; without,
 * the per-outcome fields.
 */
export function bucketRows(hash: Readonly<Record<string, string>>, dimension: UsageDimension | null): BucketRow[] {
  const rows = new Map<string, { group: string | null; outcome: string; characters: number; requests: number; audioSeconds: number }>();
  for (const [field, value] of Object.entries(hash)) {
    const parts = field.split(FIELD_SEPARATOR);
    if (parts.length !== (dimension === null ? 2 : 5)) continue;
    const [metric, outcome = ''] = parts;
    const raw = dimension === null ? null : (parts[DIMENSION_INDEX[dimension]] ?? '');
    const group = raw === null || (dimension === 'key' && raw === '') ? null : raw;
    const id = `${outcome}${FIELD_SEPARATOR}${group ?? ''}${FIELD_SEPARATOR}${group === null ? 0 : 1}`;
    let row = rows.get(id);
    if (!row) {
      row = { group, outcome, characters: 0, requests: 0, audioSeconds: 0 };
      rows.set(id, row);
    }
    const n = Number(value);
    if (metric === 'c') row.characters += n;
    else if (metric === 'n') row.requests += n;
    else if (metric === 's') row.audioSeconds += n;
  }
  return [...rows.values()];
}
