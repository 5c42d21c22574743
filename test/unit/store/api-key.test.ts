// API keys: format, unbiased generation, stable hashing, constant-time hex comparison, revocation.

import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from '../../../src/store/api-key.js';
import { SqliteStore } from '../../../src/store/sqlite-store.js';

describe('api keys', () => {
  it('generates rk_live_ + 40 alphanumerics, all different', () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const key of keys) {
      expect(key).toMatch(/^rk_live_[A-Za-z0-9]{40}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
    expect(new Set(keys).size).toBe(keys.length);
    const alphabet = new Set(keys.join('').replaceAll('rk_live_', ''));
    expect(alphabet.size).toBe(62); // every base62 symbol shows up in 8000 draws
  });

  it('recognises well-formed keys only', () => {
    expect(isWellFormedApiKey(`rk_live_${'a'.repeat(32)}`)).toBe(true);
    expect(isWellFormedApiKey(`rk_live_${'a'.repeat(31)}`)).toBe(false);
    expect(isWellFormedApiKey(`rk_test_${'a'.repeat(40)}`)).toBe(false);
    expect(isWellFormedApiKey(`rk_live_${'a'.repeat(39)}-`)).toBe(false);
    expect(isWellFormedApiKey(` rk_live_${'a'.repeat(40)}`)).toBe(false);
  });

  it('hashes to stable SHA-256 hex', () => {
    const key = `rk_live_${'A'.repeat(40)}`;
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiKey(key)).not.toBe(hashApiKey(`rk_live_${'A'.repeat(39)}B`));
  });


  it('a revoked key is not found', async () => {
    const store = new SqliteStore();
    const account = await store.createAccount({ plan: 'free', credits: 0 });
    const key = generateApiKey();
    await store.addKeyHash(account.id, hashApiKey(key));
    expect((await store.findAccountByKeyHash(hashApiKey(key)))?.id).toBe(account.id);
    await store.revokeKeyHash(hashApiKey(key));
    expect(await store.findAccountByKeyHash(hashApiKey(key))).toBeNull();
    await store.close();
  });
});
