// The hold state machine on an injected clock (the caller's audio, as a call gives it): what each kind of caller sound
// decides, when, and that nothing is decided twice or while the caller is still talking.

import { describe, expect, it } from 'vitest';
import { BargeInController, CONTINUATION_MS, DEFAULT_BARGE_IN_POLICY, LINE_STALL_MS, type BargeInPolicy } from '../../../../src/session/barge-in/barge-in-controller.js';
import { FakeClock } from '../../../helpers/fake-clock.js';

function setup(policy: Partial<BargeInPolicy> = {}, options: { canHold?: boolean; verdicts?: boolean } = {}) {
  /** Real time, and when the line last sent audio on it: the watch for a dead line. */
  const real = new FakeClock(0);
  const line = { lastAudioAtMs: 0 };
  const clock = new FakeClock(0);
  const log: string[] = [];
  const current = { ...DEFAULT_BARGE_IN_POLICY, ...policy };
  const controller = new BargeInController(
    clock,
    () => current,
    {
      canHold: () => options.canHold ?? true,
      hold: (s) => log.push(`hold ${s.id} onset=${s.onsetMs} at=${s.heldAtMs}`),
      resume: (s, reason) => log.push(`resume ${s.id} ${reason} at=${clock.now()}`),
      commit: (s, cause) => log.push(`commit ${s.id} ${cause} at=${clock.now()}`),
    },
    () => options.verdicts ?? false,
    { clock: real, quietForMs: () => real.now() - line.lastAudioAtMs },
  );
  return { clock, log, controller, policy: current, real, line };
}

describe('BargeInController', () => {
  it('holds on a suspect and resumes once the caller has stayed quiet after a short sound', async () => {
    const { clock, log, controller } = setup();
    controller.suspectStarted(1000);
    await clock.advance(100);
    controller.suspectEnded(160);
    // Short: it resumes, but only after CONTINUATION_MS of quiet (the caller may be going on).
    await clock.advance(CONTINUATION_MS - 1);
    expect(log).toEqual(['hold s1 onset=1000 at=0']);
    await clock.advance(1);
    expect(log).toEqual(['hold s1 onset=1000 at=0', `resume s1 short at=${100 + CONTINUATION_MS}`]);
    expect(controller.held).toBeUndefined();
    expect(clock.pendingTimers).toBe(0);
  });

  it('a caller who pauses and goes on: speech within the continuation window continues the same hold, adding up', async () => {
    const { clock, log, controller } = setup();
    // "stop" (200 ms, short), a 400 ms pause, "I want to talk to an agent": one hold, never resumed, committed.
    controller.suspectStarted(0);
    await clock.advance(330);
    controller.suspectEnded(200);
    await clock.advance(CONTINUATION_MS - 100);
    controller.suspectStarted(800);
    await clock.advance(500);
    controller.suspectLong();
    expect(log).toEqual(['hold s1 onset=0 at=0', `commit s1 duration at=${330 + CONTINUATION_MS - 100 + 500}`]);

    // Two short sounds within the window are one sound: 150 + 150 ms is in the band, as one 300 ms sound is.
    const twice = setup();
    twice.controller.suspectStarted(0);
    twice.controller.suspectEnded(150);
    await twice.clock.advance(300);
    twice.controller.suspectStarted(450);
    twice.controller.suspectEnded(150);
    expect(twice.log).toEqual(['hold s1 onset=0 at=0', 'commit s1 policy at=300']);

    // A sound after the window is a new hold: the bot had resumed.
    const later = setup();
    later.controller.suspectStarted(0);
    later.controller.suspectEnded(150);
    await later.clock.advance(CONTINUATION_MS);
    later.controller.suspectStarted(2000);
    later.controller.suspectEnded(150);
    await later.clock.advance(CONTINUATION_MS);
    expect(later.log).toEqual([
      'hold s1 onset=0 at=0',
      `resume s1 short at=${CONTINUATION_MS}`,
      `hold s2 onset=2000 at=${CONTINUATION_MS}`,
      `resume s2 short at=${2 * CONTINUATION_MS}`,
    ]);
  });

  it('commits on long speech while the caller is still talking', async () => {
    const { clock, log, controller } = setup();
    controller.suspectStarted(0);
    await clock.advance(500);
    controller.suspectLong();
    // The end of the same speech decides nothing more.
    controller.suspectEnded(900);
    expect(log).toEqual(['hold s1 onset=0 at=0', 'commit s1 duration at=500']);
  });

  it('the ambiguous band: the policy decides without verdicts (interrupt at once by default, or resume after the window)', async () => {
    const interrupt = setup();
    interrupt.controller.suspectStarted(0);
    interrupt.controller.suspectEnded(300);
    expect(interrupt.log.at(-1)).toBe('commit s1 policy at=0');
    const resume = setup({ ambiguousDefault: 'resume' });
    resume.controller.suspectStarted(0);
    resume.controller.suspectEnded(300);
    await resume.clock.advance(CONTINUATION_MS);
    expect(resume.log.at(-1)).toBe(`resume s1 policy at=${CONTINUATION_MS}`);
  });

  it('ambiguous_default=speech: the band interrupts only a sound the VAD confirmed as speech during the hold', async () => {
    const unconfirmed = setup({ ambiguousDefault: 'speech' });
    unconfirmed.controller.suspectStarted(0);
    unconfirmed.controller.suspectEnded(300);
    await unconfirmed.clock.advance(CONTINUATION_MS);
    expect(unconfirmed.log.at(-1)).toBe(`resume s1 policy at=${CONTINUATION_MS}`);
    const confirmed = setup({ ambiguousDefault: 'speech' });
    confirmed.controller.suspectStarted(0);
    confirmed.controller.speechConfirmed();
    confirmed.controller.suspectEnded(300);
    expect(confirmed.log.at(-1)).toBe('commit s1 policy at=0');
    // A confirmation belongs to its hold: the next sound starts unconfirmed.
    confirmed.controller.speechConfirmed();
    confirmed.controller.suspectStarted(1000);
    confirmed.controller.suspectEnded(300);
    await confirmed.clock.advance(CONTINUATION_MS);
    expect(confirmed.log.at(-1)).toBe(`resume s2 policy at=${CONTINUATION_MS}`);
    // Short sounds still resume and long ones still commit, confirmed or not.
    const short = setup({ ambiguousDefault: 'speech' });
    short.controller.suspectStarted(0);
    short.controller.speechConfirmed();
    short.controller.suspectEnded(200);
    await short.clock.advance(CONTINUATION_MS);
    expect(short.log.at(-1)).toBe(`resume s1 short at=${CONTINUATION_MS}`);
  });

  it('with verdicts, the band waits for the agent until the deadline, then applies the policy', async () => {
    const { clock, log, controller } = setup({}, { verdicts: true });
    controller.suspectStarted(0);
    controller.suspectEnded(300);
    await clock.advance(399);
    expect(log).toEqual(['hold s1 onset=0 at=0']);
    await clock.advance(1);
    expect(log.at(-1)).toBe('commit s1 policy at=400');
    expect(controller.verdict('s1', 'resume')).toBe('too_late');
  });

  it('with verdicts, a short sound waits for the agent too: a short "no" can still commit; silence resumes it', async () => {
    const asked = setup({}, { verdicts: true });
    asked.controller.suspectStarted(0);
    asked.controller.suspectEnded(120);
    expect(asked.log).toEqual(['hold s1 onset=0 at=0']);
    await asked.clock.advance(150);
    asked.controller.verdict('s1', 'interrupt');
    expect(asked.log.at(-1)).toBe('commit s1 verdict at=150');

    // At the deadline the length decides; the resume still waits out the continuation window from the sound's end.
    const unanswered = setup({}, { verdicts: true });
    unanswered.controller.suspectStarted(0);
    unanswered.controller.suspectEnded(120);
    await unanswered.clock.advance(400);
    expect(unanswered.log).toEqual(['hold s1 onset=0 at=0']);
    await unanswered.clock.advance(CONTINUATION_MS - 400);
    expect(unanswered.log.at(-1)).toBe(`resume s1 short at=${CONTINUATION_MS}`);
  });

  it('a verdict decides a hold: interrupt at once, resume only once the caller has stopped talking', async () => {
    const first = setup({}, { verdicts: true });
    first.controller.suspectStarted(0);
    expect(first.controller.verdict('s1', 'interrupt')).toBe('applied');
    expect(first.log.at(-1)).toBe('commit s1 verdict at=0');

    const second = setup({}, { verdicts: true });
    second.controller.suspectStarted(0);
    await second.clock.advance(50);
    // The caller is still talking: the resume waits for the end of the speech.
    expect(second.controller.verdict('s1', 'resume')).toBe('deferred');
    expect(second.log).toEqual(['hold s1 onset=0 at=0']);
    await second.clock.advance(250);
    second.controller.suspectEnded(300);
    await second.clock.advance(CONTINUATION_MS);
    expect(second.log.at(-1)).toBe(`resume s1 verdict at=${300 + CONTINUATION_MS}`);
    // A verdict for another suspect, or after the outcome, is too late.
    expect(second.controller.verdict('s9', 'interrupt')).toBe('too_late');
  });

  it('a resume verdict is overruled when the speech turns out long', () => {
    const { log, controller } = setup({}, { verdicts: true });
    controller.suspectStarted(0);
    controller.verdict('s1', 'resume');
    controller.suspectLong();
    expect(log.at(-1)).toBe('commit s1 duration at=0');
  });


  it('speech in two spans inside one hold: the total decides', async () => {
    const { clock, log, controller } = setup({}, { verdicts: true });
    controller.suspectStarted(1000);
    controller.suspectEnded(300);
    // Held in the band, waiting for a verdict; the caller starts again before the deadline.
    await clock.advance(100);
    controller.suspectStarted(1400);
    // The deadline no longer runs: the caller is talking.
    await clock.advance(400);
    expect(log).toEqual(['hold s1 onset=1000 at=0']);
    controller.suspectEnded(250);
    // 300 + 250 ms of speech: long.
    expect(log.at(-1)).toBe('commit s1 duration at=500');
  });

  it('the hold limit: speech still going commits, a hold waiting on a verdict gets the policy', async () => {
    const talking = setup({ maxHoldMs: 1500 });
    talking.controller.suspectStarted(0);
    await talking.clock.advance(1500);
    expect(talking.log.at(-1)).toBe('commit s1 timeout at=1500');

    const waiting = setup({ maxHoldMs: 600, verdictDeadlineMs: 2000, ambiguousDefault: 'resume' }, { verdicts: true });
    waiting.controller.suspectStarted(0);
    waiting.controller.suspectEnded(300);
    await waiting.clock.advance(600);
    expect(waiting.log.at(-1)).toBe('resume s1 policy at=600');
    expect(waiting.clock.pendingTimers).toBe(0);
  });

  it('the hold limit counts caller audio: real time passing without audio decides nothing until the line is dead', async () => {
    // The VAD lags or the frames stall: the caller's clock stands still, and so does the limit, whatever real time does.
    const lagging = setup({ maxHoldMs: 1500 });
    lagging.controller.suspectStarted(0);
    lagging.line.lastAudioAtMs = 1900;
    await lagging.real.advance(LINE_STALL_MS - 1);
    expect(lagging.log).toEqual(['hold s1 onset=0 at=0']);
    // The audio is judged: the filler had ended short.
    await lagging.clock.advance(400);
    lagging.controller.suspectEnded(200);
    await lagging.clock.advance(CONTINUATION_MS);
    expect(lagging.log.at(-1)).toBe(`resume s1 short at=${400 + CONTINUATION_MS}`);
    expect(lagging.clock.pendingTimers).toBe(0);
    expect(lagging.real.pendingTimers).toBe(0);

    // A line that sends nothing at all for LINE_STALL_MS of real time: decided as the limit would (still speaking).
    const dead = setup({ maxHoldMs: 1500 });
    dead.controller.suspectStarted(0);
    dead.line.lastAudioAtMs = 500;
    await dead.real.advance(LINE_STALL_MS);
    expect(dead.log).toEqual(['hold s1 onset=0 at=0']);
    await dead.real.advance(499);
    expect(dead.log).toEqual(['hold s1 onset=0 at=0']);
    await dead.real.advance(1);
    expect(dead.log.at(-1)).toBe('commit s1 timeout at=0');
    expect(dead.real.pendingTimers).toBe(0);
  });

  it('a key commits a hold at once; without a hold it leaves the cut to the caller', () => {
    const { log, controller } = setup();
    expect(controller.dtmf()).toBe(false);
    controller.suspectStarted(0);
    expect(controller.dtmf()).toBe(true);
    expect(log.at(-1)).toBe('commit s1 dtmf at=0');
  });

  it('nothing to hold: no hold, and the later events of that sound decide nothing', () => {
    const { log, controller } = setup({}, { canHold: false });
    controller.suspectStarted(0);
    controller.suspectLong();
    controller.suspectEnded(700);
    expect(log).toEqual([]);
  });

  it('a noisy line backs off: after 3 resumes in 10 s only confirmed speech holds, for 30 s', async () => {
    const { clock, log, controller } = setup();
    for (let i = 0; i < 3; i++) {
      controller.suspectStarted(i * 1000);
      controller.suspectEnded(100);
      await clock.advance(1000);
    }
    expect(controller.backingOff).toBe(true);
    const before = log.length;
    controller.suspectStarted(5000);
    controller.suspectEnded(100);
    expect(log.length).toBe(before);
    controller.suspectStarted(6000, true);
    expect(log.at(-1)).toBe('hold s4 onset=6000 at=3000');
    controller.suspectLong();
    await clock.advance(30_000);
    expect(controller.backingOff).toBe(false);
    controller.suspectStarted(40_000);
    expect(log.at(-1)).toBe('hold s5 onset=40000 at=33000');
  });

  it('endBackoff() ends a back-off at once (its cause, an unknown echo, is now handled)', async () => {
    const { clock, log, controller } = setup();
    for (let i = 0; i < 3; i++) {
      controller.suspectStarted(0);
      controller.suspectEnded(100);
      await clock.advance(CONTINUATION_MS);
    }
    expect(controller.backingOff).toBe(true);
    controller.endBackoff();
    expect(controller.backingOff).toBe(false);
    controller.suspectStarted(900);
    expect(log.at(-1)).toBe(`hold s4 onset=900 at=${3 * CONTINUATION_MS}`);
  });

  it('resumes spread over more than 10 s do not back off', async () => {
    const { clock, controller } = setup();
    for (let i = 0; i < 5; i++) {
      controller.suspectStarted(0);
      controller.suspectEnded(100);
      await clock.advance(5000);
    }
    expect(controller.backingOff).toBe(false);
  });

  it('drop() forgets a hold and its timers without deciding', async () => {
    const { clock, log, controller } = setup();
    controller.suspectStarted(0);
    controller.drop();
    await clock.advance(5000);
    expect(log).toEqual(['hold s1 onset=0 at=0']);
    expect(clock.pendingTimers).toBe(0);
  });
});
