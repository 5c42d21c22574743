// What this process's admission holds (raaga_admission_held): a ticket's slot lease counts until it is released,
// its credit reservation until it is settled, each once however often its holder gives it back; a refusal holds
// nothing; the gauge reads the counts at scrape time. The soak bench (bench/soak.ts) expects zero once calls end.

import { beforeEach, describe, expect, it } from 'vitest';
import { Admission } from '../../../src/core/admission.js';
import { PrometheusMetrics } from '../../../src/metrics/prometheus-metrics.js';
import { SqliteStore } from '../../../src/store/sqlite-store.js';
import type { Account } from '../../../src/store/store.js';
import { sampleValue } from '../../helpers/metrics.js';

const USAGE = { keyId: null, endpoint: 'call', voice: 'priya', language: 'hi-IN' } as const;
const REPORT = { engine: 'espeak', audioSeconds: 1, outcome: 'completed' } as const;

let store: SqliteStore;
let admission: Admission;
let account: Account;

beforeEach(async () => {
  store = new SqliteStore();
  admission = new Admission(store, { slotLeaseMs: 30_000, reservationTtlMs: 900_000 });
  // developer: 3 concurrent slots.
  account = await store.createAccount({ plan: 'developer', credits: 100 });
});

describe('Admission.held', () => {
  it("counts a ticket's slot until it is released and its reservation until it is settled, once each", async () => {
    expect(admission.held()).toEqual({ slots: 0, reservations: 0 });
    const session = await admission.admit({ account, countRate: false, takeSlot: true, credits: 0 });
    const utterance = await admission.admit({ account, countRate: true, takeSlot: false, credits: 40, usage: USAGE });
    expect(admission.held()).toEqual({ slots: 1, reservations: 1 });
    await utterance.settle(25, REPORT);
    await utterance.finish();
    expect(admission.held()).toEqual({ slots: 1, reservations: 0 });
    await session.release();
    await session.finish();
    expect(admission.held()).toEqual({ slots: 0, reservations: 0 });
    expect((await store.getAccount(account.id))!.credits).toBe(75);
  });

  it('holds nothing for a refused admission', async () => {
    await expect(admission.admit({ account, countRate: true, takeSlot: true, credits: 500, usage: USAGE })).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(admission.held()).toEqual({ slots: 0, reservations: 0 });
  });

  it('gives a reservation back when its settlement fails (the store expires it uncharged)', async () => {
    const ticket = await admission.admit({ account, countRate: false, takeSlot: true, credits: 10, usage: USAGE });
    await store.close();
    await expect(ticket.finish(10, REPORT)).rejects.toThrow();
    expect(admission.held()).toEqual({ slots: 0, reservations: 0 });
  });
});

describe('raaga_admission_held', () => {
  it('reads the counts at each scrape, by kind', async () => {
    const calls = { live: 2 };
    const metrics = new PrometheusMetrics({
      admissionHeld: () => ({ callSlots: calls.live, concurrencySlots: admission.held().slots, creditReservations: admission.held().reservations }),
    });
    const ticket = await admission.admit({ account, countRate: false, takeSlot: true, credits: 10, usage: USAGE });
    const read = async () => {
      const text = (await metrics.render()).body;
      return ['call_slot', 'concurrency_slot', 'credit_reservation'].map((kind) => sampleValue(text, `raaga_admission_held{kind="${kind}"}`));
    };
    expect(await read()).toEqual([2, 1, 1]);
    await ticket.finish(3, REPORT);
    calls.live = 0;
    expect(await read()).toEqual([0, 0, 0]);
  });
});
