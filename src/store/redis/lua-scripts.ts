// The Lua scripts RedisStore registers with `defineCommand`. Each one reads and writes the keys of ONE account
// (or one lookup key), so it runs atomically on a single Cluster slot. Time comes from Redis `TIME` so instances
// with skewed clocks agree; ARGV[1] may carry an explicit time instead, which only tests use (manual clock).
// Scripts that move money or admit take a deadline (in Redis time): a command that reaches Redis after its client
// gave up (Redis frozen, then resumed) does nothing, so a request answered 503 is never counted nor charged later.
// Semantics mirror SqliteStore exactly (src/store/sqlite-store.ts + admission-state.ts).

import { ADD_USAGE_TOTALS_LUA, usageReportWindowLua, usageTotalsBackfillLua } from './usage-totals.js';

/** `now` in ms: ARGV[1] when given (tests), else the server clock. Scripts are replicated by effects (Redis ≥ 5). */
const NOW = `
local function server_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function now_ms(given)
  if given ~= '' then return tonumber(given) end
  return server_ms()
end
local function past(deadline)
  return deadline ~= '' and server_ms() > tonumber(deadline)
end`;

/** Drops expired leases and reservations; the window is trimmed by the callers that count it. */
const PRUNE = `
local function prune_leases(key, now)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
end
local function prune_reservations(zkey, hkey, now)
  local expired = redis.call('ZRANGEBYSCORE', zkey, '-inf', now)
  for i = 1, #expired do redis.call('HDEL', hkey, expired[i]) end
  if #expired > 0 then redis.call('ZREMRANGEBYSCORE', zkey, '-inf', now) end
end
-- Keeps a sorted set only as long as its latest score (+ extra) is in the future: idle accounts leave nothing behind.
local function expire_at_max(key, now, extra)
  local top = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if top[2] then redis.call('PEXPIRE', key, math.max(1, tonumber(top[2]) + extra - now)) end
end
local function window_view(key, now, window)
  local count = redis.call('ZCARD', key)
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  local reset = now
  if oldest[2] then reset = tonumber(oldest[2]) + window end
  return count, reset
end`;

export const ADMIT_RESULT = {
  ok: 0,
  rateLimited: 1,
  concurrency: 2,
  insufficientCredits: 3,
  noAccount: -1,
  reservationLive: -2,
  /** Reached Redis after its deadline: nothing done. */
  expired: -3,
} as const;

/** SETTLE_LUA's reply when the account is missing, and when the deadline had passed. */
export const SETTLE_NO_ACCOUNT = -1;
export const SETTLE_EXPIRED = -2;

/**
 * Rate → slot → credits, recording nothing unless all pass.
 * KEYS: account, window, leases, reservations, reservedCredits.
 * ARGV: now, countRate (0|1), rpm limit, slot limit, window member, holder id ('' = none), lease ms,
 *       reservation id ('' = none), reservation credits, reservation ttl ms, window ms, deadline ('' = none).
 * Returns {code, now, windowCount, resetAtMs, a, b}: rate_limited a = retryAfterMs; concurrency a = inFlight;
 * insufficient a = available, b = required.
 */
export const ADMIT_LUA = `${NOW}${PRUNE}
if past(ARGV[12]) then return {${ADMIT_RESULT.expired}} end
local now = now_ms(ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 0 then return {${ADMIT_RESULT.noAccount}} end
local count_rate = ARGV[2] == '1'
local rpm = tonumber(ARGV[3])
local slots = tonumber(ARGV[4])
local holder = ARGV[6]
local resv_id = ARGV[8]
local window = tonumber(ARGV[11])

redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
prune_leases(KEYS[3], now)
prune_reservations(KEYS[4], KEYS[5], now)
local count, reset = window_view(KEYS[2], now, window)

if count_rate and count >= rpm then
  -- With a lowered limit the window may hold more than rpm entries: a place frees when entry count-rpm leaves.
  local freeing = redis.call('ZRANGE', KEYS[2], count - rpm, count - rpm, 'WITHSCORES')
  local at = now
  if freeing[2] then at = tonumber(freeing[2]) end
  return {${ADMIT_RESULT.rateLimited}, now, count, reset, math.max(1, at + window - now)}
end

if holder ~= '' and not redis.call('ZSCORE', KEYS[3], holder) then
  local in_flight = redis.call('ZCARD', KEYS[3])
  if in_flight >= slots then return {${ADMIT_RESULT.concurrency}, now, count, reset, in_flight} end
end

local need = tonumber(ARGV[9])
if resv_id ~= '' then
  if redis.call('HEXISTS', KEYS[5], resv_id) == 1 then return {${ADMIT_RESULT.reservationLive}} end
  local available = tonumber(redis.call('HGET', KEYS[1], 'credits'))
  local held = redis.call('HVALS', KEYS[5])
  for i = 1, #held do available = available - tonumber(held[i]) end
  if available < need then
    return {${ADMIT_RESULT.insufficientCredits}, now, count, reset, math.max(0, available), need}
  end
end

if count_rate then
  redis.call('ZADD', KEYS[2], now, ARGV[5])
  expire_at_max(KEYS[2], now, window)
  -- The member is fresh, so the window holds one more entry; it is the oldest only if none was older.
  if count == 0 or now + window < reset then reset = now + window end
  count = count + 1
end
if holder ~= '' then
  redis.call('ZADD', KEYS[3], now + tonumber(ARGV[7]), holder)
  expire_at_max(KEYS[3], now, 0)
end
if resv_id ~= '' then
  redis.call('ZADD', KEYS[4], now + tonumber(ARGV[10]), resv_id)
  redis.call('HSET', KEYS[5], resv_id, need)
  expire_at_max(KEYS[4], now, 0)
  redis.call('PEXPIRE', KEYS[5], redis.call('PTTL', KEYS[4]))
end
return {${ADMIT_RESULT.ok}, now, count, reset}`;

/**
 * The window without counting or writing. KEYS: window. ARGV: now, window ms. Returns {now, count, resetAtMs}.
 */
export const RATE_STATUS_LUA = `${NOW}
local now = now_ms(ARGV[1])
local cutoff = '(' .. (now - tonumber(ARGV[2]))
local count = redis.call('ZCOUNT', KEYS[1], cutoff, '+inf')
local oldest = redis.call('ZRANGEBYSCORE', KEYS[1], cutoff, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
local reset = now
if oldest[2] then reset = tonumber(oldest[2]) + tonumber(ARGV[2]) end
return {now, count, reset}`;

/** Extends a live lease. KEYS: leases. ARGV: now, holder id, lease ms. Returns 1, or 0 when the lease is gone. */
export const RENEW_SLOT_LUA = `${NOW}${PRUNE}
local now = now_ms(ARGV[1])
prune_leases(KEYS[1], now)
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[3]), ARGV[2])
expire_at_max(KEYS[1], now, 0)
return 1`;

/**
 * Ends a reservation once: debits min(used, reserved, balance) and returns the rest, and appends the usage record
 * (when ARGV[5] is 1) to the account's usage stream in the same script, so the ledger and the balance move together.
 * A settled, expired or unknown reservation changes nothing and records nothing, so a retried settle never charges
 * twice. The record's id is `<ms>-<seq>` with ms = max(now, the last record's ms): ids must ascend even if the clock
 * steps back, and the range queries of listUsage read time from the id. Records older than the retention are trimmed
 * (approximately, MINID ~) as new ones arrive. The record is added to the account's usage totals in the same script
 * (src/store/redis/usage-totals.ts; KEYS[5] is the base name of their bucket hashes, on the account's slot).
 * KEYS: account, reservations, reservedCredits, usage, usage totals base.
 * ARGV: now, reservation id, used credits, deadline ('' = none), record (1/0), retention ms, field, value, …
 * Returns the balance after settlement, or SETTLE_NO_ACCOUNT / SETTLE_EXPIRED.
 */
export const SETTLE_LUA = `${NOW}${PRUNE}${ADD_USAGE_TOTALS_LUA}
if past(ARGV[4]) then return ${SETTLE_EXPIRED} end
local now = now_ms(ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 0 then return ${SETTLE_NO_ACCOUNT} end
prune_reservations(KEYS[2], KEYS[3], now)
local balance = tonumber(redis.call('HGET', KEYS[1], 'credits'))
local reserved = redis.call('HGET', KEYS[3], ARGV[2])
if not reserved then return balance end
redis.call('HDEL', KEYS[3], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[2])
local debit = math.min(tonumber(ARGV[3]), tonumber(reserved), balance)
if debit > 0 then balance = redis.call('HINCRBY', KEYS[1], 'credits', -debit) end
if ARGV[5] == '1' then
  local ms = now
  local top = redis.call('XREVRANGE', KEYS[4], '+', '-', 'COUNT', 1)
  if top[1] then ms = math.max(ms, tonumber(string.match(top[1][1], '^(%d+)'))) end
  local id = redis.call('XADD', KEYS[4], 'MINID', '~', string.format('%d', now - tonumber(ARGV[6])), string.format('%d-*', ms),
    'characters', debit, unpack(ARGV, 7))
  add_usage_totals(KEYS[5], ms, now, tonumber(ARGV[6]), usage_fields(ARGV, 7), debit)
  -- Records before this one were written without totals: USAGE_TOTALS_BACKFILL_LUA adds them, up to this bound.
  redis.call('HSETNX', KEYS[1], 'usageTotalsFrom', '(' .. id)
end
return balance`;

/**
 * Creates the account record unless it exists. KEYS: account. ARGV: now (or the imported creation time), id, plan, credits.
 * Returns createdAtMs, or -1 when the id is taken.
 */
export const CREATE_ACCOUNT_LUA = `${NOW}
local now = now_ms(ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
redis.call('HSET', KEYS[1], 'id', ARGV[2], 'plan', ARGV[3], 'credits', ARGV[4], 'createdAtMs', now)
return now`;

/**
 * Changes an existing account only (never creates a partial record). KEYS: account.
 * ARGV: 'plan', <plan> | 'credits', <amount to add>, deadline ('' = none).
 * Returns the record as a flat field/value list, {} if missing, or {'expired'} past the deadline.
 */
export const UPDATE_ACCOUNT_LUA = `${NOW}
if past(ARGV[3]) then return {'expired'} end
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
if ARGV[1] == 'plan' then redis.call('HSET', KEYS[1], 'plan', ARGV[2])
else redis.call('HINCRBY', KEYS[1], 'credits', tonumber(ARGV[2])) end
return redis.call('HGETALL', KEYS[1])`;

/**
 * Claims a lookup record (key hash or voice id) for an account: creates it with the given extra fields when new.
 * KEYS: lookup. ARGV: accountId, field, value, ... Returns 1 when the account owns it (now or already), 0 if another does.
 */
export const CLAIM_LUA = `
local owner = redis.call('HGET', KEYS[1], 'accountId')
if not owner then
  redis.call('HSET', KEYS[1], 'accountId', ARGV[1], unpack(ARGV, 2))
  return 1
end
if owner == ARGV[1] then return 1 end
return 0`;

/** Marks a key hash revoked, for good. KEYS: key lookup. Returns 1, or 0 when no such key exists. */
export const REVOKE_KEY_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'revoked', '1')
return 1`;

/** Stores a voice in its account's hash if the account exists. KEYS: account, voices. ARGV: id, json. */
export const PUT_VOICE_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1`;

/**
 * Stores an outbound call and its `queued` event, unless its idempotency key already names a call: then returns
 * {2, that call's id}. KEYS: account, idempotency key, call, events. ARGV: has key (1/0), call id, call JSON,
 * queued event (`<sequence>|<json>`), retention ms. Returns {1} when stored, {0} for an unknown account.
 */
export const CREATE_OUTBOUND_CALL_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {0} end
if ARGV[1] == '1' then
  local existing = redis.call('GET', KEYS[2])
  if existing then return {2, existing} end
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[5])
end
redis.call('SET', KEYS[3], ARGV[3], 'PX', ARGV[5])
redis.call('HSET', KEYS[4], 'queued', ARGV[4])
redis.call('PEXPIRE', KEYS[4], ARGV[5])
return {1}`;

/**
 * Appends a status event once per status. KEYS: call, events. ARGV: status, event JSON. Stores `<sequence>|<json>`
 * and returns {sequence, 1 when the call has a status webhook}, or {0, 0} when the call is unknown (or expired) or
 * already has this status.
 */
export const RECORD_OUTBOUND_EVENT_LUA = `
local call = redis.call('GET', KEYS[1])
if not call then return {0, 0} end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return {0, 0} end
local sequence = redis.call('HLEN', KEYS[2]) + 1
redis.call('HSET', KEYS[2], ARGV[1], sequence .. '|' .. ARGV[2])
local hooked = string.find(call, '"statusWebhook":"', 1, true) and 1 or 0
return {sequence, hooked}`;

/**
 * Moves a call's webhook cursor forward (never back). KEYS: events, cursor. ARGV: sequence, retention ms.
 * Returns {cursor, events recorded}: the caller drops the call from the backlog once they meet.
 */
export const ADVANCE_WEBHOOK_CURSOR_LUA = `
local cursor = math.max(tonumber(redis.call('GET', KEYS[2]) or '0'), tonumber(ARGV[1]))
redis.call('SET', KEYS[2], cursor, 'PX', ARGV[2])
return {cursor, redis.call('HLEN', KEYS[1])}`;

/**
 * Books the next call-placing slot. KEYS: the account's slot key for the provider. ARGV: now (or ''), interval ms,
 * max wait ms. Returns the wait in ms, or -1 (nothing booked) when it would exceed the max.
 */
export const RESERVE_DIAL_SLOT_LUA = `${NOW}
local now = now_ms(ARGV[1])
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
if slot - now > tonumber(ARGV[3]) then return -1 end
local next_at = slot + tonumber(ARGV[2])
redis.call('SET', KEYS[1], next_at, 'PX', next_at - now + 1000)
return slot - now`;

/**
 * Counts one more outbound call of the account's UTC day (Store.claimOutboundCallOfDay). KEYS: the account's day
 * count (a hash: day, the UTC day number; calls). ARGV: now (or ''), the most calls a day. Returns the day's count
 * with this call, or -1 (nothing counted) when the day has the most already. The key lasts a minute past the day.
 */
export const CLAIM_OUTBOUND_CALL_OF_DAY_LUA = `${NOW}
local now = now_ms(ARGV[1])
local day_ms = 86400000
local day = math.floor(now / day_ms)
local held = redis.call('HMGET', KEYS[1], 'day', 'calls')
local calls = 0
if tonumber(held[1]) == day then calls = tonumber(held[2]) end
if calls >= tonumber(ARGV[2]) then return -1 end
calls = calls + 1
redis.call('HSET', KEYS[1], 'day', day, 'calls', calls)
redis.call('PEXPIRE', KEYS[1], (day + 1) * day_ms - now + 60000)
return calls`;

/**
 * Holds a key for an owner unless another holds it (Store.holdKey). KEYS: the held key. ARGV: owner, ttl ms, now
 * (or ''). The value is `<expires ms>|<owner>` on the store's clock; PX only collects it afterwards. Returns the
 * holder after the attempt; the owner's own hold is renewed.
 */
export const HOLD_KEY_LUA = `${NOW}
local now = now_ms(ARGV[3])
local ttl = tonumber(ARGV[2])
local held = redis.call('GET', KEYS[1])
if held then
  local sep = string.find(held, '|', 1, true)
  local holder = string.sub(held, sep + 1)
  if tonumber(string.sub(held, 1, sep - 1)) > now and holder ~= ARGV[1] then return holder end
end
redis.call('SET', KEYS[1], (now + ttl) .. '|' .. ARGV[1], 'PX', ttl)
return ARGV[1]`;

/** Deletes the held key if the owner holds it. KEYS: the held key. ARGV: owner. */
export const RELEASE_KEY_LUA = `
local held = redis.call('GET', KEYS[1])
if held and string.sub(held, string.find(held, '|', 1, true) + 1) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

/** See src/store/redis/usage-totals.ts. */
export const USAGE_TOTALS_BACKFILL_LUA = usageTotalsBackfillLua(NOW);
export const USAGE_REPORT_WINDOW_LUA = usageReportWindowLua(NOW);
