// Twilio's own endpoints: the voice webhook answering TwiML (POST or GET), the answer URL of a call Raaga placed,
// the <Connect> action (a transfer made by ending the stream is dialled there), a transfer's <Dial> action, and the
// stream status callback (stream errors counted). Every request is admitted by the shared webhook admission
// over Twilio's authenticator (twilio-module.ts).

import { ApiError } from '../../errors.js';
import { CALL_ID_PATTERN } from '../../call-commands.js';
import { TOKEN_PARAMETER } from '../call-parameters.js';
import { outboundPath } from '../provider-module.js';
import { twilioAnsweredBy, twilioCallFacts } from '../provider-call-facts.js';
import { providerRequestsAllowed } from '../provider-credentials.js';
import { FORBIDDEN, isReply, NO_CONTENT, NOT_FOUND, type ProviderAccount, type ProviderWebhook, type WebhookContext, type WebhookReply, type WebhookRequest } from '../provider-webhook.js';
import { compact, withoutProviderFields } from '../webhook-form.js';
import { dialActionUrl } from './twilio-call-control.js';
import { twilioCredentials } from './twilio-credentials.js';
import { TWILIO_CONNECT_ACTION_PATH, TWILIO_DIAL_ACTION_PATH, TWILIO_MEDIA_PATH, TWILIO_STATUS_PATH, TWILIO_VOICE_PATH } from './twilio-paths.js';
import { streamUrlFor } from './twilio-signature.js';
import { dialTwiml, hangupTwiml, rejectBusyTwiml, streamTwiml, TwimlParameterError } from './twiml.js';

type Layers = ReadonlyArray<Readonly<Record<string, string>> | undefined>;

const twiml = (body: string): WebhookReply => ({ status: 200, type: 'text/xml; charset=utf-8', body });

/**
 * How long a CallSid's voice-webhook answer is held: X-Twilio-Signature covers the URL and the form only (no time, no
 * nonce), so a captured webhook replays as valid for ever. Within this window the same CallSid gets the same call
 * token back (an honest retry works, a replay opens nothing: the token is spent or expired); the window is far longer
 * than any call token lives (CALL_TOKEN_TTL_MS is at most 1 h) and the same as Plivo's nonce window.
 */
export const TWILIO_ANSWER_WINDOW_MS = 24 * 3600_000;

/**
 * The TwiML that connects an answered call to Raaga: its settings resolved over the layers and checked (voice
 * included), a call token bound to the CallSid. An account without an auth token cannot have its provider requests
 * signed, so its stream goes to the generic path (the token pays) without stream or connect callbacks. With `once`,
 * the token is the one this CallSid was first answered with (TWILIO_ANSWER_WINDOW_MS): the same request then gets
 * the identical TwiML.
 */
async function streamAnswer(request: WebhookRequest, context: WebhookContext, checked: ProviderAccount, callSid: string, layers: Layers, once = false): Promise<{ readonly body: string; readonly repeated: boolean }> {
  const accountId = checked.account.id;
  // Checked first: a refused answer (422) holds nothing, so the request corrected (or retried) is answered afresh.
  const resolved = await context.checkedCallParameters(checked.account, layers);
  const { token, repeated } = once ? await context.heldCallToken('twilio-answer', accountId, callSid, TWILIO_ANSWER_WINDOW_MS) : { token: context.mintCallToken(accountId, callSid), repeated: false };
  const parameters = { ...compact(resolved.settings), ...resolved.value.custom, [TOKEN_PARAMETER]: token };
  const base = request.origin();
  const signed = providerRequestsAllowed(twilioCredentials, checked.settings);
  try {
    const body = streamTwiml({
      streamUrl: streamUrlFor(base, signed ? `${TWILIO_MEDIA_PATH}/${accountId}` : TWILIO_MEDIA_PATH),
      streamName: `raaga-${callSid.slice(-12)}`,
      parameters,
      ...(signed ? { statusCallback: `${base}${TWILIO_STATUS_PATH}/${accountId}`, connectAction: `${base}${TWILIO_CONNECT_ACTION_PATH}/${accountId}` } : {}),
    });
    return { body, repeated };
  } catch (error) {
    if (error instanceof TwimlParameterError) throw new ApiError('validation_error', error.message);
    throw error;
  }
}

// The query is the call's settings, greeting text included (quiet: the framework's request lines, which log the URL,
// stay off; the one line below carries ids only). A console set to HTTP GET sends the call's fields in the query and
// signs the URL with no body parameters.
const voiceWebhook: ProviderWebhook = {
  methods: ['POST', 'GET'],
  path: `${TWILIO_VOICE_PATH}/:accountId`,
  quiet: true,
  async handle(request, context) {
    const isGet = request.method === 'GET';
    const form = isGet ? request.query : request.body;
    const accountId = request.params.accountId ?? '';
    // Who asks comes first (a stranger gets 403, busy or not); then this process's capacity, before any token or
    // call parameters: the caller hears busy, nothing is billed. The slot itself is taken by the stream's upgrade,
    // which may still refuse if another call took the last one.
    const checked = await context.admitAccount(accountId, 'twilio webhook');
    if (isReply(checked)) return checked;
    if (context.callAdmission.check('twilio') !== undefined) return twiml(rejectBusyTwiml());
    const callSid = form.CallSid;
    if (!callSid) throw new ApiError('bad_request', 'CallSid is missing: this endpoint is a Twilio voice webhook.');
    // On GET, Twilio's own fields share the query with the call settings; they are not settings.
    const query = isGet ? withoutProviderFields(request.query) : request.query;
    // One answer per CallSid: a retry or a replay of this signed request gets the same TwiML, with the same token.
    const answer = await streamAnswer(request, context, checked, callSid, [checked.settings?.defaults, query, { ...compact({ from: form.From, to: form.To }), ...twilioCallFacts(form) }], true);
    if (answer.repeated) context.serverLog.warn({ reqId: request.id, accountId, callSid }, 'twilio voice webhook answered again (a retry or a replay): the same call token, good for one stream');
    else context.serverLog.info({ reqId: request.id, accountId, callSid }, 'twilio voice webhook answered');
    return twiml(answer.body);
  },
};

// An outbound call Raaga placed (POST /v1/calls), answered: its settings come from the call record, the URL's token
// proves Raaga made the URL (an account with only an API key has no auth token to sign with), and with AMD Twilio
// asks only once it decided who answered.
const outboundAnswer: ProviderWebhook = {
  methods: ['POST'],
  path: `${outboundPath('twilio')}/:accountId/:callId/:token`,
  quiet: true,
  async handle(request, context) {
    const { accountId = '', callId = '', token = '' } = request.params;
    const form = request.body;
    if (!context.outbound.isValidUrlToken(accountId, callId, token)) return NOT_FOUND;
    const account = await context.account(accountId);
    const settings = await context.settings(accountId);
    if (!account) {
      context.log.warn({ accountId, callId }, 'twilio outbound answer refused: no such account');
      return FORBIDDEN;
    }
    const refused = await context.authenticate(settings, 'twilio outbound answer');
    if (refused) return refused;
    const callSid = form.CallSid;
    if (!callSid || !CALL_ID_PATTERN.test(callSid)) throw new ApiError('bad_request', 'CallSid is missing: this endpoint is the answer URL of a Twilio call Raaga placed.');
    const answer = await context.outbound.answered(accountId, callId, { streamCallId: callSid, answeredBy: twilioAnsweredBy(form) });
    if (!answer) return NOT_FOUND;
    context.log.info({ accountId, callId, callSid, action: answer.action, answeredBy: form.AnsweredBy }, 'twilio outbound call answered');
    if (answer.action === 'hangup') return twiml(hangupTwiml());
    return twiml((await streamAnswer(request, context, { account, settings }, callSid, [settings?.defaults, answer.layer])).body);
  },
};

// Twilio asks here when the <Connect> of Raaga's TwiML ends: a transfer the call made by ending its
// stream (no REST credentials) is dialled now, wherever the call ran (the call-control bus still knows it for a
// while after it ended); anything else hangs up, as the end of Raaga's TwiML always did.
const connectAction: ProviderWebhook = {
  methods: ['POST'],
  path: `${TWILIO_CONNECT_ACTION_PATH}/:accountId`,
  async handle(request, context) {
    const form = request.body;
    const accountId = request.params.accountId ?? '';
    const checked = await context.admitAccount(accountId, 'twilio webhook');
    if (isReply(checked)) return checked;
    const callSid = form.CallSid ?? '';
    const answer = CALL_ID_PATTERN.test(callSid) ? await context.calls.send(callSid, accountId, { type: 'after_stream' }) : undefined;
    const transfer = answer?.ok ? answer.afterStream : undefined;
    context.log.info({ accountId, callSid, transfer: transfer ? 'dial' : 'hangup' }, 'twilio connect action');
    const action = dialActionUrl(request.origin(), accountId, {});
    return twiml(transfer ? dialTwiml(transfer.to, { callerId: transfer.callerId, timeoutS: transfer.timeoutS }, action) : hangupTwiml());
  },
};

// A transfer's <Dial> is over: a connected transfer ends the call; a failed one (busy, no answer,
// failed, canceled) comes back to the bot, which learns why in call_started's `transfer_status`, or, without an
// agent, speaks the fallback message and hangs up. The query is the call's own settings (dialActionUrl).
const dialAction: ProviderWebhook = {
  methods: ['POST'],
  path: `${TWILIO_DIAL_ACTION_PATH}/:accountId`,
  quiet: true,
  async handle(request, context) {
    const form = request.body;
    const accountId = request.params.accountId ?? '';
    const checked = await context.admitAccount(accountId, 'twilio webhook');
    if (isReply(checked)) return checked;
    const callSid = form.CallSid;
    if (!callSid || !CALL_ID_PATTERN.test(callSid)) throw new ApiError('bad_request', 'CallSid is missing: this endpoint is the action of a <Dial> Raaga asked for.');
    const status = form.DialCallStatus ?? 'failed';
    const settings = { ...(checked.settings?.defaults ?? {}), ...withoutProviderFields(request.query) };
    context.log.info({ accountId, callSid, dialCallStatus: status }, 'twilio transfer ended');
    const fallback = settings.fallback_message ?? context.config.agentFallbackMessage;
    if (status === 'completed' || status === 'answered' || (!settings.agent_url && fallback === '')) return twiml(hangupTwiml());
    const resumed: Record<string, string> = settings.agent_url ? { transfer_status: status } : { transfer_status: status, greeting: fallback, hangup_after_greeting: 'true', greeting_interruptible: 'false' };
    return twiml((await streamAnswer(request, context, checked, callSid, [settings, resumed, compact({ from: form.From, to: form.To })])).body);
  },
};

const streamStatus: ProviderWebhook = {
  methods: ['POST'],
  path: `${TWILIO_STATUS_PATH}/:accountId`,
  async handle(request, context) {
    const form = request.body;
    const accountId = request.params.accountId ?? '';
    const checked = await context.admitAccount(accountId, 'twilio webhook');
    if (isReply(checked)) return checked;
    const fields = { accountId, callSid: form.CallSid, streamSid: form.StreamSid, event: form.StreamEvent };
    if (form.StreamEvent === 'stream-error') {
      // StreamError is Twilio's error code (31920-class): counted so a failing stream setup shows on /metrics.
      context.metrics?.telephonyStreamError('twilio', /^\d{5}$/.test(form.StreamError ?? '') ? (form.StreamError as string) : 'unknown');
      context.log.warn({ ...fields, error: form.StreamError }, 'twilio stream error');
    } else {
      context.log.info(fields, 'twilio stream status');
    }
    return NO_CONTENT;
  },
};

export const twilioWebhooks: readonly ProviderWebhook[] = [voiceWebhook, outboundAnswer, connectAction, dialAction, streamStatus];
