// API key format, generation and hashing. The spec only says "fixed prefix + body"; `rk_live_` + base62 is ours.
// Keys exist in clear only when generated (printed once); the store and logs only ever see the SHA-256 hash.

import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'rk_live_';
const BODY_LENGTH = 40;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Largest multiple of 62 that fits a byte: bytes at or above it are rejected so `% 62` stays uniform. */
const UNBIASED_LIMIT = 248;
const WELL_FORMED = /^rk_live_[A-Za-z0-9]{32,}$/;

/** A fresh key: 40 base62 chars ≈ 238 bits of entropy. */
export function generateApiKey(): string {
  let body = '';
  while (body.length < BODY_LENGTH) {
    for (const byte of randomBytes(BODY_LENGTH)) {
      if (byte >= UNBIASED_LIMIT) continue;
      body += BASE62[byte % 62];
      if (body.length === BODY_LENGTH) break;
    }
  }
  return API_KEY_PREFIX + body;
}

/**
 * How a key is named once created (CLI listings, the usage ledger's key id): `sha256:` + the first 12 hex of its
 * hash. Not secret, not reversible, unique enough to tell an account's keys apart.
 */
export function keyFingerprint(keyHash: string): string {
  return `sha256:${keyHash.slice(0, 12)}`;
}

export function isWellFormedApiKey(s: string): boolean {
  return WELL_FORMED.test(s);
}

/**
 * SHA-256 hex of the key. A fast unsalted hash is right here (unlike passwords): keys carry ~238 random
 * bits, so brute force is hopeless however fast the hash, and a deterministic hash lets the store look a
 * key up by its hash on every request without a per-key salt scan or a slow KDF on the hot path.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

