// The hold state machine on an injected clock: what each kind of caller sound decides, when, and that nothing is
// decided twice or while the caller is still talking.

import { describe, expect, it } from 'vitest';
import { BargeInController, DEFAULT_BARGE_IN_POLICY, type BargeInPolicy } from '../../../src/session/barge-in-controller.js';
import { FakeClock } from '../../helpers/fake-clock.js';

function setup(policy: Partial<BargeInPolicy> = {}, options: { canHold?: boolean; verdicts?: boolean } = {}) {
  /** Set by a test: the caller's audio is not all judged yet. */
  const audio = { behind: false };
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
      audioBehind: () => audio.behind,
    },
    () => options.verdicts ?? false,
  );
  return { clock, log, controller, policy: current, audio };
}

describe('BargeInController', () => {
  it('holds on a suspect and resumes when the sound ends short', async () => {
    const { clock, log, controller } = setup();
    controller.suspectStarted(1000);
    await clock.advance(100);
    controller.suspectEnded(160);
    expect(log).toEqual(['hold s1 onset=1000 at=0', 'resume s1 short at=100']);
    expect(controller.held).toBeUndefined();
    expect(clock.pendingTimers).toBe(0);
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

  it('the ambiguous band: the policy decides at once without verdicts (interrupt by default, or resume)', () => {
    const interrupt = setup();
    interrupt.controller.suspectStarted(0);
    interrupt.controller.suspectEnded(300);
    expect(interrupt.log.at(-1)).toBe('commit s1 policy at=0');
    const resume = setup({ ambiguousDefault: 'resume' });
    resume.controller.suspectStarted(0);
    resume.controller.suspectEnded(300);
    expect(resume.log.at(-1)).toBe('resume s1 policy at=0');
  });

  it('ambiguous_default=speech: the band interrupts only a sound the VAD confirmed as speech during the hold', () => {
    const unconfirmed = setup({ ambiguousDefault: 'speech' });
    unconfirmed.controller.suspectStarted(0);
    unconfirmed.controller.suspectEnded(300);
    expect(unconfirmed.log.at(-1)).toBe('resume s1 policy at=0');
    const confirmed = setup({ ambiguousDefault: 'speech' });
    confirmed.controller.suspectStarted(0);
    confirmed.controller.speechConfirmed();
    confirmed.controller.suspectEnded(300);
    expect(confirmed.log.at(-1)).toBe('commit s1 policy at=0');
    // A confirmation belongs to its hold: the next sound starts unconfirmed.
    confirmed.controller.speechConfirmed();
    confirmed.controller.suspectStarted(1000);
    confirmed.controller.suspectEnded(300);
    expect(confirmed.log.at(-1)).toBe('resume s2 policy at=0');
    // Short sounds still resume and long ones still commit, confirmed or not.
    const short = setup({ ambiguousDefault: 'speech' });
    short.controller.suspectStarted(0);
    short.controller.speechConfirmed();
    short.controller.suspectEnded(200);
    expect(short.log.at(-1)).toBe('resume s1 short at=0');
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

    const unanswered = setup({}, { verdicts: true });
    unanswered.controller.suspectStarted(0);
    unanswered.controller.suspectEnded(120);
    await unanswered.clock.advance(400);
    expect(unanswered.log.at(-1)).toBe('resume s1 short at=400');
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
    expect(second.log.at(-1)).toBe('resume s1 verdict at=300');
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

  it('never resumes while the caller is talking again: a second span keeps the hold, their speech adds up', async () => {
    const { clock, log, controller } = setup();
    controller.suspectStarted(0);
    controller.suspectEnded(150);
    // That resumed (short); a new hold starts with the next sound.
    controller.suspectStarted(400);
    await clock.advance(10);
    controller.suspectEnded(100);
    expect(log).toEqual(['hold s1 onset=0 at=0', 'resume s1 short at=0', 'hold s2 onset=400 at=0', 'resume s2 short at=10']);
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

  it('the hold limit waits for a VAD that is behind: a sound that turns out to have ended resumes; it waits at most one more limit', async () => {
    const lagging = setup({ maxHoldMs: 1500 });
    lagging.audio.behind = true;
    lagging.controller.suspectStarted(0);
    await lagging.clock.advance(1500);
    expect(lagging.log).toEqual(['hold s1 onset=0 at=0']);
    // The VAD catches up: the filler had ended short.
    lagging.audio.behind = false;
    lagging.controller.suspectEnded(200);
    expect(lagging.log.at(-1)).toBe('resume s1 short at=1500');
    expect(lagging.clock.pendingTimers).toBe(0);

    const caughtUp = setup({ maxHoldMs: 1500 });
    caughtUp.audio.behind = true;
    caughtUp.controller.suspectStarted(0);
    await caughtUp.clock.advance(1500);
    caughtUp.audio.behind = false;
    // Caught up and the caller is still talking: the next look commits.
    await caughtUp.clock.advance(32);
    expect(caughtUp.log.at(-1)).toBe('commit s1 timeout at=1532');

    const stuck = setup({ maxHoldMs: 1500 });
    stuck.audio.behind = true;
    stuck.controller.suspectStarted(0);
    await stuck.clock.advance(2999);
    expect(stuck.log).toEqual(['hold s1 onset=0 at=0']);
    // Never more than one more limit: a line whose audio stopped does not hold the bot for ever.
    await stuck.clock.advance(40);
    expect(stuck.log.at(-1)).toMatch(/^commit s1 timeout at=30\d\d$/);
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
      await clock.advance(100);
    }
    expect(controller.backingOff).toBe(true);
    controller.endBackoff();
    expect(controller.backingOff).toBe(false);
    controller.suspectStarted(900);
    expect(log.at(-1)).toBe('hold s4 onset=900 at=300');
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
