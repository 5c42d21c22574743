// The session state machine without a socket: real engine, real SqliteStore and Admission, a fake clock
// for idle timeouts and stalls, and a recording sink as the transport. Every state and transition, each seen by what
// the session answers next (a text refused before a config, a config taken only while nothing speaks).

import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalog, useEspeakEngine } from '../../helpers/espeak-engine.js';
import { Admission } from '../../../src/core/admission.js';
import { SynthesisService } from '../../../src/core/synthesis/synthesis-service.js';
import { VoiceResolver } from '../../../src/core/voice-resolver.js';
import { EspeakEngine } from '../../../src/engine/espeak-engine.js';
import type { TtsEngine } from '../../../src/engine/tts-engine.js';
import { ApiError } from '../../../src/errors.js';
import { CLOSE_CODES } from '../../../src/session/close-codes.js';
import type { SessionConfig } from '../../../src/session/session-messages.js';
import type { SessionLimits } from '../../../src/session/session-limits.js';
import { SynthesisSession } from '../../../src/session/synthesis-session.js';
import { SqliteStore } from '../../../src/store/sqlite-store.js';
import { PLAN_LIMITS, type Account, type Plan, type UsageRecord } from '../../../src/store/store.js';
import { FakeClock, settle } from '../../helpers/fake-clock.js';
import { RecordingSink } from '../../helpers/recording-sink.js';
import { ALL_TIME } from '../../helpers/store-contract.js';

const espeak = useEspeakEngine();

const SHORT = 'नमस्ते, आपका खाता सक्रिय है।';
const LONG = 'यह एक लंबा वाक्य है जो कई हिस्सों में बोला जाएगा। '.repeat(20);
const cp = (text: string) => [...text].length;

const CONFIG: SessionConfig = { modelId: 'raaga-v1', voice: 'aarav', language: 'hi-IN', outputFormat: 'pcm', sampleRateHz: 24000, speed: 1 };

/** The key fingerprint the sessions' usage records carry. */
const SESSION_KEY_ID = 'sha256:5e5510000000';

interface Harness {
  readonly session: SynthesisSession;
  readonly sink: RecordingSink;
  readonly clock: FakeClock;
  readonly store: SqliteStore;
  readonly account: Account;
  readonly shutdown: AbortController;
  balance(): Promise<number>;
  /** The account's usage records, without their store-made id. */
  usage(): Promise<Omit<UsageRecord, 'id'>[]>;
  slotFree(): Promise<boolean>;
}

/** A record the session's ledger should hold for CONFIG's voice. */
function ledgerLine(h: Harness, line: Pick<UsageRecord, 'characters' | 'audioSeconds' | 'outcome'>): Omit<UsageRecord, 'id'> {
  const { accountId, keyId, endpoint, voice, language, engine } = { accountId: h.account.id, keyId: SESSION_KEY_ID, endpoint: 'websocket' as const, voice: CONFIG.voice, language: CONFIG.language, engine: 'espeak' as const };
  return { atMs: expect.any(Number) as unknown as number, accountId, keyId, endpoint, voice, language, engine, ...line };
}

const open: SynthesisSession[] = [];
afterEach(async () => {
  for (const session of open.splice(0)) {
    session.peerClosed();
    await session.closed;
  }
});

async function setup(
  options: {
    plan?: Plan;
    credits?: number;
    limits?: Partial<SessionLimits>;
    engine?: TtsEngine;
    storeNow?: () => number;
    slotLeaseMs?: number;
    maxAudioMsPerChar?: number;
  } = {},
): Promise<Harness> {
  const store = await SqliteStore.open(options.storeNow ? { now: options.storeNow } : {});
  const plan = options.plan ?? 'free';
  const account = await store.createAccount({ plan, credits: options.credits ?? 100_000 });
  const clock = new FakeClock();
  const sink = new RecordingSink();
  const shutdown = new AbortController();
  const session = new SynthesisSession(
    {
      services: {
        admission: new Admission(store, { slotLeaseMs: options.slotLeaseMs ?? 30_000, reservationTtlMs: 900_000 }),
        voices: new VoiceResolver(catalog, store),
        synthesis: new SynthesisService(options.engine ?? espeak.engine, {
          firstChunkMaxChars: 100,
          maxChunkChars: 300,
          ...(options.maxAudioMsPerChar ? { maxAudioMsPerChar: options.maxAudioMsPerChar } : {}),
        }),
        shutdown: shutdown.signal,
      },
      usage: { keyId: SESSION_KEY_ID, endpoint: 'websocket' },
      clock,
      logger: pino({ level: 'silent' }),
      ...(options.limits ? { limits: options.limits } : {}),
    },
    account,
    sink,
  );
  open.push(session);
  session.open();
  return {
    session,
    sink,
    clock,
    store,
    account,
    shutdown,
    balance: async () => (await store.getAccount(account.id))!.credits,
    usage: async () => (await store.listUsage(account.id, ALL_TIME)).map(({ id: _id, ...rest }) => rest),
    async slotFree() {
      const probe = await store.admit({ accountId: account.id, limits: PLAN_LIMITS[plan], countRate: false, slotHolderId: 'probe', slotLeaseMs: 1000 });
      if (probe.ok) await store.releaseSlot(account.id, 'probe');
      return probe.ok;
    },
  };
}

async function configured(options: Parameters<typeof setup>[0] = {}, config: SessionConfig = CONFIG): Promise<Harness> {
  const h = await setup(options);
  h.session.receive({ type: 'config', config });
  await h.sink.waitFor('configured');
  return h;
}

/** The pump is polling the buffer: a timer due within its poll interval (the idle timer, 60 s, is off while speaking). */
function pumpWaiting(h: Harness, pollMs: number): Promise<void> {
  return h.sink.until(() => (h.clock.nextDueInMs ?? Infinity) <= pollMs, 'the pump to wait', 10_000);
}

/** Before any config: a text is refused with missing_websocket_config, and the session stays open. */
async function expectUnconfigured(h: Harness): Promise<void> {
  const errors = h.sink.ofType('error').length;
  h.session.receive({ type: 'text', text: SHORT });
  expect((await h.sink.waitFor('error', errors + 1)).error.code).toBe('missing_websocket_config');
  expect(h.sink.closedWith).toBeUndefined();
}

/** Configured, and nothing speaking or being cancelled: the session takes a config again (it refuses one meanwhile). */
async function expectIdle(h: Harness): Promise<void> {
  const configs = h.sink.ofType('configured').length;
  h.session.receive({ type: 'config', config: CONFIG });
  await h.sink.waitFor('configured', configs + 1);
}

/** Frames sent after the message at `index` in the sink's log. */
function framesAfter(sink: RecordingSink, predicate: (m: { type: string }) => boolean): number {
  const at = sink.log.findIndex((entry) => entry.kind === 'json' && predicate(entry.message));
  return sink.log.slice(at + 1).filter((entry) => entry.kind === 'audio').length;
}

describe('connected', () => {
  it('greets with connected and the account id; ping gets pong', async () => {
    const h = await setup();
    expect(h.sink.messages[0]).toEqual({ type: 'connected', user_id: h.account.id });
    await expectUnconfigured(h);
    h.session.receive({ type: 'ping' });
    await h.sink.waitFor('pong');
  });

  it('text or cancel before config: missing_websocket_config, session stays open and unconfigured', async () => {
    const h = await setup();
    h.session.receive({ type: 'text', text: SHORT });
    h.session.receive({ type: 'cancel' });
    const second = await h.sink.waitFor('error', 2);
    expect(h.sink.ofType('error').map((m) => m.error.code)).toEqual(['missing_websocket_config', 'missing_websocket_config']);
    expect(second.error.message).toMatch(/config/);
    expect(h.sink.closedWith).toBeUndefined();
    expect(await h.slotFree()).toBe(true);
  });

  it('a config with an unknown voice is refused and takes no slot', async () => {
    const h = await setup();
    h.session.receive({ type: 'config', config: { ...CONFIG, voice: 'nobody' } });
    expect((await h.sink.waitFor('error')).error.code).toBe('voice_language_not_found');
    await expectUnconfigured(h);
    expect(await h.slotFree()).toBe(true);
  });
});

describe('config', () => {
  it('echoes the active config and holds the slot from then on', async () => {
    const h = await configured();
    expect(h.sink.ofType('configured')[0]).toEqual({
      type: 'configured',
      model_id: 'raaga-v1',
      voice: 'aarav',
      language: 'hi-IN',
      output_format: 'pcm',
      sample_rate: 24000,
      speed: 1,
    });
    expect(await h.slotFree()).toBe(false);
  });

  it('over the concurrency limit: error concurrency_limit_exceeded, still open; succeeds once a slot frees', async () => {
    const h = await setup();
    await h.store.admit({ accountId: h.account.id, limits: PLAN_LIMITS.free, countRate: false, slotHolderId: 'other', slotLeaseMs: 60_000 });
    h.session.receive({ type: 'config', config: CONFIG });
    expect((await h.sink.waitFor('error')).error.code).toBe('concurrency_limit_exceeded');
    await expectUnconfigured(h);
    await h.store.releaseSlot(h.account.id, 'other');
    h.session.receive({ type: 'config', config: CONFIG });
    await h.sink.waitFor('configured');
  });

  it('a later config while idle replaces the active one (same slot)', async () => {
    const h = await configured();
    h.session.receive({ type: 'config', config: { ...CONFIG, outputFormat: 'mulaw', sampleRateHz: 8000, voice: 'meera' } });
    const second = await h.sink.waitFor('configured', 2);
    expect(second).toMatchObject({ output_format: 'mulaw', sample_rate: 8000, voice: 'meera' });
    h.session.receive({ type: 'text', text: SHORT });
    const end = await h.sink.waitFor('end_of_utterance');
    const bytes = h.sink.frames.reduce((sum, f) => sum + f.length, 0);
    expect(bytes / 8000).toBeCloseTo(end.duration_seconds, 5); // mulaw: one byte per sample
  });

  it('a config while speaking is refused and the utterance goes on', async () => {
    const h = await configured();
    h.session.receive({ type: 'text', text: LONG });
    await h.sink.waitForFrames(1);
    h.session.receive({ type: 'config', config: { ...CONFIG, outputFormat: 'mp3' } });
    const error = await h.sink.waitFor('error');
    expect(error.error.code).toBe('validation_error');
    expect(error.error.message).toMatch(/utterance/);
    h.session.receive({ type: 'cancel' });
    await h.sink.waitFor('cancellation');
    expect(h.sink.ofType('configured')).toHaveLength(1);
  });
});

describe('configure() (how a call starts its session)', () => {
  it('resolves with the outcome instead of a reply: applied, refused with its code, or closed meanwhile', async () => {
    const h = await setup();
    expect(await h.session.configure({ ...CONFIG, voice: 'nobody' })).toEqual({ ok: false, reason: expect.stringMatching(/^voice_language_not_found: /), code: 'voice_language_not_found' });
    expect(await h.session.configure(CONFIG)).toEqual({ ok: true });
    expect(h.sink.ofType('configured')).toEqual([]);
    expect(h.sink.ofType('error')).toEqual([]);
    expect(await h.slotFree()).toBe(false);
    h.session.receive({ type: 'text', text: SHORT });
    await h.sink.waitFor('end_of_utterance');

    const late = await setup();
    const pending = late.session.configure(CONFIG);
    late.session.peerClosed();
    expect(await pending).toEqual({ ok: false, reason: 'session closed: client closed' });
    expect(await late.session.configure(CONFIG)).toMatchObject({ ok: false });
  });
});

describe('speaking', () => {
  it('text: 40 ms frames in order, then end_of_utterance; billed exactly; back to idle', async () => {
    const h = await configured();
    const before = await h.balance();
    h.session.receive({ type: 'text', text: SHORT });
    await settle(1);
    const end = await h.sink.waitFor('end_of_utterance');
    expect(end).toEqual({ type: 'end_of_utterance', characters_used: cp(SHORT), duration_seconds: end.duration_seconds, truncated: false });
    const frames = h.sink.frames;
    expect(frames.length).toBeGreaterThan(5);
    expect(frames.filter((f) => f.length === 1920).length).toBeGreaterThan(frames.length / 2); // 40 ms at 24 kHz
    expect(frames.every((f) => f.length <= 1920 && f.length % 2 === 0)).toBe(true);
    const bytes = frames.reduce((sum, f) => sum + f.length, 0);
    expect(end.duration_seconds).toBeCloseTo(bytes / 2 / 24000, 5);
    expect(framesAfter(h.sink, (m) => m.type === 'end_of_utterance')).toBe(0);
    await expectIdle(h);
    expect(await h.balance()).toBe(before - cp(SHORT));
    expect(await h.usage()).toEqual([ledgerLine(h, { characters: cp(SHORT), audioSeconds: end.duration_seconds, outcome: 'completed' })]);
  });

  it('a text while one is running is refused (not queued): one utterance, nothing interleaved, billed once', async () => {
    const h = await configured();
    const before = await h.balance();
    h.session.receive({ type: 'text', text: SHORT });
    h.session.receive({ type: 'text', text: 'दूसरा वाक्य।' });
    const error = await h.sink.waitFor('error');
    expect(error.error.code).toBe('validation_error');
    expect(error.error.message).toMatch(/not queued/);
    await h.sink.waitFor('end_of_utterance');
    await settle();
    expect(h.sink.ofType('end_of_utterance')).toHaveLength(1);
    expect(await h.balance()).toBe(before - cp(SHORT));
  });

  it('text checks: too long, only whitespace, insufficient credits; none billed or counted', async () => {
    const h = await configured({ credits: 10 });
    h.session.receive({ type: 'text', text: 'क'.repeat(3001) });
    h.session.receive({ type: 'text', text: '   ' });
    h.session.receive({ type: 'text', text: SHORT });
    await h.sink.waitFor('error', 3);
    expect(h.sink.ofType('error').map((m) => m.error.code)).toEqual(['text_too_long', 'validation_error', 'insufficient_credits']);
    expect(h.sink.ofType('error')[2]!.error.message).toMatch(/10 remaining/);
    expect(await h.balance()).toBe(10);
    expect(await h.usage()).toEqual([]);
    await expectIdle(h);
  });

  it('the safety budget truncates: truncated true, step_budget_exceeded, not billed; bytes match the duration', async () => {
    // 1 ms per character leaves the 10-second floor, which the long text runs past.
    const h = await configured({ maxAudioMsPerChar: 1 });
    const before = await h.balance();
    h.session.receive({ type: 'text', text: LONG });
    const end = await h.sink.waitFor('end_of_utterance');
    expect(end).toMatchObject({ characters_used: 0, truncated: true, reason: 'step_budget_exceeded' });
    expect(end.duration_seconds).toBeGreaterThan(10);
    const bytes = h.sink.frames.reduce((sum, f) => sum + f.length, 0);
    expect(end.duration_seconds).toBeCloseTo(bytes / 2 / 24000, 5);
    expect(await h.balance()).toBe(before);
    expect(await h.usage()).toEqual([ledgerLine(h, { characters: 0, audioSeconds: end.duration_seconds, outcome: 'truncated' })]);
  });

  it('the idle timer does not run while speaking and restarts when the turn ends', async () => {
    const h = await configured({ limits: { idleTimeoutMs: 1000 } });
    h.session.receive({ type: 'text', text: SHORT });
    await settle(1);
    await h.clock.advance(5000);
    expect(h.sink.closedWith).toBeUndefined();
    await h.sink.waitFor('end_of_utterance');
    await h.clock.advance(999);
    expect(h.sink.closedWith).toBeUndefined();
    await h.clock.advance(1);
    expect(h.sink.closedWith).toEqual({ code: 1000, reason: 'idle timeout' });
  });
});

describe('cancel', () => {
  it('while speaking: stops at once, cancellation with the produced characters, no frame after it, billed that', async () => {
    const h = await configured();
    const before = await h.balance();
    h.session.receive({ type: 'text', text: LONG });
    await h.sink.waitForFrames(1);
    h.session.receive({ type: 'cancel' });
    const cancellation = await h.sink.waitFor('cancellation');
    await expectIdle(h);
    // Wait for the proof instead of a fixed time: the chunk that was in flight has finished in its worker.
    await vi.waitFor(() => expect(espeak.engine.load()).toMatchObject({ queued: 0, running: 0 }), { timeout: 20_000, interval: 5 });
    expect(framesAfter(h.sink, (m) => m.type === 'cancellation')).toBe(0);
    expect(h.sink.ofType('end_of_utterance')).toHaveLength(0);
    expect(cancellation.characters_used).toBeGreaterThan(0);
    expect(cancellation.characters_used).toBeLessThan(cp(LONG));
    const bytes = h.sink.frames.reduce((sum, f) => sum + f.length, 0);
    expect(cancellation.duration_seconds).toBeCloseTo(bytes / 2 / 24000, 5);
    expect(await h.balance()).toBe(before - cancellation.characters_used);
    expect(await h.usage()).toEqual([ledgerLine(h, { characters: cancellation.characters_used, audioSeconds: cancellation.duration_seconds, outcome: 'cancelled' })]);
    // The session is usable again.
    h.session.receive({ type: 'text', text: SHORT });
    await h.sink.waitFor('end_of_utterance');
  });

  it('while idle: cancellation with 0, not billed', async () => {
    const h = await configured();
    const before = await h.balance();
    h.session.receive({ type: 'cancel' });
    expect(await h.sink.waitFor('cancellation')).toEqual({ type: 'cancellation', characters_used: 0, duration_seconds: 0 });
    expect(await h.balance()).toBe(before);
  });

  it('sent right after the text, before any audio: cancellation with 0 characters, nothing billed', async () => {
    const h = await configured();
    const before = await h.balance();
    h.session.receive({ type: 'text', text: LONG });
    h.session.receive({ type: 'cancel' });
    const cancellation = await h.sink.waitFor('cancellation');
    expect(cancellation).toEqual({ type: 'cancellation', characters_used: 0, duration_seconds: 0 });
    expect(h.sink.frames).toHaveLength(0);
    expect(await h.balance()).toBe(before);
  });

  it('completes while the client is not reading (backpressure), with billing settled', async () => {
    const h = await configured();
    const before = await h.balance();
    h.session.receive({ type: 'text', text: LONG });
    await h.sink.waitForFrames(1);
    h.sink.buffered = 100_000; // above the 64 KiB mark, as a socket whose reader stopped
    // Paused: once the chunk being produced is done, no further chunk is asked of the espeak.engine while above the mark,
    // so the espeak.engine goes idle with the text unfinished and nothing more is sent.
    await vi.waitFor(() => expect(espeak.engine.load()).toMatchObject({ queued: 0, running: 0 }), { timeout: 20_000, interval: 5 });
    const sent = h.sink.frames.length;
    await h.clock.advance(100); // the pause polls on the session clock
    expect(espeak.engine.load()).toMatchObject({ queued: 0, running: 0 });
    expect(h.sink.frames.length).toBe(sent);
    expect(h.sink.ofType('end_of_utterance')).toHaveLength(0);
    h.session.receive({ type: 'cancel' });
    const cancellation = await h.sink.waitFor('cancellation');
    expect(await h.balance()).toBe(before - cancellation.characters_used);
    await expectIdle(h);
  });
});

describe('backpressure', () => {
  it('pauses while the buffer is above the mark and resumes when it drains', async () => {
    const h = await configured({ limits: { backpressurePollMs: 50 } });
    h.sink.buffered = 1_000_000;
    h.session.receive({ type: 'text', text: SHORT });
    await pumpWaiting(h, 50);
    expect(h.sink.frames).toHaveLength(0);
    await h.clock.advance(10_000);
    expect(h.sink.frames).toHaveLength(0);
    h.sink.buffered = 0;
    await h.clock.advance(50);
    await h.sink.waitFor('end_of_utterance');
  });

  it('a client that never reads is closed with 1008 after the stall limit; produced audio billed; slot freed', async () => {
    const h = await configured({ limits: { backpressurePollMs: 1000, stallTimeoutMs: 30_000 } });
    const before = await h.balance();
    h.sink.buffered = 1_000_000;
    h.session.receive({ type: 'text', text: LONG });
    await pumpWaiting(h, 1000);
    await h.clock.advance(29_000);
    expect(h.sink.closedWith).toBeUndefined();
    await h.clock.advance(1_000);
    expect(await h.sink.waitForClose()).toEqual({ code: CLOSE_CODES.policyViolation, reason: 'client stopped reading audio' });
    await h.session.closed;
    const spent = before - (await h.balance());
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThan(cp(LONG));
    expect(await h.slotFree()).toBe(true);
  });

  it('a slow reader that keeps draining is not a stall', async () => {
    const h = await configured({ limits: { backpressurePollMs: 1000, stallTimeoutMs: 5_000 } });
    h.sink.buffered = 1_000_000;
    h.session.receive({ type: 'text', text: SHORT });
    await pumpWaiting(h, 1000);
    for (let i = 0; i < 20; i++) {
      h.sink.buffered -= 10_000;
      await h.clock.advance(1000);
    }
    expect(h.sink.closedWith).toBeUndefined();
    h.sink.buffered = 0;
    await h.clock.advance(1000);
    await h.sink.waitFor('end_of_utterance');
  });

  it('JSON replies to a client that reads nothing close the session at the buffer cap', async () => {
    const h = await configured({ limits: { maxBufferedBytes: 1000 } });
    h.sink.buffered = 1001;
    h.session.receive({ type: 'ping' });
    expect(await h.sink.waitForClose()).toEqual({ code: CLOSE_CODES.policyViolation, reason: 'client is not reading messages' });
  });
});

describe('idle timeout (fake clock)', () => {
  it('closes with 1000 "idle timeout" after 60 s without a message; any message resets it; slot freed', async () => {
    const h = await configured();
    await h.clock.advance(59_999);
    expect(h.sink.closedWith).toBeUndefined();
    h.session.receive({ type: 'ping' });
    await h.clock.advance(59_999);
    expect(h.sink.closedWith).toBeUndefined();
    h.session.receiveInvalid(new ApiError('validation_error', 'bad'));
    await h.clock.advance(59_999);
    expect(h.sink.closedWith).toBeUndefined();
    await h.clock.advance(1);
    expect(h.sink.closedWith).toEqual({ code: 1000, reason: 'idle timeout' });
    await h.session.closed;
    // Closed: a message gets no answer any more.
    const pongs = h.sink.ofType('pong').length;
    h.session.receive({ type: 'ping' });
    await settle();
    expect(h.sink.ofType('pong')).toHaveLength(pongs);
    expect(await h.slotFree()).toBe(true);
  });

  it('before any config, the config deadline (10 s) closes the session first, saying why', async () => {
    const h = await setup();
    await h.clock.advance(9_999);
    expect(h.sink.closedWith).toBeUndefined();
    await h.clock.advance(1);
    expect(h.sink.closedWith).toEqual({ code: 1008, reason: 'no config' });
    expect(h.sink.messages.find((message) => message.type === 'error')).toMatchObject({ error: { code: 'missing_websocket_config' } });
  });
});

describe('closing', () => {
  it('disconnect closes with 1000; later events are ignored; slot freed', async () => {
    const h = await configured();
    h.session.receive({ type: 'disconnect' });
    h.session.receive({ type: 'ping' });
    expect(await h.sink.waitForClose()).toEqual({ code: 1000, reason: 'disconnect' });
    await h.session.closed;
    await settle();
    expect(h.sink.ofType('pong')).toHaveLength(0);
    expect(await h.slotFree()).toBe(true);
  });

  it('the peer going away mid-utterance bills the produced audio and frees the slot', async () => {
    const h = await configured();
    const before = await h.balance();
    h.session.receive({ type: 'text', text: LONG });
    await h.sink.waitForFrames(1);
    h.session.peerClosed();
    await h.session.closed;
    const spent = before - (await h.balance());
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThan(cp(LONG));
    expect(await h.slotFree()).toBe(true);
  });

  it('a close during a pending config gives the fresh slot back', async () => {
    const h = await setup();
    h.session.receive({ type: 'config', config: CONFIG });
    h.session.peerClosed();
    await h.session.closed;
    expect(await h.slotFree()).toBe(true);
    expect(h.sink.ofType('configured')).toHaveLength(0);
  });

  it('shutdown begins: idle sessions close with 1011 (reconnect) at once', async () => {
    const h = await configured();
    h.session.beginShutdown();
    expect(h.sink.closedWith).toEqual({ code: 1011, reason: 'server shutting down; reconnect' });
    await h.session.closed;
    expect(await h.slotFree()).toBe(true);
  });

  it('shutdown begins while speaking: the utterance finishes, then 1011 (reconnect)', async () => {
    const h = await configured();
    h.session.receive({ type: 'text', text: SHORT });
    await h.sink.waitForFrames(1);
    h.session.beginShutdown();
    expect(h.sink.closedWith).toBeUndefined();
    await h.sink.waitFor('end_of_utterance');
    expect(await h.sink.waitForClose()).toEqual({ code: 1011, reason: 'server shutting down; reconnect' });
  });

  it('the shutdown grace runs out mid-utterance: 1011 at once, nothing billed, slot freed', async () => {
    const h = await configured();
    const before = await h.balance();
    h.session.receive({ type: 'text', text: LONG });
    await h.sink.waitForFrames(1);
    h.shutdown.abort('shutdown');
    expect(h.sink.closedWith).toEqual({ code: 1011, reason: 'server shutting down; reconnect' });
    await h.session.closed;
    expect(await h.balance()).toBe(before);
    expect(await h.slotFree()).toBe(true);
  });

  it('a flood of messages beyond the pending limit closes with 1008', async () => {
    const h = await configured({ limits: { maxPendingEvents: 16 } });
    for (let i = 0; i < 100; i++) h.session.receive({ type: 'ping' });
    expect(await h.sink.waitForClose()).toEqual({ code: CLOSE_CODES.policyViolation, reason: 'too many messages in flight' });
    await h.session.closed;
    expect(await h.slotFree()).toBe(true);
  });

  it('a lost slot lease closes with 1011', async () => {
    // The store's own clock, standing still until the test moves it (leases are judged on it, not on the wall).
    let storeNowMs = 1_800_000_000_000;
    const h = await configured({ storeNow: () => storeNowMs, slotLeaseMs: 1000 });
    storeNowMs += 120_000; // the lease expires in the store; the next renewal (every ~333 ms) finds it gone
    expect(await h.sink.waitForClose(5000)).toEqual({ code: CLOSE_CODES.sessionLost, reason: 'concurrency slot lost; reconnect' });
  });
});

describe('espeak.engine failures', () => {
  it('queue full: error (internal_error naming tts_workers_busy), nothing billed, session goes on', async () => {
    const small = new EspeakEngine({ workers: 1, maxQueue: 0, voices: catalog.embeddedVoices(), languageIds: catalog.embeddedLanguageIds() });
    await small.start();
    try {
      const h = await configured({ engine: small });
      const before = await h.balance();
      const blocker = small.synthesize(
        { text: LONG.slice(0, 200), language: 'hi-IN', voiceName: 'aarav', speed: 1, pitchShiftSemitones: 0 },
        new AbortController().signal,
      );
      h.session.receive({ type: 'text', text: SHORT });
      const error = await h.sink.waitFor('error');
      expect(error.error.code).toBe('internal_error');
      expect(error.error.message).toMatch(/tts_workers_busy/);
      await expectIdle(h);
      await blocker;
      h.session.receive({ type: 'text', text: SHORT });
      await h.sink.waitFor('end_of_utterance');
      expect(await h.balance()).toBe(before - cp(SHORT));
    } finally {
      await small.close();
    }
  });

  it('the espeak.engine goes away mid-utterance: close 1011, nothing billed, slot freed', async () => {
    const doomed = new EspeakEngine({ workers: 1, maxQueue: 64, voices: catalog.embeddedVoices(), languageIds: catalog.embeddedLanguageIds() });
    await doomed.start();
    const h = await configured({ engine: doomed });
    const before = await h.balance();
    h.session.receive({ type: 'text', text: LONG });
    await h.sink.waitForFrames(1);
    await doomed.close();
    expect(await h.sink.waitForClose()).toEqual({ code: CLOSE_CODES.sessionLost, reason: 'synthesis worker capacity lost; reconnect' });
    await h.session.closed;
    expect(await h.balance()).toBe(before);
    expect(await h.slotFree()).toBe(true);
  });

  it('an unexpected failure (the transport throws) closes with 4002; nothing billed; slot freed', async () => {
    const h = await configured();
    const before = await h.balance();
    const send = h.sink.sendAudio.bind(h.sink);
    h.sink.sendAudio = (bytes) => {
      if (h.sink.frames.length >= 3) throw new Error('transport bug');
      send(bytes);
    };
    h.session.receive({ type: 'text', text: LONG });
    expect(await h.sink.waitForClose()).toEqual({ code: CLOSE_CODES.internalError, reason: 'internal server error' });
    await h.session.closed;
    expect(await h.balance()).toBe(before);
    expect(await h.slotFree()).toBe(true);
  });

  it('a store that fails while settling does not break the session (the reservation expires unbilled)', async () => {
    const h = await configured();
    h.session.receive({ type: 'text', text: LONG });
    await h.sink.waitForFrames(1);
    await h.store.close();
    h.session.receive({ type: 'cancel' });
    await h.sink.waitFor('cancellation');
    await expectIdle(h);
    h.session.peerClosed();
    await h.session.closed;
  });
});
