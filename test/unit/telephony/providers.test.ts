// The provider registry holds together: names, paths and stored credential fields are each one provider's, named so
// the store keeps them (its credentials map) and never as an account-wide field; each derived list is what the
// modules declare; an account without a provider's credentials passes its authenticator (the gate before it refuses);
// and the simulator plays every registered provider.

import { describe, expect, it } from 'vitest';
import { storedCredentials } from '../../../src/sim/dial-provider.js';
import { TelephonySettingsSchema } from '../../../src/store/telephony-settings.js';
import type { ProviderRequest } from '../../../src/telephony/provider-request.js';
import { OUTBOUND_PROVIDERS, PLAYGROUND_PROVIDERS, PROVIDER_NAMES, PROVIDERS, providerModule } from '../../../src/telephony/providers.js';


function request(overrides: Partial<ProviderRequest>): ProviderRequest {
  return { method: 'POST', url: '/x', media: false, upgrade: false, headers: {}, params: { accountId: 'acct_x' }, form: {}, origin: () => 'https://raaga.example', ...overrides };
}

describe('provider registry', () => {
  it('names each provider once, and finds each by its name', () => {
    expect(new Set(PROVIDER_NAMES).size).toBe(PROVIDERS.length);
    for (const module of PROVIDERS) expect(providerModule(module.name)).toBe(module);
    expect(providerModule('nobody')).toBeUndefined();
  });

  it("gives every route to one provider, under its own /v1/telephony/<name>/", () => {
    const routes = PROVIDERS.flatMap((module) => [
      ...module.mediaPaths.map((path) => ({ provider: module.name, route: `GET ${path.path}` })),
      ...(module.webhooks ?? []).flatMap((webhook) => webhook.methods.map((method) => ({ provider: module.name, route: `${method} ${webhook.path}` }))),
    ]);
    expect(new Set(routes.map((entry) => entry.route)).size).toBe(routes.length);
    for (const { provider, route } of routes) expect(route).toMatch(new RegExp(`^(GET|POST) /v1/telephony/${provider}/`));
  });

  it("keeps each credential field in one provider's module, under a name the store's credentials map takes", () => {
    const fields = PROVIDERS.flatMap((module) => module.credentials.fields.map((field) => field.field));
    expect(new Set(fields).size).toBe(fields.length);
    const options = PROVIDERS.flatMap((module) => module.credentials.fields.map((field) => field.option));
    expect(new Set(options).size).toBe(options.length);
    for (const module of PROVIDERS) {
      for (const { field } of module.credentials.fields) {
        // Prefixed with its provider (no two providers' names can meet), and never an account-wide field's name.
        expect(field, module.name).toMatch(new RegExp(`^${module.name}[A-Z][A-Za-z0-9]*$`));
        expect(Object.keys(TelephonySettingsSchema.shape)).not.toContain(field);
      }
      for (const group of module.credentials.together) for (const field of group) expect(fields, module.name).toContain(field);
    }
  });

  it("reads a provider's values from the stored map, and only its own", () => {
    const settings = { accountId: 'acct_x', credentials: { twilioAuthToken: 'f00dfeedf00dfeedf00dfeedf00dfeed', plivoAuthToken: 'plivo-token-0123456789' }, updatedAtMs: 1 };
    expect(providerModule('twilio')!.credentials.read(settings)).toEqual({ twilioAuthToken: 'f00dfeedf00dfeedf00dfeedf00dfeed' });
    expect(providerModule('plivo')!.credentials.read(settings)).toEqual({ plivoAuthToken: 'plivo-token-0123456789' });
    expect(providerModule('exotel')!.credentials.read(settings)).toEqual({});
    expect(providerModule('exotel')!.credentials.read(null)).toEqual({});
    expect(providerModule('twilio')!.credentials.configured(settings)).toBe(true);
    expect(providerModule('exotel')!.credentials.configured(settings)).toBe(false);
    expect(providerModule('twilio')!.credentials.configured(null)).toBe(false);
  });

  it('derives the outbound and playground lists from what the modules declare, in registry order', () => {
    expect([...OUTBOUND_PROVIDERS]).toEqual(PROVIDERS.filter((module) => module.dialer).map((module) => module.name));
    expect([...PLAYGROUND_PROVIDERS]).toEqual(PROVIDERS.filter((module) => module.playground).map((module) => module.name));
  });

  it('accepts an account without stored credentials at the authenticator (the admission before it decides), and refuses a wrong one', () => {
    const bare = { accountId: 'acct_x', updatedAtMs: 1 };
    for (const module of PROVIDERS) {
      expect(module.authenticate(request({}), bare).ok, module.name).toBe(true);
      expect(module.authenticate(request({ media: true, method: 'GET' }), null).ok, module.name).toBe(true);
    }
    const configured = {
      ...bare,
      credentials: {
        twilioAuthToken: 'f00dfeedf00dfeedf00dfeedf00dfeed',
        smartfloToken: 'sf_0123456789abcdefghijklmn',
        exotelCredentials: 'exo-user:exo-secret-123',
        plivoAuthId: 'MAXXXXXXXXXXXXXXXXXX',
        plivoAuthToken: 'plivo-token-0123456789',
        asteriskCredentials: 'asterisk:ast-secret-99',
      },
    };
    const unsigned = request({ media: true, method: 'GET', params: { accountId: 'acct_x', secret: 'sf_wrongwrongwrongwrongwrong' } });
    for (const module of PROVIDERS) {
      const verdict = module.authenticate(unsigned, configured);
      expect(verdict.ok, module.name).toBe(!module.credentials.configured(configured) || module.credentials.fields.length === 0);
    }
    // Basic credentials are challenged (401), signatures and path secrets refused (403).
    expect(providerModule('exotel')!.authenticate(unsigned, configured)).toMatchObject({ ok: false, status: 401, headers: { 'www-authenticate': 'Basic realm="raaga"' } });
    expect(providerModule('twilio')!.authenticate(unsigned, configured)).toMatchObject({ ok: false, status: 403 });
  });

  it('has a simulated side for every registered provider', () => {
    for (const name of PROVIDER_NAMES) expect(() => storedCredentials(name, null)).not.toThrow();
  });
});
