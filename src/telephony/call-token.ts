// Which Raaga account pays for a call: the voice webhook (which knows the account) signs a short-lived token
// bound to the CallSid, and the media stream's `start` must carry it back as a <Parameter>. HMAC-SHA256 with a
// server secret every instance shares (RAAGA_CALL_TOKEN_SECRET, or one generated into the data dir).

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { ensurePrivateDirSync } from '../util/private-dir.js';
import { join } from 'node:path';

const VERSION = 'rct1';
export const CALL_TOKEN_SECRET_FILE = 'call-token.secret';

export interface CallTokenClaims {
  readonly accountId: string;
  readonly callSid: string;
  readonly expiresAtMs: number;
}

export function signCallToken(secret: string, claims: CallTokenClaims): string {
  const payload = Buffer.from(JSON.stringify({ a: claims.accountId, c: claims.callSid, e: claims.expiresAtMs })).toString('base64url');
  return `${VERSION}.${payload}.${mac(secret, payload)}`;
}

/** The claims of a genuine, unexpired token; null for anything else (never says which check failed). */
export function verifyCallToken(secret: string, token: string, nowMs: number): CallTokenClaims | null {
  const [version, payload, signature, extra] = token.split('.');
  if (version !== VERSION || !payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: { a?: unknown; c?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return null;
  }
  if (typeof claims.a !== 'string' || typeof claims.c !== 'string' || typeof claims.e !== 'number') return null;
  if (claims.e <= nowMs) return null;
  return { accountId: claims.a, callSid: claims.c, expiresAtMs: claims.e };
}

function mac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(`${VERSION}.${payload}`).digest('base64url');
}

/**
 * The configured secret, else `<dataDir>/call-token.secret`, created (0600, 32 random bytes) on first use.
 * Several instances must share it: set RAAGA_CALL_TOKEN_SECRET, or a token minted by one instance's webhook
 * fails on the instance that receives the stream.
 */
export function loadCallTokenSecret(configured: string | undefined, dataDir: string): { secret: string; source: 'config' | 'file' | 'generated' } {
  if (configured !== undefined) return { secret: configured, source: 'config' };
  const path = join(dataDir, CALL_TOKEN_SECRET_FILE);
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if (existing.length >= 32) return { secret: existing, source: 'file' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  ensurePrivateDirSync(dataDir);
  const secret = randomBytes(32).toString('base64url');
  // 'wx': two processes starting at once must not overwrite each other's secret.
  try {
    writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { secret: readFileSync(path, 'utf8').trim(), source: 'file' };
    throw error;
  }
  return { secret, source: 'generated' };
}
