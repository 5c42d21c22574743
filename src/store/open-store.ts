// Store selection from Config, shared by the server (deps.ts) and the CLI so both always open the same store:
// RedisStore when REDIS_URL is set, otherwise the embedded SqliteStore in RAAGA_DATA_DIR.

import type { Config } from '../config.js';
import { RedisStore, type RedisStoreEvent } from './redis-store.js';
import { SqliteStore } from './sqlite-store.js';
import { redactUrl } from './redis/replies.js';
import type { Store } from './store.js';

export type StoreConfig = Pick<
  Config,
  'dataDir' | 'usageRetentionMs' | 'redisUrl' | 'redisKeyPrefix' | 'redisCommandTimeoutMs' | 'redisConnectTimeoutMs' | 'redisCluster'
>;

export async function openStore(config: StoreConfig, onRedisEvent?: (event: RedisStoreEvent) => void): Promise<Store> {
  if (config.redisUrl === undefined) return SqliteStore.open({ dataDir: config.dataDir, usageRetentionMs: config.usageRetentionMs });
  return RedisStore.connect({
    usageRetentionMs: config.usageRetentionMs,
    url: config.redisUrl,
    keyPrefix: config.redisKeyPrefix,
    commandTimeoutMs: config.redisCommandTimeoutMs,
    connectTimeoutMs: config.redisConnectTimeoutMs,
    cluster: config.redisCluster,
    ...(onRedisEvent ? { onEvent: onRedisEvent } : {}),
  });
}

/** Where the store lives, for startup logs and CLI help (never includes a password). */
export function describeStore(config: StoreConfig): string {
  if (config.redisUrl === undefined) return `embedded store (SQLite) in ${config.dataDir}`;
  return `Redis${config.redisCluster ? ' Cluster' : ''} at ${redactUrl(config.redisUrl)} (key prefix ${config.redisKeyPrefix})`;
}
