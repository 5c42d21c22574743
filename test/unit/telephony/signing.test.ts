// X-Twilio-Signature vectors from twilio.getExpectedTwilioSignature (webhooks with form params, the media upgrade
// with none), and the call token that binds a call to the account that pays.

import twilio from 'twilio';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCallTokenSecret, signCallToken, verifyCallToken } from '../../../src/telephony/call-token.js';
import { isValidTwilioSignature, streamUrlFor } from '../../../src/telephony/twilio/twilio-signature.js';

const TOKEN = '12345';
const URL_WITH_QUERY = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS = { CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' };

describe('isValidTwilioSignature', () => {
  it('accepts the signature Twilio computes for the URL (query included) and the form params', () => {
    const signature = twilio.getExpectedTwilioSignature(TOKEN, URL_WITH_QUERY, PARAMS);
    expect(isValidTwilioSignature(TOKEN, signature, URL_WITH_QUERY, PARAMS)).toBe(true);
  });

  it('refuses another token, another URL, changed params, a missing header', () => {
    const signature = twilio.getExpectedTwilioSignature(TOKEN, URL_WITH_QUERY, PARAMS);
    expect(isValidTwilioSignature('54321', signature, URL_WITH_QUERY, PARAMS)).toBe(false);
    expect(isValidTwilioSignature(TOKEN, signature, 'https://mycompany.com/myapp.php?foo=1&bar=3', PARAMS)).toBe(false);
    expect(isValidTwilioSignature(TOKEN, signature, URL_WITH_QUERY, { ...PARAMS, Digits: '1235' })).toBe(false);
    expect(isValidTwilioSignature(TOKEN, undefined, URL_WITH_QUERY, PARAMS)).toBe(false);
  });

  it('media upgrade: the wss URL with empty params, with or without a trailing slash or the default port', () => {
    const url = streamUrlFor('https://raaga.example.com', '/v1/telephony/twilio/media/acct_1');
    expect(url).toBe('wss://raaga.example.com/v1/telephony/twilio/media/acct_1');
    const signature = twilio.getExpectedTwilioSignature(TOKEN, url, {});
    expect(isValidTwilioSignature(TOKEN, signature, url, {})).toBe(true);
    expect(isValidTwilioSignature(TOKEN, twilio.getExpectedTwilioSignature(TOKEN, `${url}/`, {}), url, {})).toBe(true);
    // Signed as https (a proxy's view) is not the wss URL Twilio signs.
    expect(isValidTwilioSignature(TOKEN, twilio.getExpectedTwilioSignature(TOKEN, url.replace('wss', 'https'), {}), url, {})).toBe(false);
  });
});

describe('call tokens', () => {
  const secret = 'x'.repeat(40);
  const claims = { accountId: 'acct_1', callSid: 'CA1', expiresAtMs: 2_000 };

  it('round-trip before expiry; refused after it, with another secret, or when altered', () => {
    const token = signCallToken(secret, claims);
    expect(verifyCallToken(secret, token, 1_999)).toEqual(claims);
    expect(verifyCallToken(secret, token, 2_000)).toBeNull();
    expect(verifyCallToken('y'.repeat(40), token, 0)).toBeNull();
    const [version, payload, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ a: 'acct_2', c: 'CA1', e: 2_000 })).toString('base64url');
    expect(verifyCallToken(secret, `${version}.${forged}.${mac}`, 0)).toBeNull();
    expect(verifyCallToken(secret, `${version}.${payload}`, 0)).toBeNull();
    expect(verifyCallToken(secret, 'garbage', 0)).toBeNull();
  });

  it('without a configured secret one is generated once into the data dir (0600) and reused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'raaga-secret-'));
    try {
      const first = loadCallTokenSecret(undefined, dir);
      expect(first.source).toBe('generated');
      expect(first.secret.length).toBeGreaterThanOrEqual(32);
      expect((await stat(join(dir, 'call-token.secret'))).mode & 0o777).toBe(0o600);
      expect(loadCallTokenSecret(undefined, dir)).toEqual({ secret: first.secret, source: 'file' });
      expect((await readFile(join(dir, 'call-token.secret'), 'utf8')).trim()).toBe(first.secret);
      expect(loadCallTokenSecret('configured-'.repeat(4), dir).source).toBe('config');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
