// A call's barge-in against a recording port (the call as barge-in acts on it) and a scripted detector: which sounds
// and keys cut, hold or resume the bot, what the agent is told, and when nothing may be decided at all. Time is the
// caller's audio: it moves only with the frames the tests hear.

import { describe, expect, it } from 'vitest';
import { MULAW_SILENCE, PHONE_FRAME_MS } from '../../../../src/audio/mulaw.js';
import { isApiError } from '../../../../src/errors.js';
import type { BargeInSettings, DetectorSettings, VoiceActivityDetectorFactory, VoiceActivityEvent } from '../../../../src/session/barge-in/barge-in-contract.js';
import { CONTINUATION_MS, DEFAULT_BARGE_IN_POLICY } from '../../../../src/session/barge-in/barge-in-controller.js';
import { CallBargeIn, type BargeInPort, type BotAudio } from '../../../../src/session/barge-in/call-barge-in.js';
import type { CallEvent } from '../../../../src/session/call-events.js';
import { FakeClock } from '../../../helpers/fake-clock.js';

/** Says what the test tells it to on the next frame, then that the frame is judged. */
class ScriptedVad implements VoiceActivityDetectorFactory {
  readonly next: VoiceActivityEvent[] = [];
  settings: DetectorSettings | undefined;
  create(settings: DetectorSettings, onEvent: (event: VoiceActivityEvent) => void, onJudged?: (atMs: number) => void) {
    this.settings = settings;
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

/** The call as barge-in sees it: what it did, in order, one line each. */
class RecordingCall implements BargeInPort {
  readonly did: string[] = [];
  readonly told: CallEvent[] = [];
  audio: BotAudio = 'interruptible';
  agentAttached = true;
  ended = false;
  botAudio() {
    return this.audio;
  }
  holdPlayback() {
    this.did.push('hold');
    return { confirmedMs: 100, estimatedMs: 180 };
  }
  resumePlayback() {
    this.did.push('resume');
    return 100;
  }
  locate(positionMs: number) {
    return { utteranceId: 'u', offsetMs: positionMs };
  }
  stopSpeaking(cause: 'speech' | 'dtmf', decision: unknown) {
    this.did.push(`stop ${cause} ${JSON.stringify(decision ?? null)}`);
  }
  tell(event: CallEvent) {
    this.told.push(event);
  }
}

const ONE_DECISION: BargeInSettings = { mode: 'any', minSpeechMs: 250, onlyWhileBotSpeaking: true, suspect: 'off', policy: DEFAULT_BARGE_IN_POLICY, events: 1 };
const HOLDS: BargeInSettings = { ...ONE_DECISION, suspect: 'vad', events: 2 };

/** `vad` null: a call without voice activity detection. */
function setup(settings: BargeInSettings, vad: ScriptedVad | null = new ScriptedVad()) {
  const clock = new FakeClock(0);
  const call = new RecordingCall();
  const logged: string[] = [];
  const bargeIn = new CallBargeIn({ clock, vad: vad ?? undefined, settings, logger: { info: (_fields, message) => logged.push(message) } }, call);
  /** A frame of the caller's line ending at `atMs` of its audio, carrying `events`. */
  const hear = (atMs: number, ...events: VoiceActivityEvent[]) => {
    vad?.next.push(...events);
    bargeIn.heard(new Uint8Array(160).fill(MULAW_SILENCE), atMs);
  };
  /** Quiet caller audio from `fromMs` for `ms`. */
  const quiet = async (fromMs: number, ms: number) => {
    for (let atMs = fromMs + PHONE_FRAME_MS; atMs <= fromMs + ms; atMs += PHONE_FRAME_MS) {
      await clock.advance(PHONE_FRAME_MS);
      hear(atMs);
    }
  };
  return { bargeIn, call, clock, logged, hear, quiet };
}

const validationError = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return isApiError(error) ? error.code : 'not an ApiError';
  }
  return 'nothing thrown';
};

describe('CallBargeIn', () => {
  it('without holds, confirmed speech cuts at once; the agent hears speech_started', () => {
    const { call, hear } = setup(ONE_DECISION);
    hear(1250, { type: 'speech_started', onsetMs: 1000, atMs: 1250 });
    expect(call.told).toEqual([{ type: 'speech_started', onsetMs: 1000 }]);
    // barge_in_events=1: the cut carries no decision for the agent.
    expect(call.did).toEqual(['stop speech null']);
  });

  it('a protected text is not cut, and nothing is cut when nothing is outstanding', () => {
    const { call, hear, logged } = setup(ONE_DECISION);
    call.audio = 'protected';
    hear(300, { type: 'speech_started', onsetMs: 0, atMs: 300 });
    call.audio = 'none';
    hear(900, { type: 'speech_started', onsetMs: 600, atMs: 900 });
    expect(call.did).toEqual([]);
    expect(logged).toEqual(['barge-in ignored: non-interruptible utterance playing']);
  });

  it('keys cut only where the mode allows them; with hold events the cut says it was a key', () => {
    const speechOnly = setup({ ...ONE_DECISION, mode: 'speech' });
    speechOnly.bargeIn.key();
    expect(speechOnly.call.did).toEqual([]);
    const any = setup({ ...HOLDS, suspect: 'off' });
    any.bargeIn.key();
    expect(any.call.did).toEqual(['stop dtmf {"suspectId":null,"decidedBy":"dtmf","decisionMs":0}']);
  });

  it('a suspect holds the bot; a short sound resumes after the continuation window; the agent hears both', async () => {
    const { call, hear, quiet } = setup(HOLDS);
    hear(1010, { type: 'suspect_started', onsetMs: 1000, atMs: 1010 });
    expect(call.did).toEqual(['hold']);
    expect(call.told).toEqual([{ type: 'interruption_suspected', suspectId: 's1', onsetMs: 1000, at: { utteranceId: 'u', offsetMs: 100 } }]);
    await quiet(1010, 190);
    hear(1200, { type: 'suspect_ended', atMs: 1200, extentMs: 160 });
    await quiet(1200, CONTINUATION_MS);
    expect(call.did).toEqual(['hold', 'resume']);
    expect(call.told.at(-1)).toEqual({ type: 'resumed', suspectId: 's1', from: { utteranceId: 'u', offsetMs: 100 }, gapMs: 1200 + CONTINUATION_MS - 1010, reason: 'short' });
  });

  it('a key during a hold commits it; the call asks for the hold back when it stops', () => {
    const { bargeIn, call, hear } = setup(HOLDS);
    hear(1010, { type: 'suspect_started', onsetMs: 1000, atMs: 1010 });
    bargeIn.key();
    expect(call.did).toEqual(['hold', 'stop dtmf {"suspectId":"s1","decidedBy":"dtmf","decisionMs":0}']);
    expect(bargeIn.release()).toMatchObject({ confirmedMs: 100, estimatedMs: 180 });
    expect(bargeIn.release()).toBeUndefined();
  });

  it('nothing is held without interruptible audio, and nothing is decided once the call is ending', async () => {
    const { call, hear, quiet } = setup(HOLDS);
    call.audio = 'protected';
    hear(10, { type: 'suspect_started', onsetMs: 0, atMs: 10 });
    expect(call.did).toEqual([]);
    call.audio = 'interruptible';
    hear(400, { type: 'suspect_ended', atMs: 400, extentMs: 300 });
    hear(510, { type: 'suspect_started', onsetMs: 500, atMs: 510 });
    call.ended = true;
    await quiet(510, DEFAULT_BARGE_IN_POLICY.maxHoldMs + CONTINUATION_MS);
    expect(call.did).toEqual(['hold']);
  });

  it('verdicts need the opt-in and a live hold; a policy with short_max_ms above long_min_ms is refused', () => {
    const oneDecision = setup({ ...HOLDS, events: 1 });
    expect(validationError(() => oneDecision.bargeIn.verdict('s1', 'resume'))).toBe('validation_error');
    const { bargeIn, call } = setup(HOLDS);
    expect(validationError(() => bargeIn.verdict('s1', 'interrupt'))).toBe('validation_error');
    expect(validationError(() => bargeIn.configure({ shortMaxMs: 600 }))).toBe('validation_error');
    bargeIn.configure({ events: 1 });
    expect(validationError(() => bargeIn.verdict('s1', 'interrupt'))).toBe('validation_error');
    expect(call.did).toEqual([]);
  });

  it('with only_while_speaking off, a caller already talking when the bot starts cuts its first audio', async () => {
    const { bargeIn, call, hear } = setup({ ...ONE_DECISION, onlyWhileBotSpeaking: false });
    call.audio = 'none';
    hear(300, { type: 'speech_started', onsetMs: 0, atMs: 300 });
    expect(call.did).toEqual([]);
    call.audio = 'interruptible';
    bargeIn.turnStarted(320);
    bargeIn.turnAudible();
    await Promise.resolve();
    expect(call.did).toEqual(['stop speech null']);
  });

  it('tells the detector an onset matters only while a suspect could hold the bot or one is held', async () => {
    const vad = new ScriptedVad();
    const { bargeIn, call, hear, quiet } = setup(HOLDS, vad);
    const matters = () => vad.settings!.onsetMatters!();
    expect(matters()).toBe(true);
    call.audio = 'protected';
    expect(matters()).toBe(false);
    call.audio = 'none';
    expect(matters()).toBe(false);
    call.audio = 'interruptible';
    hear(1010, { type: 'suspect_started', onsetMs: 1000, atMs: 1010 });
    expect(call.did).toEqual(['hold']);
    // Held: the span goes on deciding the hold, whatever the bot's audio says meanwhile.
    call.audio = 'none';
    expect(matters()).toBe(true);
    call.audio = 'interruptible';
    await quiet(1010, 190);
    hear(1200, { type: 'suspect_ended', atMs: 1200, extentMs: 160 });
    await quiet(1200, CONTINUATION_MS);
    expect(call.did).toEqual(['hold', 'resume']);
    expect(matters()).toBe(true);
    // Holds off (one decision): only confirmed speech cuts, the staggered stream is never needed.
    bargeIn.configure({ suspect: 'off' });
    expect(matters()).toBe(false);
    const oneDecision = new ScriptedVad();
    setup(ONE_DECISION, oneDecision);
    expect(oneDecision.settings!.onsetMatters!()).toBe(false);
  });

  it('while a noisy line makes it back off, an onset does not matter until a hold begins', async () => {
    const vad = new ScriptedVad();
    const { call, hear, quiet } = setup(HOLDS, vad);
    let atMs = 0;
    // Three short sounds that resume within the back-off window.
    for (let i = 0; i < 3; i++) {
      hear(atMs + 10, { type: 'suspect_started', onsetMs: atMs, atMs: atMs + 10 });
      await quiet(atMs + 10, 100);
      hear(atMs + 120, { type: 'suspect_ended', atMs: atMs + 120, extentMs: 60 });
      await quiet(atMs + 120, CONTINUATION_MS);
      atMs += 120 + CONTINUATION_MS;
    }
    expect(call.did).toEqual(['hold', 'resume', 'hold', 'resume', 'hold', 'resume']);
    expect(vad.settings!.onsetMatters!()).toBe(false);
    // Confirmed speech still holds, and then the span matters again.
    hear(atMs + 300, { type: 'speech_started', onsetMs: atMs, atMs: atMs + 300 });
    expect(call.did.at(-1)).toBe('hold');
    expect(vad.settings!.onsetMatters!()).toBe(true);
  });

  it('without a VAD it hears nothing and gives the playback no echo gate; keys still cut', () => {
    const { bargeIn, call } = setup(HOLDS, null);
    expect(bargeIn.echoGate).toBeUndefined();
    expect(bargeIn.holdsPossible).toBe(false);
    bargeIn.key();
    expect(call.did).toEqual(['stop dtmf {"suspectId":null,"decidedBy":"dtmf","decisionMs":0}']);
  });
});
