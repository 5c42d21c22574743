// A phone call put together once for every provider: the call's settings layered (server < account defaults <
// connection query < the provider's start parameters), a CallSession speaking into the stream's media port, the
// agent link when the call has one, and registration on the call-control bus so REST say/cancel/hangup reach it.

import type { TelephonyConfig } from '../config.js';
import type { VoiceActivityDetectorFactory } from '../session/barge-in/barge-in-contract.js';
import type { CallControlPort, CallMediaPort } from '../session/call-events.js';
import { CallSession, type CallSessionDeps } from '../session/call-session.js';
import { GATHER_RESULTS_KEPT } from '../session/dtmf-gather.js';
import { sleep, type Clock } from '../session/clock.js';
import type { SessionServices } from '../session/session-services.js';
import type { CallControlBus } from '../store/call-control-bus.js';
import type { CallCommand, CallCommandResult } from '../call-commands.js';
import { OUTBOUND_CALL_ID_PATTERN } from '../store/outbound-call.js';
import type { Account, Store, TelephonySettings } from '../store/store.js';
import { AgentLink } from './agent/agent-link.js';
import type { CheckedDestination, DestinationPolicy } from './destination/destination-policy.js';
import { AGENT_URL_SCHEMES, CREDENTIAL_PARAMETERS, OUTBOUND_CALL_PARAMETER, resolveCallParameters } from './call-parameters.js';
import type { OutboundCalls } from './outbound/outbound-calls.js';
import type { StreamStart } from './stream-events.js';

export interface CallLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
  child(bindings: Record<string, unknown>): CallLogger;
}

/**
 * How long a live call's id stays its account's in the store: beyond the longest call (time_limit_s tops out at 4 h).
 * Released when the call ends; a crashed instance's holds lapse after this.
 */
export const CALL_ID_HOLD_MS = 6 * 3600_000;

export interface CallAssemblyDeps {
  /** A live call id belongs to one account across every instance (Store.holdKey). */
  readonly store: Pick<Store, 'holdKey' | 'releaseKey'>;
  /** Built once by deps.ts; each call's session uses them as they are. */
  readonly services: SessionServices;
  readonly clock: Clock;
  readonly vad: VoiceActivityDetectorFactory | undefined;
  readonly config: TelephonyConfig;
  readonly calls: CallControlBus;
  /** Where an agent_url may point; checked before the call starts, and the link connects to the checked address. */
  readonly destinations: DestinationPolicy;
  /** Passed to each call (active calls, barge-ins, first audio); absent: not measured. */
  readonly metrics?: CallSessionDeps['metrics'];
  /** Outbound calls: a placed call's gather results go to its status webhook. */
  readonly outbound?: Pick<OutboundCalls, 'gathered'> | undefined;
}

export interface CallRequest {
  readonly provider: string;
  readonly account: Account;
  readonly settings: TelephonySettings | null;
  readonly start: StreamStart;
  /** Parameters of the connection URL, under the provider's start parameters. */
  readonly query: Readonly<Record<string, string>>;
  readonly media: CallMediaPort;
  readonly control: CallControlPort;
  readonly logger: CallLogger;
}

export type AssembledCall =
  /** Speaking, registered for REST control; `unregister` when the stream ends. */
  | { readonly kind: 'live'; readonly call: CallSession; readonly unregister: () => void }
  /** The call's settings were invalid: nothing was built. */
  | { readonly kind: 'refused'; readonly reason: string }
  /** Another account's live call has this call id: refused before anything was built or billed. */
  | { readonly kind: 'call-id-taken'; readonly reason: string }
  /** The session was built but stopped before it was live (no slot, unknown voice, store down). */
  | { readonly kind: 'not-started'; readonly call: CallSession; readonly reason: string };

/** A call Raaga placed reports its gathers to the call's status webhook (by the call id its answer step added). */
function outboundGatherReporter(deps: CallAssemblyDeps, accountId: string, callId: string | undefined, logger: CallLogger): CallSessionDeps['onGathered'] {
  const outbound = deps.outbound;
  if (!outbound || callId === undefined || !OUTBOUND_CALL_ID_PATTERN.test(callId)) return undefined;
  return (result) =>
    void outbound.gathered(accountId, callId, result).catch((error: unknown) => logger.warn({ err: String(error), gatherId: result.gatherId }, 'gather result not sent to the status webhook'));
}

/** Builds and starts the call; on 'live' the greeting is speaking and the agent is being dialled. */
export async function assembleCall(deps: CallAssemblyDeps, request: CallRequest): Promise<AssembledCall> {
  const { start, account } = request;
  const resolved = resolveCallParameters(deps.config, [request.settings?.defaults, request.query, start.parameters]);
  if (!resolved.ok) return { kind: 'refused', reason: resolved.message };
  const p = resolved.value;
  let agent: CheckedDestination | undefined;
  if (p.agentUrl !== undefined) {
    const checked = await deps.destinations.check(p.agentUrl, AGENT_URL_SCHEMES);
    if (!checked.ok) return { kind: 'refused', reason: `call parameter 'agent_url' ${checked.reason}` };
    agent = checked;
  }
  // A call id is one account's while its call lives, on every instance: nobody else can steer or end it.
  if ((await deps.store.holdKey('call-id', start.callId, account.id, CALL_ID_HOLD_MS)) !== account.id) {
    return { kind: 'call-id-taken', reason: 'the call id belongs to a live call of another account' };
  }
  const releaseCallId = (): void => void deps.store.releaseKey('call-id', start.callId, account.id).catch(() => undefined);
  // The agent sees what the provider carried (settings included), never a credential.
  const custom = Object.fromEntries(Object.entries({ ...request.query, ...start.parameters }).filter(([name]) => !CREDENTIAL_PARAMETERS.has(name)));
  const call = new CallSession(
    {
      services: deps.services,
      clock: deps.clock,
      logger: request.logger,
      // VAD runs when something listens: speech barge-in, or an agent that wants speech events.
      vad: p.bargeIn === 'none' || p.bargeIn === 'dtmf' ? (p.agentUrl ? deps.vad : undefined) : deps.vad,
      playoutAheadMs: deps.config.playoutAheadMs,
      metrics: deps.metrics,
      promptCache: p.cache,
      onGathered: outboundGatherReporter(deps, account.id, custom[OUTBOUND_CALL_PARAMETER], request.logger),
    },
    account,
    {
      provider: request.provider,
      callSid: start.callId,
      streamSid: start.streamId,
      providerAccountId: start.providerAccountId,
      from: p.from ?? start.from,
      to: p.to ?? start.to,
      direction: p.direction,
      answeredBy: p.answeredBy,
      customParameters: custom,
    },
    {
      config: {
        modelId: 'raaga-v1',
        voice: p.voice,
        language: p.language,
        outputFormat: 'mulaw',
        sampleRateHz: 8000,
        speed: p.speed,
        ...(p.lexicons.length > 0 ? { lexicons: p.lexicons } : {}),
      },
      bargeIn: {
        mode: p.bargeIn,
        minSpeechMs: p.minSpeechMs,
        onlyWhileBotSpeaking: p.onlyWhileBotSpeaking,
        suspect: p.bargeInSuspect,
        policy: p.bargeInPolicy,
        events: p.bargeInEvents,
      },
      greeting: p.greeting === undefined ? undefined : { text: p.greeting, interruptible: p.greetingInterruptible, thenHangUp: p.hangupAfterGreeting },
      fallbackMessage: p.fallbackMessage,
    },
    request.media,
    request.control,
  );
  const started = await call.start();
  if (!started.ok) {
    releaseCallId();
    return { kind: 'not-started', call, reason: started.reason };
  }
  const unregisterCommands = await deps.calls.register(start.callId, account.id, (command) => runCommand(call, command, deps.clock));
  if (unregisterCommands === null) {
    // Only when the store lost the hold (it lapsed, or Redis was swapped) and this instance still serves the other call.
    releaseCallId();
    return { kind: 'not-started', call, reason: 'the call id belongs to a live call of another account' };
  }
  const unregister = (): void => {
    unregisterCommands();
    releaseCallId();
  };
  request.logger.info({ voice: p.voice, language: p.language, bargeIn: p.bargeIn, agent: p.agentUrl !== undefined }, 'call started');
  if (agent && !call.ended) {
    new AgentLink(call, {
      destination: agent,
      connectTimeoutMs: deps.config.agentConnectTimeoutMs,
      clock: deps.clock,
      callSid: start.callId,
      wantsAudio: p.agentAudio,
      logger: request.logger,
    });
  }
  return { kind: 'live', call, unregister };
}

/** REST call control, whichever instance received the request. */
async function runCommand(call: CallSession, command: CallCommand, clock: Clock): Promise<CallCommandResult> {
  // The one question an ended call still answers: what its provider should do next.
  if (command.type === 'after_stream') return { ok: true, afterStream: call.afterStream ?? null };
  if (call.ended) return { ok: false, reason: 'not_found', message: 'The call has ended.' };
  switch (command.type) {
    case 'say':
      return { ok: true, utteranceId: call.say(command) };
    case 'cancel':
      call.cancel();
      return { ok: true };
    case 'hangup':
      void call.hangup(command.drain);
      return { ok: true };
    case 'transfer':
      void call.transfer(command.to, { callerId: command.callerId, timeoutS: command.timeoutS });
      return { ok: true };
    case 'gather':
      return { ok: true, gatherId: call.gather(command.gather) };
    case 'gather_result':
      return gatherStatus(call, command.gatherId, command.waitMs, clock);
  }
}

/** Where a gather of `call` stands, once decided or after `waitMs` (a long-poll); not_found for an unknown id. */
async function gatherStatus(call: CallSession, gatherId: string, waitMs: number, clock: Clock): Promise<CallCommandResult> {
  const decided = call.whenGathered(gatherId);
  if (!decided) return { ok: false, reason: 'not_found', message: `This call has no gather '${gatherId}' (the last ${GATHER_RESULTS_KEPT} are kept while the call lasts).` };
  // The wait ends at the decision or after waitMs on the calls' clock, whichever comes first.
  const answered = new AbortController();
  const result = await Promise.race([decided, sleep(clock, waitMs, answered.signal).then(() => undefined)]);
  answered.abort();
  return { ok: true, gather: result ? { status: 'done', digits: result.digits, reason: result.reason } : { status: 'pending' } };
}
