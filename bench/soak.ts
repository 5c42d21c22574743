// Soak (issue 32, part 4; not in CI, and `npm run bench` runs it only when BENCH_ONLY names it): for
// BENCH_SOAK_MINUTES (default 30), phone calls start and end continuously at a steady level on every simulated
// provider, each reaching one server process as that provider does (src/sim/; Plivo twice: as Plivo and as Vobiz,
// each with its REST call control on a loopback stand-in), BENCH_SOAK_CALLS_PER_PROVIDER at a time (default 2).
// Each call is one of: a conversation the provider ends with stop, a barge-in (the caller talks over the bot), a
// transfer, a hangup by the agent, an agent whose WebSocket goes away mid-call (fallback, then hangup), a provider
// socket dropped without stop, and a provider gone half-open (silent, never closing; the stream watchdog ends it).
// TELEPHONY_MAX_CALLS is the steady level, and every 20-40 s a burst of calls fills the process and then has every
// provider refuse one call its own way (<Reject>, Plivo's busy hangup, a 503 upgrade, AudioSocket's hangup packet).
// Afterwards, once every call has ended: nothing held of admission (call slots, concurrency slots, credit
// reservations: raaga_admission_held), clock timers, active handles and the process's file descriptors back to the
// baseline taken before the calls, heap and RSS slopes over the run (least squares of a sample every ~10 s, MB per
// hour), and every account's credit balance change equal to the sum of its usage records (and to the credits the
// server counted charged). Prints the result as JSON and writes bench/results/soak.json; exits 1 when not clean.

import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CallerTrack } from '../src/sim/caller-audio.js';
import { CallerVoice } from '../src/sim/caller-speech.js';
import type { CallPeer } from '../src/sim/call-peer.js';
import { dialProvider, SIMULATED_PROVIDERS, type ProviderCredentials, type SimulatedProvider } from '../src/sim/dial-provider.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import type { TelephonySettings } from '../src/store/store.js';
import { seeded } from '../test/helpers/seeded-random.js';
import { startFakePlivoRest } from './lib/fake-plivo-rest.js';
import { census, slope, type Census } from './lib/process-census.js';
import { startRecordingAgent, type AgentCall } from './lib/recording-agent.js';
import { startServerProcess } from './lib/server-process.js';
import { round, summary, writeResult } from './lib/stats.js';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
const PER_PROVIDER = Number(process.env.BENCH_SOAK_CALLS_PER_PROVIDER ?? 2);
const SAMPLE_EVERY_MS = 10_000;
/**
 * After the last call, how long the server may take to let everything go: a call transferred by ending its stream
 * stays answerable for 30 s (media-stream.ts), a stream gone half-open ends at its 10 s watchdog.
 */
const SETTLE_MAX_MS = 90_000;
/** A slope is read after this share of the run: the first calls warm caches, JIT and pools. */
const WARM_UP_SHARE = 0.25;
const root = fileURLToPath(new URL('../', import.meta.url));
const random = seeded(Number(process.env.BENCH_SOAK_SEED ?? 32));
const between = (minMs: number, maxMs: number) => minMs + random() * (maxMs - minMs);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const startedAt = performance.now();
const elapsedS = () => (performance.now() - startedAt) / 1000;

const PROMPT =
  'नमस्ते, राग बैंक में आपका स्वागत है। आपकी कॉल हमारे लिए महत्वपूर्ण है। कृपया लाइन पर बने रहें, हमारा प्रतिनिधि जल्द ही आपसे बात करेगा। ' +
  'इस बीच आप हमारी वेबसाइट पर भी जानकारी देख सकते हैं।';
const REPLY = 'ठीक है, मैं आपकी मदद करता हूँ। एक पल रुकिए।';

// ---- providers, accounts and their credentials ------------------------------------------------------------------

/** Each provider's stored credentials (the settings' `credentials` map) and what its simulated side presents. */
const CREDENTIALS: Record<SimulatedProvider, { stored: Readonly<Record<string, string>>; credentials: ProviderCredentials }> = {
  twilio: { stored: { twilioAuthToken: 'soak-twilio-auth-token-0123456789' }, credentials: { twilioAuthToken: 'soak-twilio-auth-token-0123456789' } },
  exotel: { stored: { exotelCredentials: 'soak:exotel-secret-0123' }, credentials: { exotelCredentials: 'soak:exotel-secret-0123' } },
  plivo: { stored: { plivoAuthId: 'MASOAKSOAKSOAKSOAK01', plivoAuthToken: 'soak-plivo-token-0123456789' }, credentials: { plivoAuthToken: 'soak-plivo-token-0123456789' } },
  smartflo: { stored: { smartfloToken: 'sf_soak_0123456789abcdefghij' }, credentials: { smartfloToken: 'sf_soak_0123456789abcdefghij' } },
  asterisk: { stored: { asteriskCredentials: 'asterisk:soak-secret-0123' }, credentials: { asteriskCredentials: 'asterisk:soak-secret-0123' } },
  audiosocket: { stored: {}, credentials: {} },
};
const VOBIZ = { authId: 'MAVOBIZSOAKVOBIZ0001', authToken: 'soak-vobiz-token-0123456789' };

/** A line of calls: a provider reached through one account (Vobiz is Plivo's protocol on another REST host). */
interface Lane {
  readonly name: string;
  readonly provider: SimulatedProvider;
  readonly accountId: string;
  readonly credentials: ProviderCredentials;
}
const LANES: readonly Lane[] = [
  ...SIMULATED_PROVIDERS.map((provider) => ({ name: provider, provider, accountId: `acct_soak_${provider}`, credentials: CREDENTIALS[provider].credentials })),
  { name: 'vobiz', provider: 'plivo', accountId: 'acct_soak_vobiz', credentials: { plivoAuthToken: VOBIZ.authToken } },
];

const rest = await startFakePlivoRest({ plivo: { authId: CREDENTIALS.plivo.stored.plivoAuthId!, authToken: CREDENTIALS.plivo.credentials.plivoAuthToken! }, vobiz: VOBIZ });
const agent = await startRecordingAgent();
const CALL_SETTINGS = { agent_url: agent.url, barge_in: 'speech', language: 'hi-IN', fallback_message: 'माफ़ कीजिए, अभी कोई उपलब्ध नहीं है।' };

function storedSettings(lane: Lane): Partial<TelephonySettings> {
  if (lane.name === 'vobiz') return { credentials: { plivoAuthId: VOBIZ.authId, plivoAuthToken: VOBIZ.authToken, plivoApiBaseUrl: `${rest.url}/vobiz` } };
  if (lane.provider === 'plivo') return { credentials: { ...CREDENTIALS.plivo.stored, plivoApiBaseUrl: `${rest.url}/plivo` } };
  // AudioSocket carries no parameters: its calls take the account's defaults.
  if (lane.provider === 'audiosocket') return { defaults: CALL_SETTINGS };
  return { credentials: CREDENTIALS[lane.provider].stored };
}

const audioSocketLane = LANES.find((lane) => lane.provider === 'audiosocket')!;
/** Calls at a time: every lane's loops. */
const LEVEL = LANES.length * PER_PROVIDER;
const server = await startServerProcess({
  accountIds: LANES.map((lane) => lane.accountId),
  // A soak measures what calls leave behind, not admission: a noisy machine's lag must not shed its calls.
  // The limit is the steady level: the bursts below are refused by it.
  env: { AUDIOSOCKET_PORT: '0', AUDIOSOCKET_ACCOUNT: audioSocketLane.accountId, TELEPHONY_SHED_LAG_MS: '0', TELEPHONY_MAX_CALLS: String(LEVEL) },
  prepare: async (store) => {
    for (const lane of LANES) await store.putTelephonySettings({ accountId: lane.accountId, ...storedSettings(lane), updatedAtMs: Date.now() });
  },
});
const loadBefore = loadavg()[0] ?? NaN;

async function readCensus(): Promise<Census> {
  return census(server.pid, await server.metrics(), round(elapsedS(), 1));
}

/** Every account's balance, and its usage records' count and sum, read from the server's store as the CLI reads it. */
async function ledger(): Promise<Map<string, { balance: number; records: number; recordedCredits: number }>> {
  const store = await SqliteStore.open({ dataDir: server.dataDir });
  try {
    const out = new Map<string, { balance: number; records: number; recordedCredits: number }>();
    for (const lane of LANES) {
      const records = await store.listUsage(lane.accountId, { fromMs: 0, toMs: Date.now() + 60_000 });
      out.set(lane.accountId, {
        balance: (await store.getAccount(lane.accountId))!.credits,
        records: records.length,
        recordedCredits: records.reduce((sum, record) => sum + record.characters, 0),
      });
    }
    return out;
  } finally {
    await store.close();
  }
}

// ---- one call ---------------------------------------------------------------------------------------------------

const SCENARIOS = ['conversation', 'barge-in', 'transfer', 'provider-drop', 'barge-in', 'agent-drop', 'conversation', 'agent-hangup', 'provider-vanish'] as const;
type Scenario = (typeof SCENARIOS)[number];

interface CallOutcome {
  readonly lane: string;
  readonly scenario: Scenario;
  readonly ms: number;
  /** Refused by the process's call limit (a burst filled it), before any audio. */
  readonly refused?: true;
  /** What went wrong for the bench's own expectations (the leak checks come after), if anything. */
  readonly problem?: string;
}

const voice = await CallerVoice.start(join(root, 'models/raaga-v1/manifest.json'));
const interruption = await voice.say({ text: 'रुको, मुझे कुछ और पूछना है।', language: 'hi-IN' });
await voice.close();

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)))]).finally(() => clearTimeout(timer));
}

const say = (call: AgentCall, text: string) => call.socket.send(JSON.stringify({ type: 'text', text }));

/** Each provider's refusal as its side sees it: <Reject>, Plivo's busy hangup, a 503 upgrade (AudioSocket: below). */
const REFUSED = /rejected the call \(busy\)|hung up the call \(busy\)|Unexpected server response: 503/;

type Connected =
  | { readonly kind: 'up'; readonly peer: CallPeer; readonly callId: string; readonly call: AgentCall }
  | { readonly kind: 'refused' }
  | { readonly kind: 'failed'; readonly reason: string };

/** Dials a call on `lane` and waits until its agent has `call_started`, or sees it refused. */
async function connectCall(lane: Lane, caller?: CallerTrack): Promise<Connected> {
  let peer: CallPeer;
  let callId: string;
  try {
    ({ peer, callId } = await dialProvider({
      provider: lane.provider,
      baseUrl: server.base,
      accountId: lane.accountId,
      credentials: lane.credentials,
      params: lane.provider === 'audiosocket' ? {} : CALL_SETTINGS,
      audioSocket: server.audioSocket,
      ...(caller ? { caller } : {}),
    }));
  } catch (error) {
    const reason = (error as Error).message;
    return REFUSED.test(reason) ? { kind: 'refused' } : { kind: 'failed', reason: `dial failed: ${reason}` };
  }
  rest.peers.set(callId, peer);
  const agentCall = agent.call(callId, 10_000);
  agentCall.catch(() => undefined);
  try {
    // AudioSocket's refusal: the hangup packet and the close, before any audio or agent.
    const first = await Promise.race([agentCall, peer.closed.then(() => undefined)]);
    if (first === undefined) {
      const refused = peer.timeline.some((event) => event.kind === 'hangup_received') && peer.summary().mediaReceived === 0;
      throw refused ? 'refused' : new Error('the stream closed before its agent was dialled');
    }
    await agent.event(first, 'call_started', 10_000);
    return { kind: 'up', peer, callId, call: first };
  } catch (error) {
    await hangUp(peer, callId);
    return error === 'refused' ? { kind: 'refused' } : { kind: 'failed', reason: (error as Error).message };
  }
}

/** Whatever the call's state, its stream is gone afterwards and the bench forgets it. */
async function hangUp(peer: CallPeer, callId: string): Promise<void> {
  await peer.drop();
  rest.peers.delete(callId);
  agent.forget(callId);
}

/** Runs `scenario` on one call of `lane`, from dialling to a closed stream. */
async function runCall(lane: Lane, scenario: Scenario): Promise<CallOutcome> {
  const began = performance.now();
  const outcome = (extra: { problem?: string; refused?: true } = {}): CallOutcome => ({ lane: lane.name, scenario, ms: Math.round(performance.now() - began), ...extra });
  const caller = scenario === 'barge-in' ? new CallerTrack([{ atMs: between(1500, 3000), mulaw: interruption, label: 'interrupt' }]) : undefined;
  const connected = await connectCall(lane, caller);
  if (connected.kind === 'refused') return outcome({ refused: true });
  if (connected.kind === 'failed') return outcome({ problem: connected.reason });
  const { peer, callId, call } = connected;
  let problem: string | undefined;
  try {
    say(call, PROMPT);
    switch (scenario) {
      case 'conversation':
        await sleep(between(4000, 9000));
        say(call, REPLY);
        await sleep(between(1500, 3500));
        await peer.stop();
        break;
      case 'barge-in':
        await agent.event(call, 'interrupted', 15_000);
        say(call, REPLY);
        await sleep(between(1500, 3000));
        await peer.stop();
        break;
      case 'transfer':
        await sleep(between(1500, 4000));
        call.socket.send(JSON.stringify({ type: 'transfer', to: '+918000000099' }));
        await within(peer.closed, 20_000, 'the stream did not end after the transfer');
        break;
      case 'agent-hangup':
        await sleep(between(1500, 4000));
        call.socket.send(JSON.stringify({ type: 'hangup', drain: false }));
        await within(peer.closed, 20_000, 'the stream did not end after the hangup');
        break;
      case 'agent-drop':
        await sleep(between(1500, 4000));
        call.socket.terminate();
        // The call speaks its fallback message, then hangs up.
        await within(peer.closed, 30_000, 'the stream did not end after the agent went away');
        break;
      case 'provider-drop':
        await sleep(between(1500, 5000));
        await peer.drop();
        break;
      case 'provider-vanish':
        await sleep(between(1500, 5000));
        peer.vanish();
        await within(peer.closed, 30_000, 'the server kept a half-open stream');
        break;
    }
  } catch (error) {
    problem = (error as Error).message;
  } finally {
    await hangUp(peer, callId);
  }
  return outcome(problem === undefined ? {} : { problem });
}

const bursts = { count: 0, fillersAdmitted: 0, refusedOn: {} as Record<string, number>, notRefused: 0, failures: 0 };

/**
 * Fills the process with calls on rotating lanes, one after another, each held up, until it refuses one; then goes on
 * round the lanes until every provider has refused a call its own way (one freed meanwhile takes a filler), and
 * keeps the process full a moment longer (regular calls arriving meanwhile are refused too) before the fillers hang up.
 */
async function burst(first: number): Promise<void> {
  bursts.count++;
  const fillers: { peer: CallPeer; callId: string }[] = [];
  const refused = new Set<string>();
  try {
    for (let k = 0; refused.size < LANES.length && k < LEVEL + 3 * LANES.length; k++) {
      const lane = LANES[(first + k) % LANES.length]!;
      if (refused.has(lane.name)) continue;
      const connected = await connectCall(lane);
      if (connected.kind === 'failed') {
        bursts.failures++;
        console.error(`soak: burst on ${lane.name}: ${connected.reason}`);
        return;
      }
      if (connected.kind === 'up') {
        bursts.fillersAdmitted++;
        fillers.push(connected);
        continue;
      }
      refused.add(lane.name);
      bursts.refusedOn[lane.name] = (bursts.refusedOn[lane.name] ?? 0) + 1;
    }
    if (refused.size < LANES.length) bursts.notRefused++;
    await sleep(between(500, 2000));
  } finally {
    await Promise.all(
      fillers.map(async ({ peer, callId }) => {
        await peer.stop();
        await hangUp(peer, callId);
      }),
    );
  }
}

// ---- warm-up and baseline -----------------------------------------------------------------------------------------

/** Waits until no call is live and the census holds still over two readings (at most `maxMs`); the last reading. */
async function quiet(maxMs: number, settled: (now: Census) => boolean = () => true): Promise<{ census: Census; waitedMs: number; settled: boolean }> {
  const from = performance.now();
  let previous: Census | undefined;
  for (;;) {
    const now = await readCensus();
    const still = previous !== undefined && now.fds === previous.fds && now.clockTimers === previous.clockTimers && now.activeHandles === previous.activeHandles;
    const ok = now.liveCalls === 0 && still && settled(now);
    if (ok || performance.now() - from > maxMs) return { census: now, waitedMs: Math.round(performance.now() - from), settled: ok };
    previous = now;
    await sleep(1000);
  }
}

let stopped = false;
/** Stops the server, the REST stand-in and the agent (once; also when the bench fails half-way). */
async function stopAll(): Promise<void> {
  if (stopped) return;
  stopped = true;
  await server.stop();
  await rest.close();
  agent.close();
}

let clean = false;
try {
  const ledgerBefore = await ledger();
  const creditsConsumedBefore = (await readCensus()).creditsConsumed;
  // Every lane's first call loads what calls keep loaded (voices, the VAD model, pools): the baseline comes after it.
  const warmUp = await Promise.all(LANES.map((lane) => runCall(lane, 'conversation')));
  const baseline = (await quiet(30_000)).census;
  console.error(`soak: warmed up (${warmUp.filter((o) => o.problem).length} problems); baseline ${baseline.fds} fds, ${baseline.clockTimers} timers, ${baseline.activeHandles} handles`);

  // ---- the soak ---------------------------------------------------------------------------------------------------

  const samples: Census[] = [baseline];
  const outcomes: CallOutcome[] = [];
  let live = 0;
  let maxLive = 0;
  const runStartS = elapsedS();
  const deadline = performance.now() + MINUTES * 60_000;

  async function loop(lane: Lane, index: number): Promise<void> {
    // Loops start spread over the first seconds, as calls arrive.
    await sleep(index * 700);
    for (let n = index; performance.now() < deadline; n++) {
      const scenario = SCENARIOS[n % SCENARIOS.length]!;
      live++;
      maxLive = Math.max(maxLive, live);
      const result = await runCall(lane, scenario);
      live--;
      outcomes.push(result);
      if (result.problem) console.error(`soak: ${lane.name} ${scenario}: ${result.problem}`);
      // A refused call is tried again (the same scenario) a moment later, as a provider's retry would.
      if (result.refused) n--;
      await sleep(result.refused ? between(1000, 2000) : between(200, 1000));
    }
  }

  async function bursting(): Promise<void> {
    for (let n = 0; ; n++) {
      const waitMs = between(20_000, 40_000);
      if (performance.now() + waitMs > deadline - 10_000) return;
      await sleep(waitMs);
      await burst(n);
    }
  }

  const sampler = setInterval(() => {
    void readCensus().then(
      (now) => samples.push(now),
      () => undefined,
    );
  }, SAMPLE_EVERY_MS);
  const progress = setInterval(() => {
    const last = samples.at(-1)!;
    console.error(`soak: ${Math.round(elapsedS() - runStartS)} s, ${outcomes.length} calls, ${live} live; RSS ${round(last.rssMb, 1)} MB, heap ${round(last.heapUsedMb, 1)} MB, ${last.fds} fds`);
  }, 60_000);
  try {
    await Promise.all([...LANES.flatMap((lane, l) => Array.from({ length: PER_PROVIDER }, (_, i) => loop(lane, l * PER_PROVIDER + i))), bursting()]);
  } finally {
    clearInterval(sampler);
    clearInterval(progress);
  }
  const runEndS = elapsedS();
  samples.push(await readCensus());

  // ---- after: everything let go? ------------------------------------------------------------------------------------

  const heldNothing = (c: Census) => c.held.callSlots === 0 && c.held.concurrencySlots === 0 && c.held.creditReservations === 0;
  const backToBaseline = (c: Census) => heldNothing(c) && c.clockTimers <= baseline.clockTimers && c.activeHandles <= baseline.activeHandles && c.fds <= baseline.fds;
  const settle = await quiet(SETTLE_MAX_MS, backToBaseline);
  const after = settle.census;
  const ledgerAfter = await ledger();
  await stopAll();

  const leaks: string[] = [];
  if (after.liveCalls !== 0) leaks.push(`${after.liveCalls} calls still live`);
  if (after.held.callSlots !== 0) leaks.push(`${after.held.callSlots} call slots held`);
  if (after.held.concurrencySlots !== 0) leaks.push(`${after.held.concurrencySlots} concurrency slots held`);
  if (after.held.creditReservations !== 0) leaks.push(`${after.held.creditReservations} credit reservations held`);
  if (after.clockTimers > baseline.clockTimers) leaks.push(`${after.clockTimers - baseline.clockTimers} clock timers over the baseline`);
  if (after.activeHandles > baseline.activeHandles) leaks.push(`${after.activeHandles - baseline.activeHandles} active handles over the baseline`);
  if (after.fds > baseline.fds) leaks.push(`${after.fds - baseline.fds} file descriptors over the baseline`);

  const accounts = Object.fromEntries(
    LANES.map((lane) => {
      const before = ledgerBefore.get(lane.accountId)!;
      const now = ledgerAfter.get(lane.accountId)!;
      const charged = before.balance - now.balance;
      const recorded = now.recordedCredits - before.recordedCredits;
      return [lane.accountId, { charged, recorded, usageRecords: now.records - before.records, equal: charged === recorded }];
    }),
  );
  const chargedTotal = Object.values(accounts).reduce((sum, a) => sum + a.charged, 0);
  const recordedTotal = Object.values(accounts).reduce((sum, a) => sum + a.recorded, 0);
  const countedCharged = after.creditsConsumed - creditsConsumedBefore;
  const ledgerEqual = Object.values(accounts).every((a) => a.equal) && countedCharged === chargedTotal;
  if (!ledgerEqual) leaks.push('the usage ledger differs from the credits charged');

  /** MB per hour over the samples from `fromS` (seconds since the bench's origin). */
  const slopeMbPerHour = (pick: (c: Census) => number, fromS: number) =>
    round(slope(samples.filter((c) => c.atS >= fromS && c.atS <= runEndS + 1).map((c) => ({ x: c.atS / 3600, y: pick(c) }))), 2);
  const warmUpEndS = runStartS + (runEndS - runStartS) * WARM_UP_SHARE;

  const problems = outcomes.filter((o) => o.problem !== undefined);
  const answered = outcomes.filter((o) => !o.refused);
  const byLane = Object.fromEntries(
    LANES.map((lane) => {
      const mine = answered.filter((o) => o.lane === lane.name);
      const refused = outcomes.filter((o) => o.lane === lane.name && o.refused).length;
      return [lane.name, { calls: mine.length, refused, problems: mine.filter((o) => o.problem).length, ...Object.fromEntries(SCENARIOS.map((s) => [s, mine.filter((o) => o.scenario === s).length])) }];
    }),
  );
  const pick = (c: Census) => ({
    fds: c.fds,
    fdsByKind: c.fdsByKind,
    activeHandles: c.activeHandles,
    activeResources: c.activeResources,
    clockTimers: c.clockTimers,
    liveCalls: c.liveCalls,
    held: c.held,
    rssMb: round(c.rssMb, 1),
    heapUsedMb: round(c.heapUsedMb, 1),
  });

  const result = {
    clean: leaks.length === 0,
    leaks,
    config: { minutes: MINUTES, callsPerProvider: PER_PROVIDER, lanes: LANES.map((lane) => lane.name), scenarios: [...new Set(SCENARIOS)], sampleEveryS: SAMPLE_EVERY_MS / 1000, engine: 'embedded eSpeak NG, 8 kHz', vad: 'Silero (server default)', streamTimeoutMs: 10_000 },
    calls: {
      total: answered.length,
      refused: outcomes.length - answered.length,
      maxSimultaneous: maxLive,
      withProblems: problems.length,
      problems: Object.entries(problems.reduce<Record<string, number>>((acc, o) => ((acc[`${o.scenario}: ${o.problem}`] = (acc[`${o.scenario}: ${o.problem}`] ?? 0) + 1), acc), {})).map(([problem, count]) => ({ problem, count })),
      durationMs: summary(answered.map((o) => o.ms)),
      byLane,
    },
    bursts: {
      ...bursts,
      refusalsCountedByServer: Object.fromEntries(Object.entries(after.refusals).map(([key, count]) => [key, count - (baseline.refusals[key] ?? 0)])),
    },
    fakePlivoRest: rest.counts,
    baseline: pick(baseline),
    after: { ...pick(after), settledInMs: settle.waitedMs, settled: settle.settled },
    memory: {
      samples: samples.length,
      rssMbPerHour: { whole: slopeMbPerHour((c) => c.rssMb, runStartS), afterWarmUp: slopeMbPerHour((c) => c.rssMb, warmUpEndS) },
      heapUsedMbPerHour: { whole: slopeMbPerHour((c) => c.heapUsedMb, runStartS), afterWarmUp: slopeMbPerHour((c) => c.heapUsedMb, warmUpEndS) },
      rssMb: { first: round(samples[0]!.rssMb, 1), last: round(samples.at(-1)!.rssMb, 1), max: round(Math.max(...samples.map((c) => c.rssMb)), 1) },
      heapUsedMb: { first: round(samples[0]!.heapUsedMb, 1), last: round(samples.at(-1)!.heapUsedMb, 1), max: round(Math.max(...samples.map((c) => c.heapUsedMb)), 1) },
    },
    ledger: { equal: ledgerEqual, chargedCredits: chargedTotal, recordedCredits: recordedTotal, countedByServerCredits: countedCharged, accounts },
    loadAverage1m: { before: round(loadBefore, 2), after: round(loadavg()[0] ?? NaN, 2) },
  };
  // The file also keeps every sample: [s since start, RSS MB, heap used MB, fds, clock timers, live calls].
  const series = samples.map((c) => [round(c.atS, 0), round(c.rssMb, 1), round(c.heapUsedMb, 1), c.fds, c.clockTimers, c.liveCalls]);
  const file = await writeResult('soak', { ...result, series });
  console.log(JSON.stringify(result, null, 2));
  console.error(`soak: ${result.clean ? 'clean' : `NOT clean: ${leaks.join('; ')}`} → ${file}`);
  clean = result.clean;
} finally {
  await stopAll();
}
process.exit(clean ? 0 : 1);
