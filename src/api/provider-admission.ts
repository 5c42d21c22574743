// The one admission of a provider's request, for every provider, media upgrades and webhooks alike: the URL's account
// must take this provider's requests (its credentials configured, or unsigned requests allowed; a bare 403 otherwise,
// the same for an unknown account), then the provider module's authenticator must accept the request against the
// account's settings, and a nonce it names is claimed once on every instance (a replay is a 403).

import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { storeCall } from '../core/store-call.js';
import { ACCOUNT_ID_PATTERN, type Store, type TelephonySettings } from '../store/store.js';
import { providerRequestsAllowed } from '../telephony/provider-credentials.js';
import type { ProviderModule } from '../telephony/provider-module.js';
import type { Form, ProviderRequest } from '../telephony/provider-request.js';
import type { ProviderAccount } from '../telephony/provider-webhook.js';
import type { TelephonyContext } from './context.js';
import { publicOrigin } from './public-origin.js';

export interface Refusal {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

const FORBIDDEN: Refusal = { status: 403 };

type AdmissionStore = Pick<Store, 'getAccount' | 'getTelephonySettings' | 'holdKey'>;

/** A fastify request as a provider module's authenticator reads it; the public origin is worked out once, if asked. */
export function providerRequest(request: FastifyRequest, telephony: Pick<TelephonyContext, 'config'>, options: { readonly media: boolean; readonly form: Form }): ProviderRequest {
  let origin: string | undefined;
  return {
    method: request.method === 'POST' ? 'POST' : 'GET',
    url: request.url,
    media: options.media,
    upgrade: Boolean(request.raw.headers.upgrade),
    headers: request.headers,
    params: request.params as Readonly<Record<string, string | undefined>>,
    form: options.form,
    origin: () => (origin ??= publicOrigin(telephony.config, request)),
  };
}

/** The account a provider URL names, once it may take this provider's requests; otherwise logged and undefined. */
export async function providerAccount(store: AdmissionStore, module: ProviderModule, accountId: string, log: FastifyBaseLogger): Promise<ProviderAccount | undefined> {
  const provider = module.name;
  const account = ACCOUNT_ID_PATTERN.test(accountId) ? await storeCall(() => store.getAccount(accountId)) : null;
  const settings = account ? await storeCall(() => store.getTelephonySettings(accountId)) : null;
  if (!account || !providerRequestsAllowed(module.credentials, settings)) {
    // An unknown account gets the same bare 403 as one without credentials: the URL does not tell which ids exist.
    log.warn(
      { accountId, provider },
      account
        ? `${provider} request refused: the account has no ${provider} credentials (raaga telephony set) and does not allow unsigned requests`
        : `${provider} request refused: no such account`,
    );
    return undefined;
  }
  return { account, settings };
}

/** The module's authenticator over these settings, and its nonce claimed; the refusal, or undefined when accepted. */
export async function authenticateProviderRequest(
  store: AdmissionStore,
  module: ProviderModule,
  request: ProviderRequest,
  settings: TelephonySettings | null,
  log: FastifyBaseLogger,
  what: string,
): Promise<Refusal | undefined> {
  const accountId = request.params.accountId ?? settings?.accountId;
  const verdict = module.authenticate(request, settings);
  if (!verdict.ok) {
    log.warn({ accountId, provider: module.name, reason: verdict.reason }, `${what} refused`);
    return { status: verdict.status, headers: verdict.headers };
  }
  if (verdict.once) {
    const { scope, key, ttlMs } = verdict.once;
    const seen = randomUUID();
    if ((await storeCall(() => store.holdKey(scope, key, seen, ttlMs))) !== seen) {
      log.warn({ accountId, provider: module.name }, `${what} refused: replayed (its nonce was seen before)`);
      return FORBIDDEN;
    }
  }
  return undefined;
}

/** Both steps for the account the URL names: the account and its settings, or the refusal to send. */
export async function admitProviderRequest(
  store: AdmissionStore,
  module: ProviderModule,
  accountId: string,
  request: ProviderRequest,
  log: FastifyBaseLogger,
  what: string,
): Promise<ProviderAccount | Refusal> {
  const checked = await providerAccount(store, module, accountId, log);
  if (!checked) return FORBIDDEN;
  return (await authenticateProviderRequest(store, module, request, checked.settings, log, what)) ?? checked;
}

export function isRefusal(value: ProviderAccount | Refusal): value is Refusal {
  return 'status' in value;
}

export function sendRefusal(reply: FastifyReply, refusal: Refusal): FastifyReply {
  reply.code(refusal.status);
  for (const [name, value] of Object.entries(refusal.headers ?? {})) reply.header(name, value);
  return reply.send();
}
