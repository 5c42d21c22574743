// POST /v1/playground/call-sim: a real simulated call (voice webhook → TwiML → media stream over loopback, the
// caller talking over the greeting) whose result matches its documented schema, shows the barge-in, and moves the
// call metrics (active calls, barge-ins, first audio on calls); the simulated caller's words are admitted and billed
// like any synthesis (security review c283aa8, L5).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallSimResultSchema } from '../../src/api/routes/playground-call.js';
import { countCodePoints } from '../../src/util/code-points.js';
import { metricValue } from '../helpers/metrics.js';
import { ALL_TIME } from '../helpers/store-contract.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';
import { eventually, SETTINGS_UPDATED_AT_MS } from '../helpers/telephony.js';

let server: TestServer;
let key: string;
let accountId: string;

beforeAll(async () => {
  server = await startTestServer();
  const account = await server.account('growth', 1_000_000);
  key = account.keys[0] as string;
  accountId = account.id;
});

afterAll(async () => {
  await server?.close();
});

const GREETING = 'नमस्ते! आपका ऑर्डर 21 नवंबर को पहुँच जाएगा। कुल राशि ₹1,250 है। धन्यवाद।';

function simulate(body: Record<string, unknown>, apiKey = key) {
  return fetch(`${server.url}/v1/playground/call-sim`, { method: 'POST', headers: authHeaders(apiKey), body: JSON.stringify(body) });
}

const metric = (name: string) => metricValue(server, name);

describe('call simulator endpoint', () => {
  it('runs a call where the caller barges in, and reports its timeline', async () => {
    const bargeInsBefore = await metric('raaga_barge_ins_total{cause="speech"}');
    const firstAudioBefore = await metric('raaga_time_to_first_audio_seconds_count{path="call"}');
    const creditsBefore = (await server.deps.store.getAccount(accountId))!.credits;
    const response = await simulate({ voice: 'meera', language: 'hi-IN', greeting: GREETING, caller_text: 'रुकिए, मुझे कुछ पूछना है', caller_at_ms: 1200, duration_ms: 3000 });
    expect(response.status).toBe(200);
    const parsed = CallSimResultSchema.safeParse(await response.json());
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const call = parsed.data!;
    expect(call.heard_levels).toHaveLength(150);
    expect(call.summary.clears).toBe(1);
    // The greeting was heard before the caller cut it: from its first audio to the clear, whenever that audio came (a
    // loaded machine synthesizes it later than the first second).
    const firstHeardFrame = Math.floor(call.summary.first_media_in_ms! / 20);
    const clearedFrame = Math.ceil(call.events.find((event) => event.kind === 'clear_received')!.at_ms / 20);
    expect(call.heard_levels.slice(firstHeardFrame, clearedFrame + 1).some((level) => level > 0.1)).toBe(true);
    // The clear followed the caller's speech (event order); how fast is measured in bench/barge-in.ts.
    expect(call.summary.barge_in_ms).not.toBeNull();
    const kinds = call.events.map((event) => event.kind);
    expect(kinds.indexOf('clear_received')).toBeGreaterThan(kinds.indexOf('caller_speech'));
    for (const kind of ['start', 'first_media_in', 'mark_received', 'caller_speech', 'clear_received', 'stop_sent', 'closed']) expect(kinds).toContain(kind);
    // After the clear nothing more is heard.
    const clearFrame = Math.ceil(call.events.find((event) => event.kind === 'clear_received')!.at_ms / 20) + 2;
    expect(call.heard_levels.slice(clearFrame).every((level) => level === 0)).toBe(true);

    expect(await metric('raaga_barge_ins_total{cause="speech"}')).toBe(bargeInsBefore + 1);
    expect(await metric('raaga_time_to_first_audio_seconds_count{path="call"}')).toBeGreaterThan(firstAudioBefore);
    expect(await metric('raaga_active_sessions{kind="call"}')).toBe(0);
    // The greeting's audio played before the barge-in was billed to the account, like any call.
    expect((await server.deps.store.getAccount(accountId))!.credits).toBeLessThan(creditsBefore);
  });

  it('plays Exotel with the account\'s stored Basic credentials: PCM16 in 100 ms messages, marks, the clear', async () => {
    const created = await server.account('growth', 1_000_000);
    const other = created.keys[0] as string;
    // Without Exotel credentials (and not allowing unsigned requests) the simulation says what to set.
    const refused = await simulate({ provider: 'exotel', voice: 'meera', language: 'hi-IN', greeting: GREETING }, other);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'validation_error', message: expect.stringMatching(/no exotel credentials.*raaga telephony set/) });
    await server.deps.store.putTelephonySettings({ accountId: created.id, credentials: { exotelCredentials: 'exo-user:exo-secret-123' }, updatedAtMs: SETTINGS_UPDATED_AT_MS });
    const response = await simulate({ provider: 'exotel', voice: 'meera', language: 'hi-IN', greeting: GREETING, caller_text: 'रुकिए, मुझे कुछ पूछना है', caller_at_ms: 1500, duration_ms: 3500 }, other);
    expect(response.status).toBe(200);
    const call = CallSimResultSchema.parse(await response.json());
    expect(call.provider).toBe('exotel');
    expect(call.heard_levels.slice(0, 75).some((level) => level > 0.1)).toBe(true);
    expect(call.summary.clears).toBe(1);
    expect(call.summary.marks_received).toBeGreaterThan(0);
    expect(call.events.map((event) => event.kind)).toContain('clear_received');
  });

  it('needs an API key and validates its body', async () => {
    expect((await simulate({ voice: 'meera', language: 'hi-IN', greeting: 'नमस्ते' }, `rk_live_${'X'.repeat(40)}`)).status).toBe(401);
    const tooLong = await simulate({ voice: 'meera', language: 'hi-IN', greeting: 'नमस्ते', duration_ms: 600_000 });
    expect(tooLong.status).toBe(422);
    expect(((await tooLong.json()) as { error: { message: string } }).error.message).toMatch(/duration_ms/);
    const audioSocket = await simulate({ provider: 'audiosocket', voice: 'meera', language: 'hi-IN', greeting: 'नमस्ते' });
    expect(audioSocket.status).toBe(422);
    expect(((await audioSocket.json()) as { error: { message: string } }).error.message).toMatch(/provider/);
    const badVoice = await simulate({ voice: 'nobody', language: 'hi-IN', greeting: 'नमस्ते' });
    expect(((await badVoice.json()) as { error: { code: string } }).error.code).toBe('voice_language_not_found');
  });
});

describe("the simulated caller's words are paid for like any synthesis", () => {
  const CALLER = 'रुकिए, मुझे कुछ पूछना है';
  const balance = async (id: string) => (await server.deps.store.getAccount(id))!.credits;
  const ledger = (id: string) => server.deps.store.listUsage(id, ALL_TIME);
  const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

  it('debits the caller text by its code points, with its own playground record, beside the call', async () => {
    const created = await server.account('growth', 1_000_000);
    const response = await simulate({ voice: 'meera', language: 'hi-IN', greeting: 'नमस्ते।', caller_text: ` ${CALLER} `, caller_at_ms: 1500, duration_ms: 2000 }, created.keys[0]);
    expect(response.status).toBe(200);
    // The call settles as its stream ends, which the response need not wait for.
    await eventually(async () => (await ledger(created.id)).some((record) => record.endpoint === 'call'), "the call's record");
    const records = await ledger(created.id);
    const playground = records.filter((record) => record.endpoint === 'playground');
    expect(playground).toEqual([expect.objectContaining({ endpoint: 'playground', characters: countCodePoints(CALLER), outcome: 'completed', language: 'hi-IN', keyId: expect.stringMatching(/^sha256:/) })]);
    expect(playground[0]!.voice).not.toBe('meera');
    // The call's greeting is billed by its own record; the balance fell by exactly what the ledger says.
    expect(records.filter((record) => record.endpoint === 'call')).toHaveLength(1);
    const spent = records.reduce((sum, record) => sum + record.characters, 0);
    expect(spent).toBeGreaterThanOrEqual(countCodePoints(CALLER));
    expect(await balance(created.id)).toBe(1_000_000 - spent);
  });

  it('needs credits for the caller text: 402 before any call, nothing spent', async () => {
    const created = await server.account('growth', countCodePoints(CALLER) - 1);
    const response = await simulate({ voice: 'meera', language: 'hi-IN', greeting: 'नमस्ते।', caller_text: CALLER }, created.keys[0]);
    expect(response.status).toBe(402);
    expect(await errorOf(response)).toMatchObject({ code: 'insufficient_credits' });
    expect(await balance(created.id)).toBe(countCodePoints(CALLER) - 1);
    expect(await ledger(created.id)).toEqual([]);
    expect(await metric('raaga_active_sessions{kind="call"}')).toBe(0);
  });

  it("takes a concurrency slot: a free account whose one slot is busy gets 429 concurrency_limit_exceeded", async () => {
    const created = await server.account('free', 10_000);
    const account = (await server.deps.store.getAccount(created.id))!;
    const holder = await server.deps.admission.admit({ account, countRate: false, takeSlot: true, credits: 0 });
    try {
      const response = await simulate({ voice: 'meera', language: 'hi-IN', greeting: 'नमस्ते।', caller_text: CALLER }, created.keys[0]);
      expect(response.status).toBe(429);
      expect(await errorOf(response)).toMatchObject({ code: 'concurrency_limit_exceeded' });
    } finally {
      await holder.finish(0);
    }
    expect(await balance(created.id)).toBe(10_000);
    expect(await ledger(created.id)).toEqual([]);
  });

  it('counts in the rate window: a free account past its 15 requests gets 429 rate_limit_exceeded with Retry-After', async () => {
    const created = await server.account('free', 10_000);
    const apiKey = created.keys[0] as string;
    // Fifteen counted requests that cost nothing: call lookups of a call that does not exist (404, counted).
    for (let i = 0; i < 15; i++) {
      const lookup = await fetch(`${server.url}/v1/calls/CA${String(i).padStart(32, '0')}`, { headers: authHeaders(apiKey) });
      expect(lookup.status).toBe(404);
    }
    const response = await simulate({ voice: 'meera', language: 'hi-IN', greeting: 'नमस्ते।', caller_text: CALLER }, apiKey);
    expect(response.status).toBe(429);
    expect(await errorOf(response)).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await balance(created.id)).toBe(10_000);
    expect(await ledger(created.id)).toEqual([]);
  });
});
