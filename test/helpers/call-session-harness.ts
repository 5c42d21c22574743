// A CallSession without a socket, for integration tests: a real engine, store and admission; a fake monotonic clock
// drives the playout; one recording object stands in for the provider, the call control and the agent.

import { pino } from 'pino';
import { expect, vi } from 'vitest';
import { Admission } from '../../src/core/admission.js';
import { SynthesisService } from '../../src/core/synthesis/synthesis-service.js';
import { VoiceResolver } from '../../src/core/voice-resolver.js';
import type { TtsEngine } from '../../src/engine/tts-engine.js';
import { PHONE_FRAME_MS } from '../../src/audio/mulaw.js';
import type { CallerTrack } from '../../src/sim/caller-audio.js';
import { DEFAULT_BARGE_IN_POLICY } from '../../src/session/barge-in/barge-in-controller.js';
import type { VoiceActivityDetectorFactory } from '../../src/session/barge-in/barge-in-contract.js';
import type { CallAgentPort, CallControlPort, CallEvent, CallMediaPort, SessionReply } from '../../src/session/call-events.js';
import { agentEvent, type AgentMessage } from '../../src/telephony/agent/agent-events.js';
import { CallSession, type CallSettings } from '../../src/session/call-session.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { catalog } from './espeak-engine.js';
import { FakeClock, settle } from './fake-clock.js';

export type Out = { kind: 'media'; bytes: number; audio: Uint8Array } | { kind: 'mark'; name: string } | { kind: 'clear' };

export class Ports implements CallMediaPort, CallControlPort, CallAgentPort {
  readonly out: Out[] = [];
  readonly agent: AgentMessage[] = [];
  hangups = 0;
  closedWith: string | undefined;
  sendMedia(bytes: Uint8Array) {
    this.out.push({ kind: 'media', bytes: bytes.length, audio: bytes.slice() });
  }
  sendMark(name: string) {
    this.out.push({ kind: 'mark', name });
  }
  sendClear() {
    this.out.push({ kind: 'clear' });
  }
  bufferedBytes() {
    return 0;
  }
  close(reason?: string) {
    this.closedWith ??= reason ?? 'agent closed';
  }
  async hangup() {
    this.hangups++;
  }
  async transfer() {
    return 'stream-ended' as const;
  }
  /** The agent's side as on the wire (the agent link's formatting). */
  event(event: CallEvent) {
    this.agent.push(agentEvent(event));
  }
  reply(message: SessionReply) {
    this.agent.push(message);
  }
  sendAudio() {}
  mediaMs() {
    return this.out.reduce((sum, o) => sum + (o.kind === 'media' ? o.bytes / 8 : 0), 0);
  }
  ofType(type: string) {
    return this.agent.filter((m) => m.type === type) as Record<string, any>[];
  }
}

export const AHEAD_MS = 300;

/** A started call with the agent attached (no agent audio); `settings` override a one-threshold, DTMF-and-speech call. */
export async function startCall(engine: TtsEngine, vad: VoiceActivityDetectorFactory | undefined, settings: Partial<CallSettings> = {}) {
  const store = await SqliteStore.open();
  const account = await store.createAccount({ plan: 'growth', credits: 1_000_000 });
  const clock = new FakeClock();
  const ports = new Ports();
  const call = new CallSession(
    {
      services: {
        admission: new Admission(store, { slotLeaseMs: 30_000, reservationTtlMs: 900_000 }),
        voices: new VoiceResolver(catalog, store),
        synthesis: new SynthesisService(engine, { firstChunkMaxChars: 100, maxChunkChars: 300 }),
      },
      clock,
      logger: pino({ level: 'silent' }),
      vad,
      playoutAheadMs: AHEAD_MS,
    },
    account,
    { provider: 'twilio', callSid: 'CA1', streamSid: 'MZ1', providerAccountId: 'AC1', from: '+911', to: '+912', direction: 'inbound', answeredBy: undefined, customParameters: {} },
    {
      config: { modelId: 'raaga-v1', voice: 'aarav', language: 'hi-IN', outputFormat: 'mulaw', sampleRateHz: 8000, speed: 1 },
      bargeIn: { mode: 'any', minSpeechMs: 250, onlyWhileBotSpeaking: true, suspect: 'off', policy: DEFAULT_BARGE_IN_POLICY, events: 1 },
      greeting: undefined,
      fallbackMessage: '',
      ...settings,
    },
    ports,
    ports,
  );
  expect(await call.start()).toEqual({ ok: true });
  call.attachAgent(ports, false);
  return { call, ports, clock, store, account };
}

/**
 * Waits for `condition` (the engine works in threads, so its progress is an event to wait for) while the fake
 * playout clock stands still or moves by `stepMs` between looks.
 */
export async function until(condition: () => boolean, what: string, clock?: FakeClock, stepMs = 0): Promise<void> {
  await vi.waitFor(
    async () => {
      if (condition()) return;
      if (clock && stepMs > 0) await clock.advance(stepMs);
      else await settle();
      if (!condition()) throw new Error(`still waiting for ${what}`);
    },
    { timeout: 15_000, interval: 5 },
  );
}

/** Frame n (audio [20n, 20n + 20) ms of the call) reaches the server when its audio is over. */
export const smoothArrival = (n: number): number => (n + 1) * PHONE_FRAME_MS;

/**
 * Plays `track` into the call and `tailMs` of its silence after it: frame n is received at `arrival(n)` ms after now on
 * the clock, stamped with its place in the caller's audio, as a provider bridge stamps it.
 */
export async function playCaller(call: CallSession, clock: FakeClock, track: CallerTrack, tailMs = 2000, arrival = smoothArrival): Promise<void> {
  const startMs = clock.now();
  for (let n = 0; n * PHONE_FRAME_MS < track.endMs() + tailMs; n++) {
    const dueMs = startMs + arrival(n);
    if (dueMs > clock.now()) await clock.advance(dueMs - clock.now());
    call.inboundAudio(track.frame(n), (n + 1) * PHONE_FRAME_MS);
  }
}

/** The barge-in decisions the agent heard (barge_in_events=2), one line each: holds, resumes, commits. */
export function bargeInDecisions(ports: Ports): string[] {
  return ports.agent.flatMap((m) => {
    const e = m as Record<string, unknown>;
    switch (e.type) {
      case 'interruption_suspected':
        return [`held ${e.suspect_id} onset=${e.onset_ms}`];
      case 'resumed':
        return [`resumed ${e.suspect_id} ${e.reason} gap=${e.gap_ms}`];
      case 'interrupted':
        return [`interrupted ${e.suspect_id} ${e.decided_by} after=${e.decision_ms}`];
      default:
        return [];
    }
  });
}
