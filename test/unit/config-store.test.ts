// Store selection settings in Config: REDIS_URL and its companions parse and validate as documented (every variable's
// documentation is held to the schema by config-reference.test.ts).

import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';
import { describeStore } from '../../src/store/open-store.js';

describe('store configuration', () => {
  it('defaults to the embedded store', () => {
    const config = parseConfig({});
    expect(config.redisUrl).toBeUndefined();
    expect(config).toMatchObject({ redisKeyPrefix: 'raaga:', redisCommandTimeoutMs: 500, redisConnectTimeoutMs: 2000, redisCluster: false });
    expect(describeStore(config)).toBe('embedded store (SQLite) in ./data');
  });

  it('takes Redis settings, and never shows the password when describing the store', () => {
    const config = parseConfig({
      REDIS_URL: 'redis://:hunter2@redis.internal:6380/2',
      REDIS_KEY_PREFIX: 'raaga-prod:',
      REDIS_COMMAND_TIMEOUT_MS: '250',
      REDIS_CLUSTER: 'true',
    });
    expect(config).toMatchObject({ redisUrl: 'redis://:hunter2@redis.internal:6380/2', redisKeyPrefix: 'raaga-prod:', redisCommandTimeoutMs: 250, redisCluster: true });
    expect(describeStore(config)).toBe('Redis Cluster at redis://:***@redis.internal:6380/2 (key prefix raaga-prod:)');
    expect(parseConfig({ REDIS_URL: '' }).redisUrl).toBeUndefined(); // VAR= means unset
  });

  it('rejects malformed values with the variable named', () => {
    expect(() => parseConfig({ REDIS_URL: 'localhost:6379' })).toThrow(ConfigError);
    expect(() => parseConfig({ REDIS_URL: 'localhost:6379' })).toThrow(/REDIS_URL/);
    expect(() => parseConfig({ REDIS_KEY_PREFIX: 'raaga:{x}:' })).toThrow(/REDIS_KEY_PREFIX/);
    expect(() => parseConfig({ REDIS_COMMAND_TIMEOUT_MS: '0' })).toThrow(/REDIS_COMMAND_TIMEOUT_MS/);
    expect(() => parseConfig({ RESERVATION_TTL_MS: '999' })).toThrow(/RESERVATION_TTL_MS/);
    expect(parseConfig({ RESERVATION_TTL_MS: '1000' }).reservationTtlMs).toBe(1000);
  });
});
