// Store selection from Config, shared by the server (deps.ts) and the CLI so both always open the same store:
// RedisStore when REDIS_URL is set, otherwise the embedded MemoryStore in RAAGA_DATA_DIR.

import type { Config } from '../config.js';
import { MemoryStore } from './memory-store.js';
import { RedisStore, type RedisStoreEvent } from './redis-store.js';
import { redactUrl } from './redis/replies.js';
import type { Store } from './store.js';

export type StoreConfig = Pick<
  Config,
  'dataDir' | 'redisUrl' | 'redisKeyPrefix' | 'redisCommandTimeoutMs' | 'redisConnectTimeoutMs' | 'redisCluster'
>;

export async function openStore(config: StoreConfig, onRedisEvent?: (event: RedisStoreEvent) => void): Promise<Store> {
  if (config.redisUrl === undefined) return MemoryStore.open({ dataDir: config.dataDir });
  return RedisStore.connect({
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
  if (config.redisUrl === undefined) return `embedded store in ${config.dataDir}`;
  return `Redis${config.redisCluster ? ' Cluster' : ''} at ${redactUrl(config.redisUrl)} (key prefix ${config.redisKeyPrefix})`;
}
