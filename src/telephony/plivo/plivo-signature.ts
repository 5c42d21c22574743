// X-Plivo-Signature-V3: base64 HMAC-SHA256, keyed with the auth token, of the URL (query sorted by name) plus, for
// POST, the sorted form fields concatenated as name+value, then '.' and the request's nonce
// (X-Plivo-Signature-V3-Nonce). The header may list several signatures separated by commas.
// The same construction as Plivo's SDKs (plivo-node utils/v3Security); test/unit/telephony/plivo holds signatures that
// plivo@4.79.0 accepted.

import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How long a signature's nonce is remembered (a V3 signature has no timestamp): a replay within it is refused. Plivo
 * sends a fresh nonce with every request, retries included.
 */
export const PLIVO_NONCE_WINDOW_MS = 24 * 3600_000;

export interface PlivoSignedRequest {
  readonly method: 'GET' | 'POST';
  /** The full public URL Plivo requested (query included). */
  readonly url: string;
  readonly nonce: string;
  /** Form fields of a POST; empty for GET. */
  readonly params: Readonly<Record<string, string>>;
}

export function plivoSignatureV3(authToken: string, request: PlivoSignedRequest): string {
  return createHmac('sha256', authToken).update(`${signedBase(request)}.${request.nonce}`).digest('base64');
}

export function isValidPlivoSignature(authToken: string, header: string | undefined, request: PlivoSignedRequest): boolean {
  if (!header || !request.nonce) return false;
  const expected = Buffer.from(plivoSignatureV3(authToken, request));
  return header.split(',').some((candidate) => {
    const given = Buffer.from(candidate.trim());
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function signedBase(request: PlivoSignedRequest): string {
  const url = new URL(request.url);
  const base = `${url.protocol}//${url.host}${url.pathname}`;
  const query = [...url.searchParams].sort(byNameThenValue).map(([name, value]) => `${name}=${value}`).join('&');
  const fields = Object.keys(request.params);
  if (request.method === 'GET' || fields.length === 0) return query.length > 0 ? `${base}?${query}` : base;
  // POST with fields: the URL always ends with '?' (and '.' after a query), then name+value per field, sorted.
  const body = fields.sort().map((name) => `${name}${request.params[name]}`).join('');
  return `${base}?${query}${query.length > 0 ? '.' : ''}${body}`;
}

function byNameThenValue(a: [string, string], b: [string, string]): number {
  return compare(a[0], b[0]) || compare(a[1], b[1]);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
