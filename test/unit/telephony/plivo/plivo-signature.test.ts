// X-Plivo-Signature-V3 against Plivo's own SDK: every signature below was checked with plivo@4.79.0's
// validateV3Signature (dist/utils/v3Security.js), which accepted it, on 2026-11-24. The cases cover what Raaga
// receives: a GET answer URL with a percent-encoded Devanagari query, POST callbacks with form fields (with and
// without a query), a repeated query name, a port, the wss stream URL, and '+' / %20 in the query.

import { describe, expect, it } from 'vitest';
import { isValidPlivoSignature, plivoSignatureV3, type PlivoSignedRequest } from '../../../../src/telephony/plivo/plivo-signature.js';

const TOKEN = 'plivo-token-0123456789';

const ACCEPTED_BY_PLIVO_SDK: readonly (PlivoSignedRequest & { readonly signature: string })[] = [
  {
    method: 'GET',
    url: 'https://raaga.example.com/v1/telephony/plivo/answer/acct_1?voice=meera&greeting=%E0%A4%A8%E0%A4%AE%E0%A4%B8%E0%A5%8D%E0%A4%A4%E0%A5%87&a=2',
    nonce: '05429567804466091622',
    params: {},
    signature: 'ANxYQoV+THniRWiTyVqy861YZ0tLeRN3N/AkRPWQ20k=',
  },
  {
    method: 'POST',
    url: 'https://raaga.example.com/v1/telephony/plivo/answer/acct_1',
    nonce: '12345678901234567890',
    params: { CallUUID: '97ceeb52-58b6-11e1-86da-77300b68f8bb', From: '+919800000001', To: '+918000000002', Direction: 'inbound' },
    signature: 'g8Ua9AU50ADWLw0w7x3DszutCoeZKnZKUFHPUlxyeWs=',
  },
  { method: 'POST', url: 'https://raaga.example.com/v1/telephony/plivo/answer/acct_1?voice=meera&b=1', nonce: '99999', params: { CallUUID: 'abc', Event: 'StartApp' }, signature: '5gFu5q5i7sSKtoOvYMKnRTR4vmqK2jHWiQhLPuBuaX0=' },
  { method: 'POST', url: 'https://raaga.example.com:8443/v1/telephony/plivo/status/acct_1?x=1&x=0', nonce: '7', params: {}, signature: 'K0j8skKCKaWBIw2xC/fwUCGrDfnkLNGx+yhahhB9neY=' },
  { method: 'GET', url: 'wss://raaga.example.com/v1/telephony/plivo/media/acct_1/rct1.abc.def', nonce: '42', params: {}, signature: 'lPCH2EWWkYKehtaWrnIl335+bX90HLRuAgQvVZNjGDo=' },
  { method: 'GET', url: 'http://127.0.0.1:18090/v1/telephony/plivo/answer/acct_dev?greeting=hello+world&voice=a%20b', nonce: '1', params: {}, signature: 'BVtev4I3koLz2szbbYhL0jua605jNL7ubsuTrNp8pSQ=' },
];

describe('X-Plivo-Signature-V3', () => {
  it.each(ACCEPTED_BY_PLIVO_SDK)('$method $url: the signature Plivo computes', ({ signature, ...request }) => {
    expect(plivoSignatureV3(TOKEN, request)).toBe(signature);
    expect(isValidPlivoSignature(TOKEN, signature, request)).toBe(true);
  });

  it('accepts any of several comma-separated signatures (Plivo sends one per active auth token)', () => {
    const { signature, ...request } = ACCEPTED_BY_PLIVO_SDK[1]!;
    expect(isValidPlivoSignature(TOKEN, `bm90LXRoaXMtb25l, ${signature}`, request)).toBe(true);
  });

  it('refuses another token, another nonce, a changed field or query, and a missing nonce or header', () => {
    const { signature, ...request } = ACCEPTED_BY_PLIVO_SDK[2]!;
    expect(isValidPlivoSignature('another-token-000000000', signature, request)).toBe(false);
    expect(isValidPlivoSignature(TOKEN, signature, { ...request, nonce: '99998' })).toBe(false);
    expect(isValidPlivoSignature(TOKEN, signature, { ...request, params: { ...request.params, Event: 'Hangup' } })).toBe(false);
    expect(isValidPlivoSignature(TOKEN, signature, { ...request, url: request.url.replace('b=1', 'b=2') })).toBe(false);
    expect(isValidPlivoSignature(TOKEN, signature, { ...request, nonce: '' })).toBe(false);
    expect(isValidPlivoSignature(TOKEN, undefined, request)).toBe(false);
  });
});
