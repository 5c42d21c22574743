// Loopback stand-ins for the REST APIs Raaga places calls through, strict about each provider's documented surface
// (paths, HTTP Basic credentials, form vs JSON bodies, required fields, error shapes), that then play the call the
// way the provider would: status callbacks, the answer step (Twilio's voice URL, Plivo's answer URL, Exotel's
// StreamUrl), the media stream as a CallPeer in the provider's dialect, REST hangup, and the final callback.
//   Twilio: POST /2010-04-01/Accounts/{AC}/Calls.json (form) → 201 call resource; errors {code, message, more_info, status}.
//   Exotel: POST /v1/Accounts/{sid}/Calls/connect.json (form) → 200 {Call: {Sid, …}}; errors {RestException: {Status, Message}}.
//   Plivo:  POST /v1/Account/{auth_id}/Call/ (JSON) → 201 {api_id, message, request_uuid}; errors {api_id, error}.

import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';
import { ExotelPeerDialect } from '../../src/sim/dialects/exotel.js';
import { CallPeer } from '../../src/sim/call-peer.js';
import { plivoSignatureHeaders } from '../../src/sim/dialects/plivo-answer-client.js';
import { PlivoPeerDialect } from '../../src/sim/dialects/plivo.js';
import { parseStreamTwiml } from '../../src/sim/dialects/twilio-voice-webhook-client.js';
import { decodeXml } from '../../src/util/xml-entities.js';

export type Callee = 'answer' | 'busy' | 'no-answer' | 'machine';

export interface ProviderAccounts {
  readonly twilio: { readonly accountSid: string; readonly authToken: string; readonly numbers: readonly string[] };
  readonly exotel: { readonly accountSid: string; readonly apiKey: string; readonly apiToken: string; readonly exophones: readonly string[] };
  readonly plivo: { readonly authId: string; readonly authToken: string; readonly numbers: readonly string[] };
}

export interface SimulatedCall {
  readonly provider: 'twilio' | 'exotel' | 'plivo';
  /** The provider's id of the call as its create request answered (Plivo: the request UUID). */
  readonly id: string;
  /** The id its media stream carries (Plivo: the CallUUID). */
  readonly streamId: string;
  readonly request: Readonly<Record<string, unknown>>;
  /** Callbacks the simulator posted, in order: [url, fields]. */
  readonly callbacks: { readonly url: string; readonly fields: Record<string, string>; readonly status: number }[];
  /** The answer step's document (TwiML or Plivo XML), when it ran. */
  answer?: string;
  peer?: CallPeer;
  /** REST requests Raaga made on this call after creating it (hangup, transfer). */
  readonly updates: { readonly method: string; readonly body: string }[];
  /** Why the simulation itself failed (a callback that could not be posted), if it did. */
  failure?: string;
  /** Resolves when the call is over and the final callback was posted. */
  readonly ended: Promise<void>;
}

/** Numbers the simulators refuse as the provider would (invalid destination), and a failing one. */
export const INVALID_TO = '+919999999999';
export const PROVIDER_DOWN_TO = '+919888888888';
/** A create request for this number is never answered (a provider that hangs). */
export const PROVIDER_HANGS_TO = '+919666666666';

export class ProviderApis {
  readonly calls: SimulatedCall[] = [];
  /** What the callee does, by number (default: answers). */
  readonly callees = new Map<string, Callee>();
  #waiters: (() => void)[] = [];

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
    private readonly accounts: ProviderAccounts,
    /** Where the server's public URLs really are (the simulators dial the server here). */
    private readonly raagaUrl: string,
  ) {}

  static async start(accounts: ProviderAccounts, raagaUrl: string): Promise<ProviderApis> {
    let apis: ProviderApis | undefined;
    const server = createServer((req, res) => {
      void readBody(req).then((body) => apis!.handle(req, body)).then(
        ({ status, json }) => res.writeHead(status, { 'content-type': 'application/json' }).end(json === undefined ? undefined : JSON.stringify(json)),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    apis = new ProviderApis(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, accounts, raagaUrl);
    return apis;
  }

  /** Resolves once `count` calls were created. */
  async waitForCalls(count: number): Promise<SimulatedCall[]> {
    while (this.calls.length < count) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    return this.calls.slice(0, count);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, body: string): Promise<{ status: number; json?: unknown }> {
    const path = (req.url ?? '').split('?')[0]!;
    if (body.includes(PROVIDER_HANGS_TO.slice(1))) return new Promise(() => undefined);
    const [user, secret] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8').split(':');
    const { twilio: tw, exotel: ex, plivo: pl } = this.accounts;
    let match: RegExpExecArray | null;
    if ((match = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/.exec(path)) && req.method === 'POST') {
      if (match[1] !== tw.accountSid || user !== tw.accountSid || secret !== tw.authToken) return twilioError(401, 20003, 'Authenticate');
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return twilioError(400, 20001, 'form body required');
      const params = new URLSearchParams(body);
      // Repeated fields (StatusCallbackEvent) kept whole, space-separated.
      const form: Record<string, string> = { ...Object.fromEntries(params), StatusCallbackEvent: params.getAll('StatusCallbackEvent').join(' ') };
      if (!form.To || !form.From || (!form.Url && !form.Twiml)) return twilioError(400, 21201, 'To, From and Url or Twiml are required');
      if (form.To === PROVIDER_DOWN_TO) return twilioError(503, 20500, 'Service unavailable');
      if (form.To === INVALID_TO) return twilioError(400, 21211, `The 'To' number ${form.To} is not a valid phone number.`);
      if (!tw.numbers.includes(form.From)) return twilioError(400, 21210, `The source phone number provided, ${form.From}, is not yet verified for your account.`);
      const sid = `CA${randomBytes(16).toString('hex')}`;
      this.play('twilio', sid, sid, form, () => this.playTwilio(sid, form));
      return { status: 201, json: { sid, account_sid: tw.accountSid, to: form.To, from: form.From, status: 'queued', direction: 'outbound-api', api_version: '2010-04-01' } };
    }
    if ((match = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\/(CA[0-9a-f]{32})\.json$/.exec(path)) && req.method === 'POST') {
      if (user !== tw.accountSid || secret !== tw.authToken) return twilioError(401, 20003, 'Authenticate');
      const call = this.calls.find((c) => c.id === match![2]);
      if (!call) return twilioError(404, 20404, 'not found');
      call.updates.push({ method: 'POST', body });
      void call.peer?.stop();
      return { status: 200, json: { sid: call.id, status: 'completed' } };
    }
    if ((match = /^\/v1\/Accounts\/([^/]+)\/Calls\/connect\.json$/.exec(path)) && req.method === 'POST') {
      if (match[1] !== ex.accountSid || user !== ex.apiKey || secret !== ex.apiToken) return { status: 401, json: { RestException: { Status: 401, Message: 'Authentication is required to view this resource.' } } };
      const form = parseExotelForm(body);
      if (!form.From || !form.CallerId || !form.StreamUrl || form.StreamType !== 'bidirectional') return exotelError(400, 'From, CallerId, StreamUrl and StreamType=bidirectional are required');
      if (form.StreamUrl.length > 600) return exotelError(400, 'StreamUrl is longer than 600 characters');
      if (form.From === PROVIDER_DOWN_TO) return exotelError(502, 'Bad gateway');
      if (form.From === INVALID_TO) return exotelError(400, `From number ${form.From} is not a valid number`);
      if (!ex.exophones.includes(form.CallerId)) return exotelError(400, `CallerId ${form.CallerId} is not an ExoPhone of this account`);
      const sid = randomBytes(16).toString('hex');
      this.play('exotel', sid, sid, form, () => this.playExotel(sid, form));
      return { status: 200, json: { Call: { Sid: sid, AccountSid: ex.accountSid, From: form.From, To: form.CallerId, Status: 'in-progress', Direction: 'outbound-api' } } };
    }
    if ((match = /^\/v1\/Account\/([^/]+)\/Call\/$/.exec(path)) && req.method === 'POST') {
      if (match[1] !== pl.authId || user !== pl.authId || secret !== pl.authToken) return { status: 401, json: { api_id: randomUUID(), error: 'authentication failed' } };
      if (req.headers['content-type'] !== 'application/json') return { status: 400, json: { api_id: randomUUID(), error: 'content type must be application/json' } };
      const json = JSON.parse(body) as Record<string, unknown>;
      const to = String(json.to ?? '');
      if (!json.from || !to || !json.answer_url) return { status: 400, json: { api_id: randomUUID(), error: 'from, to and answer_url are required' } };
      if (to.startsWith('+') || String(json.from).startsWith('+')) return { status: 400, json: { api_id: randomUUID(), error: 'numbers go without +' } };
      if (`+${to}` === PROVIDER_DOWN_TO) return { status: 500, json: { api_id: randomUUID(), error: 'internal error' } };
      if (`+${to}` === INVALID_TO) return { status: 400, json: { api_id: randomUUID(), error: `invalid to number ${to}` } };
      if (!pl.numbers.includes(`+${String(json.from)}`)) return { status: 400, json: { api_id: randomUUID(), error: `from number ${String(json.from)} is not a Plivo number of this account` } };
      const requestUuid = randomUUID();
      const callUuid = randomUUID();
      this.play('plivo', requestUuid, callUuid, json, () => this.playPlivo(requestUuid, callUuid, json));
      return { status: 201, json: { api_id: randomUUID(), message: 'call fired', request_uuid: requestUuid } };
    }
    if ((match = /^\/v1\/Account\/([^/]+)\/Call\/([0-9a-f-]{36})\/$/.exec(path)) && req.method === 'DELETE') {
      if (user !== pl.authId || secret !== pl.authToken) return { status: 401, json: { api_id: randomUUID(), error: 'authentication failed' } };
      const call = this.calls.find((c) => c.streamId === match![2]);
      if (!call) return { status: 404, json: { api_id: randomUUID(), error: 'not found' } };
      call.updates.push({ method: 'DELETE', body });
      void call.peer?.stop();
      return { status: 204 };
    }
    return { status: 404, json: { error: `no such endpoint ${req.method} ${path}` } };
  }

  /** Registers the call and plays it after the create request was answered. */
  private play(provider: SimulatedCall['provider'], id: string, streamId: string, request: Record<string, unknown>, run: () => Promise<void>): void {
    let done!: () => void;
    const call: SimulatedCall = { provider, id, streamId, request, callbacks: [], updates: [], ended: new Promise<void>((resolve) => (done = resolve)) };
    this.calls.push(call);
    for (const waiter of this.#waiters.splice(0)) waiter();
    // A failure of the simulated call is kept for the test to see, never an unhandled rejection.
    setImmediate(() => void run().catch((error: unknown) => (call.failure = String(error))).finally(done));
  }

  private callOf(id: string): SimulatedCall {
    return this.calls.find((call) => call.id === id)!;
  }

  /** Where a public URL of the server really is (same path and query, the server's test address). */
  local(url: string, ws = false): string {
    const parsed = new URL(url);
    return `${ws ? this.raagaUrl.replace(/^http/, 'ws') : this.raagaUrl}${parsed.pathname}${parsed.search}`;
  }

  private async post(call: SimulatedCall, url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    const response = await fetch(this.local(url), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });
    call.callbacks.push({ url, fields, status: response.status });
    return response;
  }

  private async playTwilio(sid: string, form: Record<string, string>): Promise<void> {
    const call = this.callOf(sid);
    const { accountSid, authToken } = this.accounts.twilio;
    const base = { CallSid: sid, AccountSid: accountSid, From: form.From!, To: form.To!, Direction: 'outbound-api', ApiVersion: '2010-04-01' };
    const status = (fields: Record<string, string>) => {
      const all = { ...base, ...fields };
      return this.post(call, form.StatusCallback!, all, { 'x-twilio-signature': twilio.getExpectedTwilioSignature(authToken, form.StatusCallback!, all) });
    };
    await status({ CallStatus: 'initiated' });
    await status({ CallStatus: 'ringing' });
    const callee = this.callees.get(form.To!) ?? 'answer';
    if (callee === 'busy' || callee === 'no-answer') {
      await status({ CallStatus: callee, CallDuration: '0' });
      return;
    }
    // With MachineDetection Twilio asks for the URL once it decided, AnsweredBy included.
    const answerFields = { ...base, CallStatus: 'in-progress', ...(form.MachineDetection ? { AnsweredBy: callee === 'machine' ? 'machine_end_beep' : 'human' } : {}) };
    const response = await this.post(call, form.Url!, answerFields, { 'x-twilio-signature': twilio.getExpectedTwilioSignature(authToken, form.Url!, answerFields) });
    call.answer = await response.text();
    await status({ CallStatus: 'in-progress' });
    if (response.ok && call.answer.includes('<Connect')) {
      const { streamUrl, parameters } = parseStreamTwiml(call.answer);
      call.peer = await CallPeer.connect({ url: this.local(streamUrl, true), callSid: sid, accountSid, customParameters: parameters, signature: { authToken, url: streamUrl } });
      await call.peer.closed;
    }
    await status({ CallStatus: 'completed', CallDuration: talkSeconds(call) });
  }

  private async playExotel(sid: string, form: Record<string, string>): Promise<void> {
    const call = this.callOf(sid);
    const events = Object.entries(form).filter(([name]) => name.startsWith('StatusCallbackEvents')).map(([, value]) => value);
    const base = { CallSid: sid, From: form.From!, To: form.CallerId!, Direction: 'outbound-api', CustomField: form.CustomField ?? '' };
    const status = (fields: Record<string, string>) => this.post(call, form.StatusCallback!, { ...base, ...fields });
    if (events.includes('ringing')) await status({ EventType: 'ringing', Status: 'ringing' });
    const callee = this.callees.get(form.From!) ?? 'answer';
    if (callee === 'busy' || callee === 'no-answer') {
      await status({ EventType: 'terminal', Status: callee, ConversationDuration: '0' });
      return;
    }
    call.peer = await CallPeer.connect({ url: this.local(form.StreamUrl!, true), dialect: new ExotelPeerDialect(), callSid: sid });
    if (events.includes('answered')) await status({ EventType: 'answered', Status: 'in-progress' });
    await call.peer.closed;
    await status({ EventType: 'terminal', Status: 'completed', ConversationDuration: talkSeconds(call) });
  }

  private async playPlivo(requestUuid: string, callUuid: string, json: Record<string, unknown>): Promise<void> {
    const call = this.callOf(requestUuid);
    const { authToken } = this.accounts.plivo;
    const signed = (url: string, fields: Record<string, string>) => this.post(call, url, fields, plivoSignatureHeaders(authToken, 'POST', url, fields));
    const base = { CallUUID: callUuid, RequestUUID: requestUuid, From: String(json.from), To: String(json.to), Direction: 'outbound' };
    await signed(String(json.ring_url), { ...base, CallStatus: 'ringing', Event: 'Ring' });
    const callee = this.callees.get(`+${String(json.to)}`) ?? 'answer';
    if (callee === 'busy' || callee === 'no-answer') {
      await signed(String(json.hangup_url), { ...base, CallStatus: callee, Event: 'Hangup', HangupCause: callee === 'busy' ? 'USER_BUSY' : 'NO_ANSWER', Duration: '0' });
      return;
    }
    const response = await signed(String(json.answer_url), { ...base, CallStatus: 'in-progress', Event: 'StartApp' });
    call.answer = await response.text();
    const stream = /<Stream\b[^>]*\bbidirectional="true"[^>]*>([^<]+)<\/Stream>/.exec(call.answer);
    if (response.ok && stream) {
      const streamUrl = decodeXml(stream[1]!);
      call.peer = await CallPeer.connect({ url: this.local(streamUrl, true), dialect: new PlivoPeerDialect(), headers: plivoSignatureHeaders(authToken, 'GET', streamUrl, {}), callSid: callUuid });
      await call.peer.closed;
    }
    await signed(String(json.hangup_url), { ...base, CallStatus: 'completed', Event: 'Hangup', HangupCause: 'NORMAL_CLEARING', Duration: talkSeconds(call) });
  }
}

/** The call's length as the provider reports it: the media it played out (whole seconds), not time waited. */
function talkSeconds(call: SimulatedCall): string {
  return String(Math.round((call.peer?.playedMulaw().length ?? 0) / 8000));
}

/** A request's whole body as UTF-8 (also the bench's fake Plivo REST, bench/lib/fake-plivo-rest.ts). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Exotel's form, with repeated `StatusCallbackEvents[i]` kept under their own names. */
function parseExotelForm(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

function twilioError(status: number, code: number, message: string) {
  return { status, json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}

function exotelError(status: number, message: string) {
  return { status, json: { RestException: { Status: status, Message: message } } };
}
