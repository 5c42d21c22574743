// India compliance hooks, enforced as the account and the operator configured them (Raaga does not judge what the
// law requires): the account's allowed caller IDs, its calling-hours window in its time zone, and do-not-call checks
// against the operator's list file and the account's own webhook. Each refusal says which rule and how to proceed.

import { readFileSync, statSync } from 'node:fs';
import type { TelephonySettings } from '../../store/store.js';
import type { DestinationPolicy } from '../destination/destination-policy.js';
import { pinnedPost } from '../destination/pinned-post.js';
import { SIGNATURE_HEADER, signWebhook, STATUS_WEBHOOK_SCHEMES } from './status-webhooks.js';

export const DEFAULT_CALLING_TIME_ZONE = 'Asia/Kolkata';
/** How long the account's do-not-call webhook may take; no answer in time refuses the call (fail closed). */
export const DNC_WEBHOOK_TIMEOUT_MS = 3000;
/** The webhook's answer is `{"allowed": true|false}`; anything longer is not an answer. */
const DNC_ANSWER_MAX_BYTES = 4096;

export type ComplianceRefusal =
  | { readonly rule: 'caller_id'; readonly message: string }
  | { readonly rule: 'calling_hours'; readonly message: string; readonly retryAfterSeconds: number }
  | { readonly rule: 'do_not_call'; readonly message: string }
  | { readonly rule: 'dnc_unavailable'; readonly message: string };

export function callerIdRefusal(settings: TelephonySettings | null, from: string): ComplianceRefusal | undefined {
  const allowed = settings?.allowedCallerIds?.split(',');
  if (allowed === undefined || allowed.includes(from)) return undefined;
  return { rule: 'caller_id', message: `from ${from} is not one of this account's allowed caller IDs (${allowed.join(', ')}); set them with raaga telephony set --allowed-caller-ids.` };
}

/** Minutes since midnight of `atMs` in `timeZone`. */
function minuteOfDay(atMs: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(atMs);
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return value('hour') * 60 + value('minute');
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Outside the account's window: refused, with the seconds until it opens. A window may run past midnight. */
export function callingHoursRefusal(settings: TelephonySettings | null, atMs: number): ComplianceRefusal | undefined {
  const window = settings?.callingHours;
  if (window === undefined) return undefined;
  const timeZone = settings?.callingTimeZone ?? DEFAULT_CALLING_TIME_ZONE;
  const [start, end] = window.split('-').map(minutes) as [number, number];
  const now = minuteOfDay(atMs, timeZone);
  const inside = start <= end ? now >= start && now < end : now >= start || now < end;
  if (inside) return undefined;
  const untilOpen = (start - now + 24 * 60) % (24 * 60);
  return {
    rule: 'calling_hours',
    message: `calls are placed only between ${window.replace('-', ' and ')} ${timeZone} for this account; it opens in ${untilOpen} minutes.`,
    retryAfterSeconds: Math.max(60, untilOpen * 60),
  };
}

/** The operator's do-not-call file, read again whenever its modification time changes. */
export class DoNotCallList {
  #numbers = new Set<string>();
  #loadedMtimeMs = -1;

  constructor(private readonly path: string | undefined) {
    if (path !== undefined) this.#reload();
  }

  has(number: string): boolean {
    if (this.path === undefined) return false;
    this.#reload();
    return this.#numbers.has(number);
  }

  #reload(): void {
    // A missing or unreadable file is an operator error: thrown, so calls are refused rather than placed unchecked.
    const mtimeMs = statSync(this.path!).mtimeMs;
    if (mtimeMs === this.#loadedMtimeMs) return;
    const lines = readFileSync(this.path!, 'utf8').split(/\r?\n/);
    this.#numbers = new Set(lines.map((line) => line.replace(/#.*/, '').trim()).filter((line) => line !== ''));
    this.#loadedMtimeMs = mtimeMs;
  }
}

export interface DoNotCallCheckDeps {
  readonly list: DoNotCallList;
  readonly destinations: DestinationPolicy;
  /** Epoch ms (the signature's timestamp). */
  readonly now: () => number;
  /** Waits on the outbound calls' clock: a failed check answers at its deadline (see doNotCallRefusal). */
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * The operator's list, then the account's webhook: POST {"to", "from", "reference_id"}, signed like status webhooks
 * when the account has a webhook secret, answered 200 {"allowed": bool}. Anything else (an error, a timeout, a
 * redirect, another shape) refuses the call: a check that did not run is not a pass. A webhook that gave no answer
 * is reported only once DNC_WEBHOOK_TIMEOUT_MS has passed, however fast it failed, so the refusal's timing does not
 * tell a closed port from a silent one.
 */
export async function doNotCallRefusal(
  deps: DoNotCallCheckDeps,
  settings: TelephonySettings | null,
  call: { readonly to: string; readonly from: string; readonly referenceId: string | undefined },
): Promise<ComplianceRefusal | undefined> {
  let listed: boolean;
  try {
    listed = deps.list.has(call.to);
  } catch {
    return { rule: 'dnc_unavailable', message: "the server's do-not-call file cannot be read (its operator must fix OUTBOUND_DNC_FILE); the call was not placed." };
  }
  if (listed) return { rule: 'do_not_call', message: `${call.to} is on this server's do-not-call list.` };
  const url = settings?.dncWebhookUrl;
  if (url === undefined) return undefined;
  const startedAtMs = deps.now();
  const deadline = deps.sleep(DNC_WEBHOOK_TIMEOUT_MS);
  const body = JSON.stringify({ to: call.to, from: call.from, reference_id: call.referenceId ?? null });
  const signature: Record<string, string> = settings?.webhookSecret === undefined ? {} : { [SIGNATURE_HEADER]: signWebhook(settings.webhookSecret, body, Math.floor(startedAtMs / 1000)) };
  const result = await pinnedPost(deps.destinations, url, STATUS_WEBHOOK_SCHEMES, {
    headers: { 'content-type': 'application/json', 'user-agent': 'Raaga-Webhooks/1', ...signature },
    body,
    timeoutMs: DNC_WEBHOOK_TIMEOUT_MS,
    maxResponseBytes: DNC_ANSWER_MAX_BYTES,
  });
  if (!result.ok && result.failure === 'refused') {
    return { rule: 'dnc_unavailable', message: `the account's do-not-call webhook URL ${result.reason}; the call was not placed.` };
  }
  const allowed = result.ok && result.status === 200 ? allowedField(result.body) : undefined;
  if (allowed === true) return undefined;
  if (allowed === false) return { rule: 'do_not_call', message: `${call.to} may not be called: the account's do-not-call check refused it.` };
  await deadline;
  return { rule: 'dnc_unavailable', message: `the account's do-not-call webhook gave no answer of 200 {"allowed": true|false} within ${DNC_WEBHOOK_TIMEOUT_MS} ms; the call was not placed.` };
}

function allowedField(body: Buffer): unknown {
  try {
    return (JSON.parse(body.toString('utf8')) as { allowed?: unknown }).allowed;
  } catch {
    return undefined;
  }
}
