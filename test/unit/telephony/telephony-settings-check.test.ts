// The check of telephony settings against every provider module (telephony-settings-check.ts): each credential in
// its module's format, "go together" groups whole, no credential that no module declares, and the store's own rules
// (account-wide fields) behind them, with the messages `raaga telephony set` prints.

import { describe, expect, it } from 'vitest';
import type { TelephonySettings } from '../../../src/store/store.js';
import { assertTelephonySettings } from '../../../src/telephony/telephony-settings-check.js';

const settings = (credentials: Record<string, string>, extra: Partial<TelephonySettings> = {}): TelephonySettings => ({ accountId: 'acct_t', credentials, ...extra, updatedAtMs: 1 });

describe('assertTelephonySettings', () => {
  it("takes every provider's credentials in their formats", () => {
    expect(() =>
      assertTelephonySettings(
        settings(
          {
            twilioAuthToken: 'f00dfeedf00dfeedf00dfeedf00dfeed',
            twilioAccountSid: 'AC' + 'a'.repeat(32),
            twilioApiKey: 'SK' + 'b'.repeat(32),
            twilioApiSecret: 'secret-secret-secret',
            twilioApiBaseUrl: 'https://api.sydney.au1.twilio.com',
            exotelCredentials: 'exo-user:exo-secret-123',
            exotelApiKey: 'exotel-key-1',
            exotelApiToken: 'exotel-token-1',
            exotelAccountSid: 'raaga1',
            exotelApiBaseUrl: 'https://api.in.exotel.com',
            plivoAuthId: 'MAXXXXXXXXXXXXXXXXXX',
            plivoAuthToken: 'plivo-token-0123456789',
            plivoApiBaseUrl: 'http://127.0.0.1:8099/plivo',
            smartfloToken: 'sf_0123456789abcdefghijklmn',
            asteriskCredentials: 'asterisk:ast-secret-99',
          },
          { webhookSecret: 'whsec-0123456789abcdef', callingHours: '09:00-21:00' },
        ),
      ),
    ).not.toThrow();
    expect(() => assertTelephonySettings({ accountId: 'acct_t', updatedAtMs: 1 })).not.toThrow();
  });

  it("refuses a credential its provider's format refuses, naming the field", () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ twilioAccountSid: 'nope' }, /^invalid telephony settings: twilioAccountSid must be AC followed by 32 hex digits$/],
      [{ twilioApiKey: 'AC' + 'b'.repeat(32), twilioApiSecret: 'secret-secret-secret' }, /twilioApiKey must be SK followed by 32 hex digits/],
      [{ twilioAuthToken: 'short' }, /twilioAuthToken must be 8-256 printable characters without spaces/],
      [{ plivoApiBaseUrl: 'https://api.vobiz.example/plivo/' }, /plivoApiBaseUrl must be https:\/\/host\[:port\]\[\/path\] without a trailing slash/],
      [{ plivoAuthId: 'ma123', plivoAuthToken: 'plivo-token-0123456789' }, /plivoAuthId must be 20 capital letters and digits/],
      [{ exotelCredentials: 'no-colon-here' }, /exotelCredentials must be user:secret/],
      [{ asteriskCredentials: 'user:short' }, /asteriskCredentials must be user:secret/],
      [{ smartfloToken: 'has/slash-0123456789abcdefgh' }, /smartfloToken must be 24-128 letters, digits, - or _/],
      [{ exotelAccountSid: 'a' }, /exotelAccountSid must be 2-64 letters/],
    ];
    for (const [credentials, message] of cases) expect(() => assertTelephonySettings(settings(credentials)), JSON.stringify(credentials)).toThrow(message);
  });

  it('refuses a "go together" group stored in part', () => {
    expect(() => assertTelephonySettings(settings({ twilioApiKey: 'SK' + 'b'.repeat(32) }))).toThrow('invalid telephony settings: twilioApiKey and twilioApiSecret go together');
    expect(() => assertTelephonySettings(settings({ exotelApiToken: 'exotel-token-1' }))).toThrow('invalid telephony settings: exotelApiKey and exotelApiToken go together');
    expect(() => assertTelephonySettings(settings({ plivoAuthToken: 'plivo-token-0123456789' }))).toThrow('invalid telephony settings: plivoAuthId and plivoAuthToken go together');
  });

  it('refuses a credential no provider declares, and what the store refuses', () => {
    expect(() => assertTelephonySettings(settings({ vonageApiKey: 'key-key-key-key' }))).toThrow(/invalid telephony settings: vonageApiKey is no provider's credential/);
    expect(() => assertTelephonySettings(settings({}, { webhookSecret: 'short' }))).toThrow('invalid telephony settings: webhookSecret must be 16-256 printable characters without spaces');
    expect(() => assertTelephonySettings(settings({}, { callingTimeZone: 'Mars/Olympus' }))).toThrow(/callingTimeZone must be an IANA time zone/);
  });
});
