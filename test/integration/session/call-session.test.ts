// The call session without a socket: real engine, store and admission; a fake monotonic clock drives the playout;
// recording ports stand in for the provider, the call control and the agent; a scripted detector implements the
// VAD contract. Pacing stays within the window, texts queue in order, barge-in aborts before it clears. Barge-in's
// own time is the caller's audio (caller-audio-clock.ts): its deadlines move with the frames the tests send, not
// with the clock.

import { describe, expect, it, vi } from 'vitest';
import { catalog, useEspeakEngine } from '../../helpers/espeak-engine.js';
import type { VoiceActivityDetectorFactory, VoiceActivityEvent } from '../../../src/session/barge-in/barge-in-contract.js';
import type { CallSession, CallSettings } from '../../../src/session/call-session.js';
import { CONTINUATION_MS, DEFAULT_BARGE_IN_POLICY } from '../../../src/session/barge-in/barge-in-controller.js';
import { EngineBusyError, type TtsEngine } from '../../../src/engine/tts-engine.js';
import { FakeClock, settle } from '../../helpers/fake-clock.js';
import { ALL_TIME } from '../../helpers/store-contract.js';
import { fadeInMulaw, MULAW_SILENCE, PHONE_FRAME_MS } from '../../../src/audio/mulaw.js';
import { AHEAD_MS, Ports, startCall, until } from '../../helpers/call-session-harness.js';

const espeak = useEspeakEngine();

const LONG = 'यह एक लंबा वाक्य है जो कई हिस्सों में बोला जाएगा। '.repeat(4);

/**
 * A detector that says what the test tells it to, on the next frame, and then that the frame is judged (as the real
 * one does once every window of a frame is judged).
 */
class ScriptedVad implements VoiceActivityDetectorFactory {
  readonly next: VoiceActivityEvent[] = [];
  create(_settings: unknown, onEvent: (event: VoiceActivityEvent) => void, onJudged?: (atMs: number) => void) {
    return {
      pushPcm: (_pcm: Int16Array, atMs: number) => {
        this.next.splice(0).forEach(onEvent);
        onJudged?.(atMs);
      },
      setLongSpeechMs() {},
      reset() {},
      close() {},
    };
  }
  async ready() {}
}

async function setup(settings: Partial<CallSettings> = {}, engine: TtsEngine = espeak.engine) {
  const vad = new ScriptedVad();
  return { ...(await startCall(engine, vad, settings)), vad };
}

describe('CallSession', () => {
  it('paces 20 ms frames at most the window ahead of the playout clock, marks each chunk, and reports playback', async () => {
    const { call, ports, clock } = await setup();
    call.say({ text: LONG, utteranceId: 'long' });
    await until(() => ports.mediaMs() > 0, 'first audio');
    const t0 = clock.now();
    // The clock stands still: only the window goes out.
    await until(() => ports.mediaMs() >= AHEAD_MS, 'a window of audio');
    // Instead of waiting a fixed time: let the espeak.engine finish what it was asked (the prefetched chunk), so any
    // audio that could leave without the clock moving has had every chance to.
    await vi.waitFor(() => expect(espeak.engine.load()).toMatchObject({ queued: 0, running: 0 }), { timeout: 20_000, interval: 5 });
    await settle();
    expect(ports.mediaMs()).toBe(AHEAD_MS);
    while (ports.ofType('end_of_utterance').length === 0) {
      await clock.advance(40);
      await new Promise((resolve) => setTimeout(resolve, 2));
      expect(ports.mediaMs()).toBeLessThanOrEqual(clock.now() - t0 + AHEAD_MS);
    }
    expect(ports.out.every((o) => o.kind !== 'media' || o.bytes === 160)).toBe(true);
    const marks = ports.out.filter((o) => o.kind === 'mark').map((o) => (o as { name: string }).name);
    expect(marks.length).toBeGreaterThan(1);
    expect(marks.every((name, i) => name.startsWith('u1.c') && name.endsWith('.g0') && (i === 0 || name !== marks[i - 1]))).toBe(true);
    for (const name of marks) call.markEchoed(name);
    expect(ports.ofType('utterance_played')).toEqual([{ type: 'utterance_played', utterance_id: 'long', duration_ms: Math.round(ports.mediaMs()) }]);
    await call.end('stop');
  });

  it('queues texts and plays them in order, each answered with its id', async () => {
    const { call, ports, clock } = await setup();
    for (const id of ['a', 'b', 'c']) call.say({ text: `वाक्य ${id}।`, utteranceId: id });
    await until(() => ports.ofType('end_of_utterance').length === 3, 'three utterances', clock, 50);
    expect(ports.ofType('end_of_utterance').map((m) => m.utterance_id)).toEqual(['a', 'b', 'c']);
    const marks = ports.out.filter((o) => o.kind === 'mark').map((o) => (o as { name: string }).name);
    expect(marks).toEqual(['u1.c0.g0', 'u2.c0.g0', 'u3.c0.g0']);
    await call.end('stop');
  });

  it('barge-in: the turn is aborted before clear, queued texts are dropped, the agent hears interrupted and cancellations', async () => {
    const { call, ports, vad, clock } = await setup();
    call.say({ text: LONG, utteranceId: 'long' });
    call.say({ text: 'बाद का वाक्य।', utteranceId: 'later' });
    await until(() => ports.mediaMs() >= AHEAD_MS, 'audio');
    await clock.advance(200);
    vad.next.push({ type: 'speech_started', onsetMs: 1000, atMs: 1250 });
    call.inboundAudio(new Uint8Array(160), 1250);
    const clearAt = ports.out.findIndex((o) => o.kind === 'clear');
    expect(clearAt).toBeGreaterThan(0);
    await until(() => ports.ofType('cancellation').length === 2, 'both cancellations', clock, 50);
    // The chunk that was in flight finishes in its worker; then time moves on: nothing of the old generation follows.
    await vi.waitFor(() => expect(espeak.engine.load()).toMatchObject({ queued: 0, running: 0 }), { timeout: 20_000, interval: 5 });
    await clock.advance(2000);
    expect(ports.out.slice(clearAt + 1)).toEqual([]);
    expect(ports.ofType('speech_started')).toEqual([{ type: 'speech_started', at_ms: 1000 }]);
    expect(ports.ofType('interrupted')).toEqual([{ type: 'interrupted', utterance_id: 'long', played_ms: 200, heard_text: '', cause: 'speech' }]);
    expect(ports.ofType('cancellation').map((m) => [m.utterance_id, m.characters_used > 0])).toEqual([
      ['long', true],
      ['later', false],
    ]);
    // One barge-in, one clear: the abort came first, so nothing had to be cleared twice.
    expect(ports.out.filter((o) => o.kind === 'clear')).toHaveLength(1);
    await call.end('stop');
  });

  it('a non-interruptible text is not cut by barge-in; an explicit cancel still stops it', async () => {
    const { call, ports, vad, clock } = await setup();
    call.say({ text: LONG, utteranceId: 'disclosure', interruptible: false });
    await until(() => ports.mediaMs() >= AHEAD_MS, 'audio');
    vad.next.push({ type: 'speech_started', onsetMs: 0, atMs: 300 });
    call.inboundAudio(new Uint8Array(160), 300);
    call.dtmf('5');
    expect(ports.out.some((o) => o.kind === 'clear')).toBe(false);
    expect(ports.ofType('dtmf')).toEqual([{ type: 'dtmf', digit: '5' }]);
    call.cancel();
    expect(ports.out.some((o) => o.kind === 'clear')).toBe(true);
    await until(() => ports.ofType('cancellation').length === 1, 'cancellation', clock, 50);
    expect(ports.ofType('interrupted')[0]).toMatchObject({ utterance_id: 'disclosure', cause: 'cancel' });
    await call.end('stop');
  });

  it('a draining hangup waits until the queued audio has played (marks echoed), then hangs up', async () => {
    const { call, ports, clock } = await setup();
    call.say({ text: 'अलविदा।', utteranceId: 'bye' });
    const hangup = call.hangup(true);
    await until(() => ports.ofType('end_of_utterance').length === 1, 'bye spoken', clock, 50);
    await clock.advance(500);
    expect(ports.hangups).toBe(0);
    for (const o of ports.out) if (o.kind === 'mark') call.markEchoed(o.name);
    await clock.advance(100);
    await hangup;
    expect(ports.hangups).toBe(1);
    await call.end('stop');
    expect(ports.ofType('call_ended')).toEqual([{ type: 'call_ended', reason: 'hangup' }]);
  });

  // Regression (review of 997d5df, §1.3): a turn refused by a full engine never sends its final mark. Its playback
  // entry used to stay outstanding, so a draining hangup waited the full 30 s and later barge-ins were refused.
  it('a turn the engine refuses (tts_workers_busy) is abandoned: a draining hangup goes ahead at once', async () => {
    // The worker pool never refuses a call's clause for a full queue (engine/job-queue.ts), but the engine contract
    // lets any engine refuse a job as busy: the call must survive it.
    const real: TtsEngine = espeak.engine;
    const failing: TtsEngine = {
      name: real.name,
      start: () => real.start(),
      isReady: () => real.isReady(),
      synthesize: () => Promise.reject(new EngineBusyError()),
      audioSource: (voice, language) => real.audioSource(voice, language),
      kindFor: (voice, language) => real.kindFor(voice, language),
      load: () => real.load(),
      close: () => Promise.resolve(),
    };
    const { call, ports, clock } = await setup({}, failing);
    call.say({ text: 'यह वाक्य नहीं बोला जाएगा।', utteranceId: 'refused' });
    await until(() => ports.ofType('error').length === 1, 'the refusal', clock, 0);
    expect(ports.ofType('error')[0]).toMatchObject({ error: { code: 'internal_error' } });
    expect(ports.mediaMs()).toBe(0);
    const hangup = call.hangup(true);
    // One poll of the drain, far less than its 30 s bound: nothing is outstanding, so it hangs up now.
    await clock.advance(100);
    await settle();
    expect(ports.hangups).toBe(1);
    await hangup;
    await call.end('stop');
  });
});

describe('CallSession holds (barge_in_suspect=vad)', () => {
  const HOLDS = { mode: 'any', minSpeechMs: 250, onlyWhileBotSpeaking: true, suspect: 'vad', policy: DEFAULT_BARGE_IN_POLICY, events: 2 } as const;
  const frames = (ports: Ports, from = 0, to = ports.out.length) =>
    ports.out.slice(from, to).flatMap((o) => (o.kind === 'media' ? [o.audio] : []));
  const marks = (ports: Ports, from = 0) => ports.out.slice(from).flatMap((o) => (o.kind === 'mark' ? [o.name] : []));
  /** Tells the call the provider played everything up to and including mark `name` (as its echoes would). */
  const echoThrough = (call: CallSession, ports: Ports, name: string) => {
    for (const mark of marks(ports)) {
      call.markEchoed(mark);
      if (mark === name) return;
    }
    throw new Error(`mark ${name} was never sent`);
  };
  /** The frame of the caller's line at `event.atMs` carries `event`. */
  const suspect = (call: CallSession, vad: ScriptedVad, event: VoiceActivityEvent) => {
    vad.next.push(event);
    call.inboundAudio(new Uint8Array(160), event.atMs);
  };
  /** The caller's line goes on quietly from `fromMs` for `ms` of audio, a frame every 20 ms of the clock. */
  const quiet = async (call: CallSession, clock: FakeClock, fromMs: number, ms: number) => {
    for (let atMs = fromMs + PHONE_FRAME_MS; atMs <= fromMs + ms; atMs += PHONE_FRAME_MS) {
      await clock.advance(PHONE_FRAME_MS);
      call.inboundAudio(new Uint8Array(160).fill(MULAW_SILENCE), atMs);
    }
  };

  it('a short sound holds the bot and resumes it from the confirmed position; billed once, played to the end', async () => {
    const { call, ports, vad, clock, store, account } = await setup({ bargeIn: HOLDS });
    call.say({ text: LONG, utteranceId: 'long' });
    await until(() => ports.mediaMs() >= AHEAD_MS, 'a window of audio');
    await clock.advance(100);
    await until(() => marks(ports).includes('p100.g0'), 'position marks');
    // Position marks go out every 40 ms of audio, chunk marks between them.
    expect(marks(ports).filter((m) => m.startsWith('p')).slice(0, 3)).toEqual(['p20.g0', 'p60.g0', 'p100.g0']);
    echoThrough(call, ports, 'p100.g0');
    const sentBefore = frames(ports);

    suspect(call, vad, { type: 'suspect_started', onsetMs: 1000, atMs: 1010 });
    const clearAt = ports.out.findIndex((o) => o.kind === 'clear');
    expect(clearAt).toBe(ports.out.length - 1);
    expect(ports.ofType('interruption_suspected')).toEqual([
      { type: 'interruption_suspected', suspect_id: 's1', utterance_id: 'long', onset_ms: 1000, position_ms: 100 },
    ]);
    // Held: time passes and the engine finishes what it was doing, and nothing at all is sent; with no caller audio
    // judged, nothing is decided either.
    await vi.waitFor(() => expect(espeak.engine.load()).toMatchObject({ queued: 0, running: 0 }), { timeout: 20_000, interval: 5 });
    await clock.advance(1000);
    expect(ports.out.length).toBe(clearAt + 1);
    await quiet(call, clock, 1010, 190);

    suspect(call, vad, { type: 'suspect_ended', atMs: 1200, extentMs: 160 });
    // The agent opted in, so it may still judge the short sound; it says nothing, and at the deadline the sound's
    // length decides: short, so the bot resumes once the caller has also stayed quiet CONTINUATION_MS.
    expect(ports.ofType('resumed')).toEqual([]);
    expect(ports.out.length).toBe(clearAt + 1);
    await quiet(call, clock, 1200, DEFAULT_BARGE_IN_POLICY.verdictDeadlineMs);
    expect(ports.ofType('resumed')).toEqual([]);
    await quiet(call, clock, 1200 + DEFAULT_BARGE_IN_POLICY.verdictDeadlineMs, CONTINUATION_MS - DEFAULT_BARGE_IN_POLICY.verdictDeadlineMs);
    expect(ports.ofType('resumed')).toEqual([
      { type: 'resumed', suspect_id: 's1', utterance_id: 'long', from_ms: 100, gap_ms: 1200 + CONTINUATION_MS - 1010, reason: 'short' },
    ]);
    // The replay: the frame at 100 ms faded in, then every frame sent after it, byte for byte.
    const replayed = frames(ports, clearAt + 1);
    const expected = sentBefore.slice(5);
    expect(replayed[0]).toEqual(fadeInMulaw(expected[0]!, 64));
    expect(replayed.slice(1, expected.length)).toEqual(expected.slice(1));
    // Its marks are the new generation's; none of the old follows the clear.
    expect(marks(ports, clearAt + 1).every((m) => m.endsWith('.g1'))).toBe(true);

    // The rest plays out; every mark comes back.
    while (ports.ofType('end_of_utterance').length === 0) {
      await clock.advance(40);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    for (const mark of marks(ports, clearAt + 1)) call.markEchoed(mark);
    const unique = ports.mediaMs() - (sentBefore.length - 5) * 20;
    expect(ports.ofType('utterance_played')).toEqual([{ type: 'utterance_played', utterance_id: 'long', duration_ms: Math.round(unique) }]);
    expect(ports.ofType('interrupted')).toEqual([]);
    expect(ports.ofType('cancellation')).toEqual([]);
    await call.end('stop');
    const usage = await store.listUsage(account.id, ALL_TIME);
    expect(usage.map((u) => [u.outcome, u.characters])).toEqual([['completed', [...LONG].length]]);
  });

  it('the ambiguous band waits for the agent: an interrupt verdict commits; a late verdict is an error', async () => {
    const { call, ports, vad, clock } = await setup({ bargeIn: HOLDS });
    call.say({ text: LONG, utteranceId: 'long' });
    call.say({ text: 'बाद का वाक्य।', utteranceId: 'later' });
    await until(() => ports.mediaMs() >= AHEAD_MS, 'audio');
    await clock.advance(200);
    suspect(call, vad, { type: 'suspect_started', onsetMs: 500, atMs: 510 });
    suspect(call, vad, { type: 'suspect_ended', atMs: 900, extentMs: 320 });
    await quiet(call, clock, 900, 100);
    expect(ports.ofType('interrupted')).toEqual([]);
    call.bargeInVerdict('s1', 'interrupt');
    await until(() => ports.ofType('cancellation').length === 2, 'both cancellations', clock, 50);
    // decision_ms: hold → decision on the caller's audio (510 → 1000).
    expect(ports.ofType('interrupted')).toEqual([
      { type: 'interrupted', utterance_id: 'long', played_ms: 200, heard_text: '', cause: 'speech', suspect_id: 's1', decided_by: 'verdict', decision_ms: 490 },
    ]);
    expect(ports.out.filter((o) => o.kind === 'clear')).toHaveLength(1);
    call.bargeInVerdict('s1', 'resume');
    await until(() => ports.ofType('error').length === 1, 'the error', clock, 0);
    expect(ports.ofType('error')[0]).toMatchObject({ error: { code: 'validation_error', message: expect.stringContaining("Suspect 's1' is not on hold") } });
    // The late verdict changed nothing: still the one interruption.
    expect(ports.ofType('interrupted')).toHaveLength(1);
    await call.end('stop');
  });

  it('ambiguous_default=speech: the band resumes a sound the VAD never confirmed and cuts one it did', async () => {
    const SPEECH = { ...HOLDS, events: 1, policy: { ...DEFAULT_BARGE_IN_POLICY, ambiguousDefault: 'speech' } } as const;
    const { call, ports, vad, clock } = await setup({ bargeIn: SPEECH });
    call.say({ text: LONG, utteranceId: 'long' });
    await until(() => ports.mediaMs() >= AHEAD_MS, 'audio');
    suspect(call, vad, { type: 'suspect_started', onsetMs: 0, atMs: 10 });
    suspect(call, vad, { type: 'suspect_ended', atMs: 400, extentMs: 300 });
    // A 300 ms "hmm" the VAD never confirmed: once the caller has stayed quiet, the bot carries on from where it was held.
    await quiet(call, clock, 400, CONTINUATION_MS);
    await until(() => frames(ports, ports.out.findIndex((o) => o.kind === 'clear') + 1).length > 0, 'the replay', clock, 20);
    expect(ports.ofType('interrupted')).toEqual([]);

    suspect(call, vad, { type: 'suspect_started', onsetMs: 2000, atMs: 2010 });
    suspect(call, vad, { type: 'speech_started', onsetMs: 2000, atMs: 2260 });
    suspect(call, vad, { type: 'suspect_ended', atMs: 2400, extentMs: 320 });
    expect(ports.ofType('interrupted')).toEqual([expect.objectContaining({ utterance_id: 'long', cause: 'speech' })]);
    expect(ports.out.filter((o) => o.kind === 'clear')).toHaveLength(2);
    await call.end('stop');
  });

  it('without a verdict the band gets the policy at the deadline; a key commits at once; a cancel ends a hold', async () => {
    const { call, ports, vad, clock } = await setup({ bargeIn: HOLDS });
    call.say({ text: LONG, utteranceId: 'one' });
    await until(() => ports.mediaMs() >= AHEAD_MS, 'audio');
    suspect(call, vad, { type: 'suspect_started', onsetMs: 0, atMs: 10 });
    suspect(call, vad, { type: 'suspect_ended', atMs: 400, extentMs: 300 });
    await quiet(call, clock, 400, DEFAULT_BARGE_IN_POLICY.verdictDeadlineMs);
    expect(ports.ofType('interrupted').at(-1)).toMatchObject({ utterance_id: 'one', decided_by: 'policy', decision_ms: 790 });

    call.say({ text: LONG, utteranceId: 'two' });
    await until(() => frames(ports, ports.out.findIndex((o) => o.kind === 'clear') + 1).length > 0, 'the second text speaking', clock, 20);
    suspect(call, vad, { type: 'suspect_started', onsetMs: 1000, atMs: 1010 });
    call.dtmf('3');
    expect(ports.ofType('interrupted').at(-1)).toMatchObject({ utterance_id: 'two', cause: 'dtmf', decided_by: 'dtmf' });

    call.say({ text: LONG, utteranceId: 'three' });
    const clears = () => ports.out.filter((o) => o.kind === 'clear').length;
    await until(() => frames(ports, ports.out.map((o) => o.kind).lastIndexOf('clear') + 1).length > 0, 'the third text speaking', clock, 20);
    suspect(call, vad, { type: 'suspect_started', onsetMs: 2000, atMs: 2010 });
    expect(clears()).toBe(3);
    call.cancel();
    // The hold had cleared the provider: the cancel has nothing more to clear, and no decision follows it.
    expect(clears()).toBe(3);
    expect(ports.ofType('interrupted').at(-1)).toMatchObject({ utterance_id: 'three', cause: 'cancel' });
    await quiet(call, clock, 2010, DEFAULT_BARGE_IN_POLICY.maxHoldMs + CONTINUATION_MS);
    expect(ports.ofType('resumed')).toEqual([]);
    await call.end('stop');
  });

  it('a non-interruptible text is never held; an agent that did not opt in sees no hold events', async () => {
    const { call, ports, vad, clock } = await setup({ bargeIn: { ...HOLDS, events: 1 } });
    call.say({ text: LONG, utteranceId: 'disclosure', interruptible: false });
    await until(() => ports.mediaMs() >= AHEAD_MS, 'audio');
    suspect(call, vad, { type: 'suspect_started', onsetMs: 0, atMs: 10 });
    expect(ports.out.some((o) => o.kind === 'clear')).toBe(false);
    call.cancel();
    call.say({ text: LONG, utteranceId: 'open' });
    await until(() => frames(ports, ports.out.findIndex((o) => o.kind === 'clear') + 1).length > 0, 'the next text speaking', clock, 20);
    suspect(call, vad, { type: 'suspect_ended', atMs: 20, extentMs: 32 });
    suspect(call, vad, { type: 'suspect_started', onsetMs: 100, atMs: 110 });
    expect(ports.out.filter((o) => o.kind === 'clear')).toHaveLength(2);
    suspect(call, vad, { type: 'suspect_ended', atMs: 200, extentMs: 64 });
    expect(ports.ofType('interruption_suspected')).toEqual([]);
    expect(ports.ofType('resumed')).toEqual([]);
    // Verdicts need the opt-in.
    call.bargeInVerdict('s1', 'resume');
    await until(() => ports.ofType('error').length === 1, 'the error', clock, 0);
    expect(ports.ofType('error')[0]).toMatchObject({ error: { code: 'validation_error', message: expect.stringContaining('barge_in_events=2') } });
    await call.end('stop');
  });
});
