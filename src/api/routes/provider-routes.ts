// Every telephony provider's HTTP surface, derived from the provider registry (telephony/providers.ts): each module's
// media paths (telephony-media.ts) and its own webhooks, which are framework-free handlers given the shared services
// here (the provider admission, call parameters, call tokens). Registered in one scope with its own form-urlencoded
// parser: providers post forms, the rest of the API is JSON only.

import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { storeCall } from '../../core/store-call.js';
import type { ProviderModule } from '../../telephony/provider-module.js';
import type { ProviderRequest } from '../../telephony/provider-request.js';
import type { ProviderWebhook, WebhookContext, WebhookReply, WebhookRequest } from '../../telephony/provider-webhook.js';
import { PROVIDERS } from '../../telephony/providers.js';
import { formOf } from '../../telephony/webhook-form.js';
import type { ApiContext, TelephonyContext } from '../context.js';
import { admitProviderRequest, authenticateProviderRequest, isRefusal, providerRequest } from '../provider-admission.js';
import { checkedCallParameters, heldCallToken, mintCallToken, PROVIDER_ONLY, registerMediaEndpoints } from './telephony-media.js';

export function registerProviderRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const telephony = ctx.telephony;
  if (!telephony) return;
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    for (const module of PROVIDERS) {
      for (const webhook of module.webhooks ?? []) registerWebhook(scope, app.log, ctx, telephony, module, webhook);
    }
    registerMediaEndpoints(scope, ctx, telephony, PROVIDERS);
  });
}

function registerWebhook(scope: FastifyInstance, serverLog: FastifyBaseLogger, ctx: ApiContext, telephony: TelephonyContext, module: ProviderModule, webhook: ProviderWebhook): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.method === 'POST' ? formOf(request.body) : {};
    const asked = providerRequest(request, telephony, { media: false, form: body });
    const webhookRequest: WebhookRequest = { ...asked, id: request.id, query: formOf(request.query), body };
    const answer = await webhook.handle(webhookRequest, webhookContext(ctx, telephony, module, asked, request.log, serverLog));
    return send(reply, answer);
  };
  for (const method of webhook.methods) {
    // A quiet route's URL carries call settings or secrets: fastify's request lines (which log URLs) stay off.
    // Open while the server drains: a live call's status callbacks go on, and a new call is refused the provider's
    // own way (call admission's 'draining'), not with a 503 the provider would read as an application error.
    scope.route({ method, url: webhook.path, ...(webhook.quiet ? { logLevel: 'warn' as const } : {}), schema: PROVIDER_ONLY, config: { openWhileDraining: true }, handler });
  }
}

function webhookContext(ctx: ApiContext, telephony: TelephonyContext, module: ProviderModule, request: ProviderRequest, log: FastifyBaseLogger, serverLog: FastifyBaseLogger): WebhookContext {
  return {
    config: telephony.config,
    callAdmission: telephony.callAdmission,
    outbound: telephony.outbound,
    calls: telephony.calls,
    metrics: ctx.metrics,
    log,
    serverLog,
    admitAccount: async (accountId, what) => {
      const admitted = await admitProviderRequest(ctx.store, module, accountId, request, log, what);
      return isRefusal(admitted) ? { status: admitted.status, ...(admitted.headers ? { headers: admitted.headers } : {}) } : admitted;
    },
    authenticate: async (settings, what) => {
      const refused = await authenticateProviderRequest(ctx.store, module, request, settings, log, what);
      return refused && { status: refused.status, ...(refused.headers ? { headers: refused.headers } : {}) };
    },
    account: (accountId) => storeCall(() => ctx.store.getAccount(accountId)),
    settings: (accountId) => storeCall(() => ctx.store.getTelephonySettings(accountId)),
    checkedCallParameters: (account, layers) => checkedCallParameters(ctx, telephony, account, layers),
    mintCallToken: (accountId, callId) => mintCallToken(telephony, accountId, callId),
    heldCallToken: (scope, accountId, callId, windowMs) => heldCallToken(ctx, telephony, scope, accountId, callId, windowMs),
  };
}

function send(reply: FastifyReply, answer: WebhookReply): FastifyReply {
  reply.code(answer.status);
  for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
  if (answer.type !== undefined) reply.type(answer.type);
  return reply.send(answer.body);
}
