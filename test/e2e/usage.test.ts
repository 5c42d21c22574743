// GET /v1/usage over real HTTP: every billed request and utterance (generate, stream, a stream the client dropped,
// WebSocket texts) lands in the ledger with its key, voice, language, engine and outcome, the totals equal the
// credits spent to the character, groups by day/voice/language/key in the caller's time zone, only the account's own
// records, and every bad query is a 422 naming the field.

import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashApiKey, keyFingerprint } from '../../src/store/api-key.js';
import { authHeaders, HINDI_SENTENCE, startTestServer, type TestServer } from '../helpers/test-server.js';
import { openConfigured } from '../helpers/ws-client.js';
import { ALL_TIME } from '../helpers/store-contract.js';
import { USAGE_REPORTS_PER_MINUTE } from '../../src/core/usage/usage-report.js';

let server: TestServer;
let account: { id: string; keys: string[] };
let other: { id: string; keys: string[] };
const CREDITS = 1_000_000;
const LONG_TEXT = 'यह एक लंबा वाक्य है जो कई हिस्सों में बोला जाएगा। '.repeat(20);
const cp = (text: string) => [...text].length;

function synthesisBody(text: string, voice = 'aarav', language = 'hi-IN'): string {
  return JSON.stringify({ model_id: 'raaga-v1', voice, language, text, output_format: 'pcm' });
}

async function usage(key: string, query = ''): Promise<{ status: number; json: Record<string, any> }> {
  const response = await fetch(`${server.url}/v1/usage${query}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

/** Opens a stream, and drops the connection once the first audio bytes arrived. */
function dropStreamAfterFirstBytes(key: string, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${server.url}/v1/tts/stream`);
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: authHeaders(key) }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', () => undefined);
    req.end(synthesisBody(text));
  });
}

beforeAll(async () => {
  server = await startTestServer();
  account = await server.account('growth', CREDITS, 1);
  other = await server.account('growth', CREDITS);
});
afterAll(async () => server.close());

describe('GET /v1/usage', () => {
  it('records every billed request with its details; totals equal the credits spent', async () => {
    const [key1, key2] = account.keys as [string, string];
    const generated = await fetch(`${server.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(key1), body: synthesisBody(HINDI_SENTENCE) });
    expect(generated.status).toBe(200);
    const generatedSeconds = ((await generated.json()) as { duration_seconds: number }).duration_seconds;
    const streamed = await fetch(`${server.url}/v1/tts/stream`, { method: 'POST', headers: authHeaders(key2), body: synthesisBody('Your balance is 500 rupees.', 'ananya', 'en-IN') });
    expect(streamed.status).toBe(200);
    await streamed.arrayBuffer();
    await dropStreamAfterFirstBytes(key2, LONG_TEXT);
    const ws = await openConfigured(server, key1, { voice: 'aarav', language: 'hi-IN' });
    ws.send({ type: 'text', text: HINDI_SENTENCE });
    const end = await ws.waitFor('end_of_utterance');
    ws.socket.close();
    await fetch(`${server.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(other.keys[0]!), body: synthesisBody(HINDI_SENTENCE) });

    // The dropped stream settles after its connection closed: wait for its record, not for a time.
    const records = await vi.waitFor(
      async () => {
        const list = await server.deps.store.listUsage(account.id, ALL_TIME);
        expect(list).toHaveLength(4);
        return list;
      },
      { timeout: 20_000, interval: 20 },
    );
    const [id1, id2] = [keyFingerprint(hashApiKey(key1)), keyFingerprint(hashApiKey(key2))];
    const byEndpoint = Object.fromEntries(records.map((r) => [`${r.endpoint}:${r.outcome}`, r]));
    expect(byEndpoint['generate:completed']).toMatchObject({ keyId: id1, voice: 'aarav', language: 'hi-IN', engine: 'espeak', characters: cp(HINDI_SENTENCE), audioSeconds: generatedSeconds });
    expect(byEndpoint['stream:completed']).toMatchObject({ keyId: id2, voice: 'ananya', language: 'en-IN', characters: cp('Your balance is 500 rupees.') });
    const dropped = byEndpoint['stream:cancelled'];
    expect(dropped).toMatchObject({ keyId: id2, voice: 'aarav' });
    expect(dropped!.characters).toBeGreaterThan(0);
    expect(dropped!.characters).toBeLessThan(cp(LONG_TEXT));
    expect(byEndpoint['websocket:completed']).toMatchObject({ keyId: id1, characters: end.characters_used, audioSeconds: end.duration_seconds });

    const spent = CREDITS - (await server.deps.store.getAccount(account.id))!.credits;
    const { status, json } = await usage(key1, '?group_by=key');
    expect(status).toBe(200);
    expect(json.account_id).toBe(account.id);
    expect(json.group_by).toBe('key');
    expect(json.total).toEqual({
      characters: spent,
      requests: 4,
      audio_seconds: Number(records.reduce((s, r) => s + r.audioSeconds, 0).toFixed(6)),
      outcomes: { completed: 3, cancelled: 1, truncated: 0, failed: 0 },
    });
    const groups = Object.fromEntries((json.groups as { group: string; characters: number; requests: number }[]).map((g) => [g.group, g]));
    expect(groups[id1]).toMatchObject({ characters: cp(HINDI_SENTENCE) + end.characters_used, requests: 2 });
    expect(groups[id2]).toMatchObject({ characters: cp('Your balance is 500 rupees.') + dropped!.characters, requests: 2 });

    const byVoice = (await usage(key2, '?group_by=voice')).json;
    expect((byVoice.groups as { group: string }[]).map((g) => g.group)).toEqual(['aarav', 'ananya']);
    const byLanguage = (await usage(key2, '?group_by=language')).json;
    expect((byLanguage.groups as { group: string; requests: number }[]).map((g) => [g.group, g.requests])).toEqual([
      ['en-IN', 1],
      ['hi-IN', 3],
    ]);
    // The other account sees only its own request.
    expect((await usage(other.keys[0]!)).json.total).toMatchObject({ characters: cp(HINDI_SENTENCE), requests: 1 });
  });

  it('groups by local day and bounds the period in the given time zone', async () => {
    const key = account.keys[0]!;
    const { json } = await usage(key, '?timezone=Asia/Kolkata');
    expect(json.timezone).toBe('Asia/Kolkata');
    // The default period is this month so far, as the caller's calendar has it: it starts at local midnight.
    expect(new Date(json.from as string).getTime() % 86_400_000).toBe(86_400_000 - 19_800_000);
    // The records inside the period the server answered for: nothing here depends on when the test runs.
    const istDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' });
    const inPeriod = await server.deps.store.listUsage(account.id, { fromMs: Date.parse(json.from as string), toMs: Date.parse(json.to as string) });
    expect((json.groups as { group: string }[]).map((g) => g.group)).toEqual([...new Set(inPeriod.map((r) => istDay.format(new Date(r.atMs))))].sort());
    // One whole local day asked for by date: exactly that day's records, whichever day they were written.
    const all = await server.deps.store.listUsage(account.id, ALL_TIME);
    const day = istDay.format(new Date(all.at(-1)!.atMs));
    const ofDay = all.filter((r) => istDay.format(new Date(r.atMs)) === day);
    const explicit = await usage(key, `?from=${day}&to=${day}&timezone=Asia/Kolkata`);
    expect((explicit.json.groups as { group: string; characters: number; requests: number }[]).map((g) => [g.group, g.characters, g.requests])).toEqual([
      [day, ofDay.reduce((sum, r) => sum + r.characters, 0), ofDay.length],
    ]);
    expect(new Date(explicit.json.to as string).getTime() - new Date(explicit.json.from as string).getTime()).toBe(86_400_000);
    const before = await usage(key, '?from=2020-01-01&to=2020-01-31');
    expect(before.json.total).toMatchObject({ characters: 0, requests: 0 });
    expect(before.json.groups).toEqual([]);
    const instants = await usage(key, '?from=2020-01-01T00:00:00Z&to=2020-01-01T06:30:00%2B05:30');
    expect(instants.status).toBe(200);
    expect([instants.json.from, instants.json.to]).toEqual(['2020-01-01T00:00:00.000Z', '2020-01-01T01:00:00.000Z']);
  });

  it('counts reports in a window of their own: the 61st in a minute is 429 rate_limit_exceeded with Retry-After, synthesis untouched', async () => {
    const reader = await server.account('free', 100);
    const key = reader.keys[0]!;
    for (let i = 0; i < USAGE_REPORTS_PER_MINUTE; i++) expect((await usage(key, '?group_by=voice')).status).toBe(200);
    const refused = await fetch(`${server.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('rate_limit_exceeded');
    expect(body.error.message).toMatch(/^At most 60 usage reports per minute for this account .*retry in \d+ s\.$/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The synthesis window is the plan's and still whole: reading the ledger spent none of it.
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('15');
    const generated = await fetch(`${server.url}/v1/tts/generate`, { method: 'POST', headers: authHeaders(key), body: synthesisBody('नमस्ते') });
    expect(generated.status).toBe(200);
  });

  it('answers a bad query with 422 validation_error naming the field, and no key with 401', async () => {
    const key = account.keys[0]!;
    const cases: [string, RegExp][] = [
      ['?group_by=month', /group_by/],
      ['?from=yesterday', /^from: 'yesterday' is neither a date/],
      ['?from=2026-02-30', /^from: 2026-02-30 is not a calendar date/],
      ['?from=2026-11-01T10:00:00', /^from: .*with its offset/],
      ['?from=2026-11-10&to=2026-11-01', /^to: must be after from/],
      ['?from=2020-01-01&to=2026-01-01', /^to: the period may span at most 400 days/],
      ['?timezone=Mars/Olympus', /^timezone: 'Mars\/Olympus' is not an IANA time zone/],
      ['?group-by=day', /group-by/],
    ];
    for (const [query, message] of cases) {
      const { status, json } = await usage(key, query);
      expect({ query, status, code: json.error?.code }).toEqual({ query, status: 422, code: 'validation_error' });
      expect(json.error.message).toMatch(message);
    }
    const anonymous = await fetch(`${server.url}/v1/usage`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
  });
});
