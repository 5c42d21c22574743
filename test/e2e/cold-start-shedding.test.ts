// A cold start with the real lag monitor and the real threshold (TELEPHONY_SHED_LAG_MS=40): the compiled server is
// frozen over and over (SIGSTOP/SIGCONT, as a host that steals the CPU) from spawn until it listens, so its loop lags
// far over the threshold all through start-up; the first /readyz is ready and the first call and its media are taken.

import { mkdtemp, rm } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { CallPeer } from '../../src/sim/call-peer.js';
import { fetchStreamInstruction } from '../../src/sim/dialects/twilio-voice-webhook-client.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { startServerProcess } from '../helpers/server-process.js';

const AUTH_TOKEN = 'f00dfeedf00dfeedf00dfeedf00dfeed';
/** Each freeze delays the loop's 10 ms tick by about this much: more than twice the threshold. */
const FROZEN_MS = 100;
const RUNNING_MS = 100;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Stops and continues a process in turns until `thaw()`, which resolves once it runs again. */
class Freezer {
  #frozen = false;
  #thawing = false;
  #thawed: (() => void) | undefined;
  freezes = 0;

  constructor(readonly child: ChildProcess) {
    this.#freeze();
  }

  thaw(): Promise<void> {
    this.#thawing = true;
    return this.#frozen ? new Promise((resolve) => (this.#thawed = resolve)) : Promise.resolve();
  }

  #freeze(): void {
    if (this.#thawing || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGSTOP');
    this.#frozen = true;
    this.freezes++;
    setTimeout(() => {
      this.child.kill('SIGCONT');
      this.#frozen = false;
      this.#thawed?.();
      setTimeout(() => this.#freeze(), RUNNING_MS);
    }, FROZEN_MS);
  }
}

it('a start-up that lagged far over TELEPHONY_SHED_LAG_MS sheds no call: the first /readyz is ready, the first call and its media are taken', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'raaga-cold-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // An account with Twilio credentials, in the store the server opens: webhooks and media are signed as Twilio does.
  const store = await SqliteStore.open({ dataDir });
  const account = await store.createAccount({ plan: 'growth', credits: 100_000 });
  await store.putTelephonySettings({ accountId: account.id, credentials: { twilioAuthToken: AUTH_TOKEN }, updatedAtMs: 1 });
  await store.close();

  let freezer: Freezer | undefined;
  const server = await startServerProcess(
    // The real threshold (the helper turns shedding off), and the info log that says when shedding starts.
    { RAAGA_DATA_DIR: dataDir, TELEPHONY_SHED_LAG_MS: '40', LOG_LEVEL: 'info' },
    { startTimeoutMs: 90_000, onSpawn: (child) => (freezer = new Freezer(child)) },
  );
  cleanups.push(server.kill);
  await freezer!.thaw();
  expect(freezer!.freezes).toBeGreaterThanOrEqual(2);

  // The first request after listening: ready, not shedding.
  const ready = await fetch(`${server.url}/readyz`);
  expect(await ready.json()).toMatchObject({ status: 'ready', checks: { engine: 'ready', shedding_calls: false } });
  expect(ready.status).toBe(200);

  // The first call: Twilio's voice webhook answers <Connect><Stream> (a shedding server answers <Reject reason="busy"/>).
  const instruction = await fetchStreamInstruction({ url: `${server.url}/v1/telephony/twilio/voice/${account.id}?greeting=Namaste`, authToken: AUTH_TOKEN });
  expect(instruction.twiml).toContain('<Connect');
  expect(instruction.twiml).not.toContain('<Reject');
  // Its media upgrade takes a call slot (a shedding server answers the upgrade 503), and the caller hears the greeting.
  const peer = await CallPeer.connect({
    url: instruction.streamUrl,
    callSid: instruction.params.CallSid!,
    customParameters: instruction.parameters,
    signature: { authToken: AUTH_TOKEN },
  });
  await peer.waitFor('first_media_in', 20_000);
  await peer.stop();

  // The loop did lag over the threshold before listening (prom-client's own monitor, enabled in buildDeps, not
  // reset before this first scrape), and shedding never began.
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  const lagMaxS = Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(metrics)?.[1]);
  expect(lagMaxS).toBeGreaterThanOrEqual(0.04);
  expect(server.output()).not.toContain('shedding load');
  expect(metrics).not.toMatch(/^raaga_call_refusals_total\{.*\} [1-9]/m);
});
