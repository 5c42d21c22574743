// The engine's worker pool under pressure, on real eSpeak workers: queue bound, cancellation of queued and
// running jobs, replacement of a killed worker, start failure and close.

import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadVoiceCatalog } from '../../../src/core/voice-catalog.js';
import { EspeakEngine } from '../../../src/engine/espeak-engine.js';
import { EngineBusyError, EngineUnavailableError, type SynthesisJob } from '../../../src/engine/tts-engine.js';
import { WorkerPool, type WorkerPoolEvent } from '../../../src/engine/worker-pool.js';
import { LONG_HINDI, SENTENCES } from './sentences.js';

const catalog = loadVoiceCatalog(new URL('../../../models/raaga-v1/manifest.json', import.meta.url).pathname);
const job = (text: string = SENTENCES['hi-IN']): SynthesisJob => ({ text, language: 'hi-IN', voiceName: 'meera', speed: 1, pitchShiftSemitones: 0 });
const never = () => new AbortController().signal;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((engine) => engine.close()));
});

/** The pool's events in order, and a promise for the first one to match (no polling, no clock). */
class EventLog {
  readonly events: WorkerPoolEvent[] = [];
  private readonly waiters = new Set<() => void>();

  readonly push = (event: WorkerPoolEvent): void => {
    this.events.push(event);
    for (const check of [...this.waiters]) check();
  };

  until(predicate: (event: WorkerPoolEvent, index: number) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (!this.events.some(predicate)) return;
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
      check();
    });
  }
}

async function startEngine(workers: number, maxQueue: number, log = new EventLog()): Promise<EspeakEngine> {
  const engine = new EspeakEngine({ workers, maxQueue, voices: catalog.embeddedVoices(), onEvent: log.push });
  open.push(engine);
  await engine.start();
  return engine;
}

/** Each thread of this process and its nice value (Linux /proc: field 19 of each task's stat). */
function threadNiceValues(): Map<string, number> {
  return new Map(
    readdirSync('/proc/self/task').map((tid) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    }),
  );
}

describe('worker pool', () => {
  it.runIf(process.platform === 'linux')('runs its workers at the nice value asked for, and leaves every other thread alone', async () => {
    const before = threadNiceValues();
    // A nice-7 thread gets a fifth of a busy core's share: on a loaded machine its start can outlast the default
    // 30 s bound, which only catches hangs, so this test allows more (and so does its own timeout).
    const engine = new EspeakEngine({ workers: 2, maxQueue: 4, voices: catalog.embeddedVoices(), niceness: 7, startTimeoutMs: 150_000 });
    open.push(engine);
    await engine.start();
    const after = threadNiceValues();
    // Each worker thread, and any thread it starts (from the sources, tsx's module-hooks thread), runs at 7.
    const started = [...after].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
    expect(started.length).toBeGreaterThanOrEqual(2);
    expect(new Set(started)).toEqual(new Set([7]));
    for (const [tid, nice] of before) if (after.has(tid)) expect(after.get(tid)).toBe(nice);
    expect((await engine.synthesize(job(), never())).samples.length).toBeGreaterThan(0);
  }, 180_000);

  it('refuses the job beyond running + maxQueue with EngineBusyError, at once', async () => {
    const engine = await startEngine(1, 2);
    const accepted = [engine.synthesize(job(), never()), engine.synthesize(job(), never()), engine.synthesize(job(), never())];
    expect(engine.load()).toEqual({ queued: 2, running: 1, workers: 1 });
    await expect(engine.synthesize(job(), never())).rejects.toBeInstanceOf(EngineBusyError);
    const clips = await Promise.all(accepted);
    expect(clips.every((clip) => clip.samples.length > 0)).toBe(true);
    expect(engine.load()).toEqual({ queued: 0, running: 0, workers: 1 });
  });

  it('drops an aborted queued job at once; it never reaches a worker', async () => {
    const engine = await startEngine(1, 4);
    const running = engine.synthesize(job(LONG_HINDI), never());
    const controller = new AbortController();
    const queued = engine.synthesize(job(), controller.signal);
    expect(engine.load().queued).toBe(1);
    let runningSettled = false;
    void running.finally(() => (runningSettled = true));
    controller.abort('client-cancel');
    await expect(queued).rejects.toBe('client-cancel');
    // "At once": the aborted job settles before the long job ahead of it, which still runs.
    expect(runningSettled).toBe(false);
    expect(engine.load()).toEqual({ queued: 0, running: 1, workers: 1 });
    await running;
    // Had the aborted job been dispatched, the worker would still be busy with it now.
    expect(engine.load()).toEqual({ queued: 0, running: 0, workers: 1 });
  });

  it('rejects an aborted running job at once and keeps the worker for the next job', async () => {
    const engine = await startEngine(1, 4);
    const controller = new AbortController();
    const running = engine.synthesize(job(LONG_HINDI), controller.signal);
    const next = engine.synthesize(job(), never());
    const reason = new Error('barge-in');
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    // The worker finishes its clause, drops it and takes the queued job.
    expect((await next).samples.length).toBeGreaterThan(0);
  });

  it('rejects with the reason when the signal is already aborted', async () => {
    const engine = await startEngine(1, 1);
    await expect(engine.synthesize(job(), AbortSignal.abort('shutdown'))).rejects.toBe('shutdown');
  });

  it('replaces a killed worker; its running job fails with EngineUnavailableError and later jobs succeed', async () => {
    const log = new EventLog();
    const { events } = log;
    const engine = await startEngine(2, 8, log);
    const victim = engine.synthesize(job(LONG_HINDI), never());
    await engine.terminateWorkerForTest(0);
    await expect(victim).rejects.toBeInstanceOf(EngineUnavailableError);
    const exitAt = events.findIndex((e) => e.type === 'worker-exit' && e.slot === 0 && e.hadJob);
    expect(exitAt).toBeGreaterThan(0);
    await log.until((e, index) => e.type === 'worker-ready' && e.slot === 0 && index > exitAt);
    expect(engine.load().workers).toBe(2);
    const clips = await Promise.all([engine.synthesize(job(), never()), engine.synthesize(job(), never())]);
    expect(clips.every((clip) => clip.samples.length > 0)).toBe(true);
    expect(engine.isReady()).toBe(true);
  });

  it('idle() resolves once the clause a cancelled caller left running has finished, not before', async () => {
    const engine = await startEngine(1, 4);
    const controller = new AbortController();
    const running = engine.synthesize(job(LONG_HINDI), controller.signal);
    let idle = false;
    controller.abort('caller gone');
    const idled = engine.idle().then(() => (idle = true));
    await expect(running).rejects.toBe('caller gone');
    // The caller's answer came at once; the worker is still busy with the clause.
    expect(idle).toBe(false);
    expect(engine.load().running).toBe(1);
    await idled;
    expect(engine.load()).toEqual({ queued: 0, running: 0, workers: 1 });
    await engine.idle(); // nothing running: at once
  });

  it('close rejects queued and running jobs with EngineUnavailableError and refuses new ones', async () => {
    const engine = await startEngine(1, 4);
    const running = engine.synthesize(job(LONG_HINDI), never());
    const queued = engine.synthesize(job(), never());
    const outcomes = [expect(running).rejects.toThrow('engine closed'), expect(queued).rejects.toBeInstanceOf(EngineUnavailableError)];
    await engine.close();
    await Promise.all(outcomes);
    await expect(engine.synthesize(job(), never())).rejects.toBeInstanceOf(EngineUnavailableError);
    expect(engine.isReady()).toBe(false);
  });

  it('fails start and every job with EngineUnavailableError when no worker can load', async () => {
    const events: WorkerPoolEvent[] = [];
    const pool = new WorkerPool<string, string>({
      entry: new URL('./fixtures/failing-worker.ts', import.meta.url),
      workerData: {},
      size: 2,
      maxQueue: 4,
      onEvent: (event) => events.push(event),
    });
    open.push(pool);
    const started = pool.start();
    await expect(started).rejects.toBeInstanceOf(EngineUnavailableError);
    await expect(started).rejects.toThrow(/always fails to load/);
    expect(events.filter((e) => e.type === 'worker-start-failed').length).toBeGreaterThanOrEqual(2);
    await expect(pool.run('x', never())).rejects.toBeInstanceOf(EngineUnavailableError);
  });

  it('refuses jobs before start', async () => {
    const engine = new EspeakEngine({ workers: 1, maxQueue: 1 });
    open.push(engine);
    await expect(engine.synthesize(job(), never())).rejects.toBeInstanceOf(EngineUnavailableError);
    expect(engine.isReady()).toBe(false);
  });

  it("gives a call's clause the next free worker ahead of requests queued before it, and never refuses it for a full queue", async () => {
    const engine = await startEngine(1, 2);
    const done: string[] = [];
    const track = (name: string, promise: Promise<unknown>) => promise.then(() => done.push(name));
    const request = (owner: string): SynthesisJob => ({ ...job(), lane: { kind: 'request', owner } });
    const running = track('running', engine.synthesize(job(LONG_HINDI), never()));
    const queued = [track('big-1', engine.synthesize(request('acct_big'), never())), track('big-2', engine.synthesize(request('acct_big'), never()))];
    // The queue is full for requests...
    await expect(engine.synthesize(request('acct_small'), never())).rejects.toBeInstanceOf(EngineBusyError);
    // ...but a call's clause still gets in, and ahead of them.
    const callClause = track('call', engine.synthesize({ ...job(), lane: { kind: 'call', owner: 'acct_small' } }, never()));
    await Promise.all([running, ...queued, callClause]);
    expect(done).toEqual(['running', 'call', 'big-1', 'big-2']);
  });

  it('shares a busy worker between accounts one clause at a time', async () => {
    const engine = await startEngine(1, 8);
    const done: string[] = [];
    const request = (owner: string, name: string) =>
      engine.synthesize({ ...job(), lane: { kind: 'request', owner } }, never()).then(() => done.push(name));
    const running = engine.synthesize(job(LONG_HINDI), never());
    const all = [request('big', 'big-1'), request('big', 'big-2'), request('big', 'big-3'), request('small', 'small-1')];
    await Promise.all([running, ...all]);
    expect(done).toEqual(['big-1', 'small-1', 'big-2', 'big-3']);
  });
});
