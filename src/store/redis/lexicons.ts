// RedisStore's lexicons (store/lexicon.ts), on the account's hash tag: `lexicons` (hash: name → its summary JSON),
// `lexicon:<name>` (hash: entry key → entry JSON) and `lexicon-version` (the account's lexicon version). Each change
// is one script that checks the caps, writes and bumps the version, so a change past a cap stores nothing and every
// instance learns of a change with one GET of the version.

import {
  DEFAULT_LEXICON,
  LEXICON_LIMITS,
  LexiconLimitError,
  entriesPerLexiconMessage,
  entryOf,
  lexiconEntryKey,
  lexiconsPerAccountMessage,
  sortedEntries,
  type LexiconEdit,
  type LexiconEntry,
  type LexiconSummary,
  type StoredLexicon,
} from '../lexicon.js';
import { AccountNotFoundError } from '../store.js';
import type { AccountKeys } from './key-layout.js';

/** Lua: `open_lexicon()` refuses a new lexicon past the cap (besides `default`): KEYS[2] summaries, ARGV[1] name, ARGV[2] cap, ARGV[3] default. */
const OPEN_LEXICON = `
local function open_lexicon()
  if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
  if ARGV[1] ~= ARGV[3] and redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then
    local others = redis.call('HLEN', KEYS[2])
    if redis.call('HEXISTS', KEYS[2], ARGV[3]) == 1 then others = others - 1 end
    if others >= tonumber(ARGV[2]) then return -1 end
  end
  return 1
end
local function close_lexicon()
  local version = redis.call('INCR', KEYS[4])
  local count = redis.call('HLEN', KEYS[3])
  redis.call('HSET', KEYS[2], ARGV[1], '{"revision":' .. version .. ',"updatedAtMs":' .. ARGV[4] .. ',"entryCount":' .. count .. '}')
  return {1, version, count}
end`;

/**
 * Replaces a lexicon whole. KEYS: account, summaries, entries, version. ARGV: name, cap of lexicons, default name,
 * updatedAtMs, then entry key and JSON pairs. Returns {1, version, entries}, {0} for an unknown account, {-1} past the cap.
 */
export const PUT_LEXICON_LUA = `${OPEN_LEXICON}
local opened = open_lexicon()
if opened ~= 1 then return {opened} end
redis.call('DEL', KEYS[3])
for i = 5, #ARGV, 2 do redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1]) end
return close_lexicon()`;

/**
 * Removes, then puts, in one step. KEYS as PUT_LEXICON_LUA. ARGV: name, cap of lexicons, default name, updatedAtMs,
 * cap of entries, number of removals, the removed keys, then entry key and JSON pairs (keys unique). Returns as
 * PUT_LEXICON_LUA, or {-2, entries} when the lexicon would hold more than the cap (nothing written then).
 */
export const EDIT_LEXICON_LUA = `${OPEN_LEXICON}
local opened = open_lexicon()
if opened ~= 1 then return {opened} end
local removals = tonumber(ARGV[6])
local count = redis.call('HLEN', KEYS[3])
local removed = {}
for i = 7, 6 + removals do
  if not removed[ARGV[i]] and redis.call('HEXISTS', KEYS[3], ARGV[i]) == 1 then
    removed[ARGV[i]] = true
    count = count - 1
  end
end
for i = 7 + removals, #ARGV, 2 do
  if removed[ARGV[i]] or redis.call('HEXISTS', KEYS[3], ARGV[i]) == 0 then count = count + 1 end
end
if count > tonumber(ARGV[5]) then return {-2, count} end
for key in pairs(removed) do redis.call('HDEL', KEYS[3], key) end
for i = 7 + removals, #ARGV, 2 do redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1]) end
return close_lexicon()`;

/** KEYS: summaries, entries, version. ARGV: name. Returns 1 when deleted, 0 when there was none. */
export const DELETE_LEXICON_LUA = `
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('DEL', KEYS[2])
redis.call('INCR', KEYS[3])
return 1`;

/**
 * KEYS: summaries, entries. ARGV: name. Returns {summary JSON, the entry JSONs joined by newlines} read at one instant,
 * or {} for none: one bulk reply and one JSON.parse for 10,000 entries, not 10,000 of each (JSON has no raw newline).
 */
export const GET_LEXICON_LUA = `
local summary = redis.call('HGET', KEYS[1], ARGV[1])
if not summary then return {} end
return {summary, table.concat(redis.call('HVALS', KEYS[2]), '\\n')}`;

type Arg = string | number;
export interface LexiconCommands {
  raagaPutLexicon(...args: Arg[]): Promise<unknown>;
  raagaEditLexicon(...args: Arg[]): Promise<unknown>;
  raagaDeleteLexicon(...args: Arg[]): Promise<unknown>;
  raagaGetLexicon(...args: Arg[]): Promise<unknown>;
  hgetall(key: string): Promise<Record<string, string>>;
  get(key: string): Promise<string | null>;
}

export const LEXICON_SCRIPTS = [
  ['raagaPutLexicon', PUT_LEXICON_LUA, 4],
  ['raagaEditLexicon', EDIT_LEXICON_LUA, 4],
  ['raagaDeleteLexicon', DELETE_LEXICON_LUA, 3],
  ['raagaGetLexicon', GET_LEXICON_LUA, 2],
] as const;

interface SummaryJson {
  readonly revision: number;
  readonly updatedAtMs: number;
  readonly entryCount: number;
}

export class RedisLexicons {
  constructor(private readonly redis: LexiconCommands) {}

  async put(keys: AccountKeys, accountId: string, name: string, entries: readonly LexiconEntry[], updatedAtMs: number): Promise<LexiconSummary> {
    const pairs = entries.flatMap((entry) => [lexiconEntryKey(entry), JSON.stringify(entry)]);
    const reply = (await this.redis.raagaPutLexicon(...this.#keys(keys, name), name, LEXICON_LIMITS.lexiconsPerAccount, DEFAULT_LEXICON, updatedAtMs, ...pairs)) as number[];
    return summaryOf(accountId, name, reply, updatedAtMs);
  }

  async edit(keys: AccountKeys, accountId: string, name: string, edit: LexiconEdit, updatedAtMs: number): Promise<LexiconSummary> {
    const removals = edit.remove.map(lexiconEntryKey);
    const pairs = edit.put.flatMap((entry) => [lexiconEntryKey(entry), JSON.stringify(entry)]);
    const reply = (await this.redis.raagaEditLexicon(
      ...this.#keys(keys, name),
      name,
      LEXICON_LIMITS.lexiconsPerAccount,
      DEFAULT_LEXICON,
      updatedAtMs,
      LEXICON_LIMITS.entriesPerLexicon,
      removals.length,
      ...removals,
      ...pairs,
    )) as number[];
    return summaryOf(accountId, name, reply, updatedAtMs);
  }

  async get(keys: AccountKeys, name: string): Promise<StoredLexicon | null> {
    const [summary, joined] = (await this.redis.raagaGetLexicon(keys.lexicons, keys.lexicon(name), name)) as string[];
    if (summary === undefined) return null;
    const parsed = JSON.parse(summary) as SummaryJson;
    const raw = joined ? (JSON.parse(`[${joined.split('\n').join(',')}]`) as Parameters<typeof entryOf>[0][]) : [];
    return { name, entryCount: raw.length, revision: parsed.revision, updatedAtMs: parsed.updatedAtMs, entries: sortedEntries(raw.map(entryOf)) };
  }

  async list(keys: AccountKeys): Promise<LexiconSummary[]> {
    const all = await this.redis.hgetall(keys.lexicons);
    return Object.entries(all)
      .map(([name, json]) => {
        const parsed = JSON.parse(json) as SummaryJson;
        return { name, entryCount: parsed.entryCount, revision: parsed.revision, updatedAtMs: parsed.updatedAtMs };
      })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async delete(keys: AccountKeys, name: string): Promise<boolean> {
    return (await this.redis.raagaDeleteLexicon(keys.lexicons, keys.lexicon(name), keys.lexiconVersion, name)) === 1;
  }

  async version(keys: AccountKeys): Promise<number> {
    return Number((await this.redis.get(keys.lexiconVersion)) ?? 0);
  }

  #keys(keys: AccountKeys, name: string): string[] {
    return [keys.account, keys.lexicons, keys.lexicon(name), keys.lexiconVersion];
  }
}

function summaryOf(accountId: string, name: string, reply: readonly number[], updatedAtMs: number): LexiconSummary {
  const [status, version, count] = reply.map(Number);
  if (status === 0) throw new AccountNotFoundError(accountId);
  if (status === -1) throw new LexiconLimitError('lexiconsPerAccount', lexiconsPerAccountMessage());
  if (status === -2) throw new LexiconLimitError('entriesPerLexicon', entriesPerLexiconMessage(name, version ?? 0));
  return { name, entryCount: count ?? 0, revision: version ?? 0, updatedAtMs };
}
