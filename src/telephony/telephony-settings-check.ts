// The one check of an account's telephony settings against every provider module, where settings are written
// (`raaga telephony set`, `raaga store import`): the store checks the account-wide fields and the credentials map's
// shape only (store/telephony-settings.ts); each credential's format and which credentials go together are the rules
// its provider module declares (provider-credentials.ts), so a new provider's credentials need nothing here.

import type { TelephonySettings } from '../store/store.js';
import { assertStoredTelephonySettings } from '../store/telephony-settings.js';
import type { CredentialField } from './provider-credentials.js';
import { PROVIDERS } from './providers.js';

const FIELDS: ReadonlyMap<string, CredentialField> = new Map(PROVIDERS.flatMap((module) => module.credentials.fields.map((field) => [field.field, field] as const)));

function invalid(problem: string): Error {
  return new Error(`invalid telephony settings: ${problem}`);
}

function listed(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * Throws `invalid telephony settings: <field> <problem>` for settings no provider would take: a credential no module
 * declares, one its module's format refuses, a "go together" group stored in part; then the store's own checks.
 */
export function assertTelephonySettings(settings: TelephonySettings): void {
  const credentials = settings.credentials ?? {};
  for (const [name, value] of Object.entries(credentials)) {
    const field = FIELDS.get(name);
    if (field === undefined) throw invalid(`${name} is no provider's credential (${[...FIELDS.keys()].join(', ')})`);
    const parsed = field.format.safeParse(value);
    if (!parsed.success) throw invalid(`${name} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
  }
  assertStoredTelephonySettings(settings);
  for (const module of PROVIDERS) {
    for (const group of module.credentials.together) {
      const stored = group.filter((name) => credentials[name] !== undefined).length;
      if (stored > 0 && stored < group.length) throw invalid(`${listed(group)} go together`);
    }
  }
}
