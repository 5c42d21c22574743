// Telephony test plumbing over the real peer (src/sim/): a call from the voice webhook to a live
// media stream, a raw media socket for malformed-input tests, a log capture, and REST call control.

import { Writable } from 'node:stream';
import { vi } from 'vitest';
import { pino, type Logger } from 'pino';
import WebSocket from 'ws';
import type { CallerTrack } from '../../src/sim/caller-audio.js';
import { CallPeer } from '../../src/sim/call-peer.js';
import { fetchStreamInstruction, type StreamInstruction } from '../../src/sim/dialects/twilio-voice-webhook-client.js';
import type { TestServer } from './test-server.js';

export interface CallOptions {
  readonly query?: Readonly<Record<string, string>>;
  /** The account's Twilio auth token: the webhook and the upgrade are signed with it. */
  readonly authToken?: string;
  readonly caller?: CallerTrack;
  readonly dtmf?: readonly { digit: string; atMs: number }[];
  /** A closed echo loop on the caller's line (CallPeerOptions.echo). */
  readonly echo?: { readonly delayMs: number; readonly erlDb: number; readonly taps?: number };
  /** Twilio's webhook fields beyond the defaults (Direction, AnsweredBy, …). */
  readonly webhookFields?: Readonly<Record<string, string>>;
}

export interface TestCall {
  readonly peer: CallPeer;
  readonly instruction: StreamInstruction;
  readonly callSid: string;
}

/** What Twilio does for an incoming call: POST the voice webhook, then open the stream its TwiML names. */
export async function placeCall(server: TestServer, accountId: string, options: CallOptions = {}): Promise<TestCall> {
  const query = new URLSearchParams(options.query ?? {}).toString();
  const url = `${server.url}/v1/telephony/twilio/voice/${accountId}${query ? `?${query}` : ''}`;
  const instruction = await fetchStreamInstruction({
    url,
    ...(options.authToken ? { authToken: options.authToken } : {}),
    ...(options.webhookFields ? { params: options.webhookFields } : {}),
  });
  const callSid = instruction.params.CallSid as string;
  const peer = await CallPeer.connect({
    url: instruction.streamUrl,
    callSid,
    customParameters: instruction.parameters,
    ...(options.authToken ? { signature: { authToken: options.authToken } } : {}),
    ...(options.caller ? { caller: options.caller } : {}),
    ...(options.dtmf ? { dtmf: options.dtmf } : {}),
    ...(options.echo ? { echo: options.echo } : {}),
  });
  return { peer, instruction, callSid };
}

/** A media socket the test drives frame by frame (Twilio's messages written by hand). */
export class RawStream {
  readonly received: Record<string, any>[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;

  constructor(readonly socket: WebSocket) {
    this.opened = new Promise((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    this.closed = new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    socket.on('error', () => undefined);
    socket.on('message', (data: Buffer) => this.received.push(JSON.parse(data.toString('utf8')) as Record<string, any>));
  }

  static open(url: string, headers: Record<string, string> = {}): RawStream {
    return new RawStream(new WebSocket(url, { headers }));
  }

  send(message: object | string): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  start(callSid: string, customParameters: Record<string, string>, streamSid = 'MZ' + '0'.repeat(32)): void {
    this.send({ event: 'connected', protocol: 'Call', version: '1.0.0' });
    this.send({
      event: 'start',
      sequenceNumber: '1',
      streamSid,
      start: { streamSid, accountSid: 'AC' + '0'.repeat(32), callSid, tracks: ['inbound'], customParameters, mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 } },
    });
  }

  media(payload: string | Uint8Array, timestamp = 0): void {
    const body = typeof payload === 'string' ? payload : Buffer.from(payload).toString('base64');
    this.send({ event: 'media', sequenceNumber: '2', streamSid: 'MZ' + '0'.repeat(32), media: { track: 'inbound', chunk: '1', timestamp: String(timestamp), payload: body } });
  }

  stop(): void {
    this.send({ event: 'stop', sequenceNumber: '9', streamSid: 'MZ' + '0'.repeat(32), stop: { accountSid: 'AC', callSid: 'CA' } });
  }
}

/** The warning a media stream logs once per kind of bad input. */
export const BAD_INPUT_LOG = 'media stream: bad input ignored';

/** `updatedAtMs` of the telephony settings tests store: a fixed instant, the value is only recorded. */
export const SETTINGS_UPDATED_AT_MS = 1_700_000_000_000;
/** Call-token expiries on either side of any clock a test could run under (2100 and 2001), not a margin of now. */
export const FAR_FUTURE_MS = 4_102_444_800_000;
export const LONG_AGO_MS = 1_000_000_000_000;

/**
 * An account whose provider webhooks and streams are accepted without provider credentials (the documented
 * development opt-in): most call tests are about the call, not about authentication.
 */
export async function unsignedAccount(server: TestServer, plan: 'free' | 'developer' | 'growth' = 'growth', credits = 100_000): Promise<{ id: string; keys: string[] }> {
  const created = await server.account(plan, credits);
  await server.deps.store.putTelephonySettings({ accountId: created.id, allowUnsigned: true, updatedAtMs: Date.now() });
  return created;
}

/** A pino logger whose JSON lines are kept for assertions. */
export function capturingLogger(): { logger: Logger; lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, any>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

export async function callControl(server: TestServer, key: string, callSid: string, action: 'say' | 'cancel' | 'hangup' | 'transfer' | 'gather', body: object = {}): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server.url}/v1/calls/${callSid}/${action}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

/** GET /v1/calls/{callSid}/gather/{gatherId}, waiting up to `waitMs` (the server's default when undefined). */
export async function gatherResult(server: TestServer, key: string, callSid: string, gatherId: string, waitMs?: number): Promise<{ status: number; json: any }> {
  const query = waitMs === undefined ? '' : `?wait_ms=${waitMs}`;
  const response = await fetch(`${server.url}/v1/calls/${callSid}/gather/${gatherId}${query}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, json: await response.json() };
}

/** Resolves once `condition` holds; fails naming `what` if it never does. */
export async function eventually(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  // Re-checked as the server works, through vitest's waitFor; the timeout only turns a hang into a named failure.
  await vi.waitFor(
    async () => {
      if (!(await condition())) throw new Error(`still waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 20 },
  );
}

export const LONG_GREETING =
  'नमस्ते, राग बैंक में आपका स्वागत है। आपकी कॉल हमारे लिए महत्वपूर्ण है। कृपया लाइन पर बने रहें, हमारा प्रतिनिधि जल्द ही आपसे बात करेगा। ' +
  'इस बीच आप हमारी वेबसाइट पर भी जानकारी देख सकते हैं।';
