// Plivo's own endpoints: the answer URL (the <Stream> XML, with a call token bound to the CallUUID in the stream URL's
// path because extraHeaders cannot carry it, and the settings in its query), the answer URL of a call Raaga placed,
// the stream status callback, and the XML of a transferred call. Every request is admitted by the shared webhook
// admission over Plivo's authenticator (X-Plivo-Signature-V3, its nonce claimed once).

import { z } from 'zod';
import { ApiError } from '../../errors.js';
import { TRANSFER_FIELDS } from '../agent/agent-protocol.js';
import { outboundPath } from '../provider-module.js';
import { plivoCallFacts } from '../provider-call-facts.js';
import { isReply, NO_CONTENT, NOT_FOUND, type ProviderAccount, type ProviderWebhook, type WebhookContext, type WebhookReply, type WebhookRequest } from '../provider-webhook.js';
import { compact, withoutProviderFields } from '../webhook-form.js';
import { plivoBusyXml, plivoDialXml, plivoStreamXml } from './plivo-answer.js';
import { PLIVO_TRANSFER_PATH } from './plivo-call-control.js';

export const PLIVO_PREFIX = '/v1/telephony/plivo';
export const PLIVO_MEDIA_PATH = `${PLIVO_PREFIX}/media`;
const PLIVO_STATUS_PATH = `${PLIVO_PREFIX}/status`;
const CALL_UUID = /^[A-Za-z0-9-]{8,64}$/;

/** The query of a transferred call's XML URL: what Raaga's REST transfer put there (plivo-call-control.ts). */
const PlivoTransferQuerySchema = z.object(TRANSFER_FIELDS);

type Layers = ReadonlyArray<Readonly<Record<string, string>> | undefined>;

const xml = (body: string): WebhookReply => ({ status: 200, type: 'application/xml; charset=utf-8', body });

/**
 * The <Stream> XML of an answered Plivo call: settings resolved over the layers and checked (voice included), a call
 * token bound to the CallUUID in the stream URL's path, the settings in its query.
 */
async function streamAnswer(request: WebhookRequest, context: WebhookContext, checked: ProviderAccount, callUuid: string, layers: Layers): Promise<string> {
  const accountId = checked.account.id;
  await context.checkedCallParameters(checked.account, layers);
  const token = context.mintCallToken(accountId, callUuid);
  const settings = new URLSearchParams(Object.assign({}, ...layers.slice(1))).toString();
  const base = request.origin();
  return plivoStreamXml({
    streamUrl: `${base.replace(/^http/, 'ws')}${PLIVO_MEDIA_PATH}/${accountId}/${token}${settings ? `?${settings}` : ''}`,
    statusCallbackUrl: `${base}${PLIVO_STATUS_PATH}/${accountId}`,
  });
}

const answerUrl: ProviderWebhook = {
  methods: ['POST', 'GET'],
  path: `${PLIVO_PREFIX}/answer/:accountId`,
  quiet: true,
  async handle(request, context) {
    const form = request.method === 'GET' ? request.query : request.body;
    const accountId = request.params.accountId ?? '';
    // As Twilio's webhook: who asks first, then this process's capacity (a busy hangup, no stream, nothing billed).
    const checked = await context.admitAccount(accountId, 'plivo answer request');
    if (isReply(checked)) return checked;
    if (context.callAdmission.check('plivo') !== undefined) return xml(plivoBusyXml());
    const callUuid = form.CallUUID;
    if (!callUuid || !CALL_UUID.test(callUuid)) throw new ApiError('bad_request', 'CallUUID is missing: this endpoint is a Plivo answer URL.');
    // On GET, Plivo's own fields (capitalised) share the query with the call settings.
    const query = withoutProviderFields(request.query);
    const numbers = { ...compact({ from: form.From, to: form.To }), ...plivoCallFacts(form) };
    const answer = await streamAnswer(request, context, checked, callUuid, [checked.settings?.defaults, query, numbers]);
    context.serverLog.info({ reqId: request.id, accountId, callSid: callUuid }, 'plivo answer URL answered');
    return xml(answer);
  },
};

// An outbound call Raaga placed (POST /v1/calls), answered: its settings come from the call record; the URL's token
// proves Raaga made it, and Plivo's signature is checked as on the answer URL.
const outboundAnswer: ProviderWebhook = {
  methods: ['POST'],
  path: `${outboundPath('plivo')}/:accountId/:callId/:token`,
  quiet: true,
  async handle(request, context) {
    const { accountId = '', callId = '', token = '' } = request.params;
    if (!context.outbound.isValidUrlToken(accountId, callId, token)) return NOT_FOUND;
    const form = request.body;
    const checked = await context.admitAccount(accountId, 'plivo outbound answer');
    if (isReply(checked)) return checked;
    const callUuid = form.CallUUID;
    if (!callUuid || !CALL_UUID.test(callUuid)) throw new ApiError('bad_request', 'CallUUID is missing: this endpoint is the answer URL of a Plivo call Raaga placed.');
    const answer = await context.outbound.answered(accountId, callId, { streamCallId: callUuid });
    if (!answer) return NOT_FOUND;
    context.log.info({ accountId, callId, callSid: callUuid }, 'plivo outbound call answered');
    // Plivo ends a call a machine answered itself (machine_detection=hangup): no `hangup` answer arrives here.
    return xml(await streamAnswer(request, context, checked, callUuid, [checked.settings?.defaults, answer.layer]));
  },
};

const streamStatus: ProviderWebhook = {
  methods: ['POST'],
  path: `${PLIVO_STATUS_PATH}/:accountId`,
  async handle(request, context) {
    const form = request.body;
    const accountId = request.params.accountId ?? '';
    const checked = await context.admitAccount(accountId, 'plivo status callback');
    if (isReply(checked)) return checked;
    const fields = { accountId, callSid: form.CallUUID, streamId: form.StreamID, event: form.Event };
    if (form.Event === 'DroppedStream' || form.Event === 'DegradedStream') {
      context.metrics?.telephonyStreamError('plivo', form.Event);
      context.log.warn(fields, 'plivo stream error');
    } else {
      context.log.info(fields, 'plivo stream status');
    }
    return NO_CONTENT;
  },
};

// A transferred call's XML: Plivo fetches it after Raaga's REST transfer (plivo-call-control.ts), signed like the
// answer URL. The target is the one the agent or the REST API asked for, checked again here.
const transferXml: ProviderWebhook = {
  methods: ['GET'],
  path: `${PLIVO_TRANSFER_PATH}/:accountId`,
  quiet: true,
  async handle(request, context) {
    const checked = await context.admitAccount(request.params.accountId ?? '', 'plivo transfer request');
    if (isReply(checked)) return checked;
    const query = request.query;
    const timeout = query.timeout_s === undefined ? undefined : Number(query.timeout_s);
    const parsed = PlivoTransferQuerySchema.safeParse({ to: query.to, caller_id: query.caller_id, timeout_s: timeout });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiError('validation_error', `${issue?.path.join('.') ?? 'to'} ${issue?.message ?? 'is invalid'}`);
    }
    const { to, caller_id: callerId, timeout_s: timeoutS } = parsed.data;
    return xml(plivoDialXml(to, { callerId, timeoutS }));
  },
};

export const plivoWebhooks: readonly ProviderWebhook[] = [answerUrl, outboundAnswer, streamStatus, transferXml];
