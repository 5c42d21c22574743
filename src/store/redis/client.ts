// The one home of ioredis clients: the store's and the call-control bus's connections share the reconnect policy
// and the fail-fast settings, so an outage looks the same to every part of an instance.

import { Cluster, Redis, type RedisOptions } from 'ioredis';

export const DEFAULT_COMMAND_TIMEOUT_MS = 500;
const DEFAULT_CONNECT_TIMEOUT_MS = 2000;
const MAX_RECONNECT_DELAY_MS = 1000;

/** Exponential from 100 ms, capped at a second: an instance notices a recovered Redis within a second. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(50 * 2 ** Math.min(attempt, 10), MAX_RECONNECT_DELAY_MS);
}

export type RedisClientEvent = { type: 'error'; message: string } | { type: 'ready' } | { type: 'reconnecting' };

export interface RedisClientOptions {
  readonly url: string;
  /** Redis Cluster with `url` as the seed node. */
  readonly cluster?: boolean;
  readonly commandTimeoutMs?: number;
  readonly connectTimeoutMs?: number;
  readonly connectionName?: string;
  /**
   * A subscriber connection: keeps its subscriptions across reconnects and queues its SUBSCRIBE while reconnecting;
   * command connections fail at once while disconnected instead.
   */
  readonly subscriber?: boolean;
  /** State changes, each reported once (not every retry). */
  readonly onEvent?: (event: RedisClientEvent) => void;
}

/** A lazily connecting client (call `connect()`); errors are reported through `onEvent`, never thrown at the process. */
export function createRedisClient(options: RedisClientOptions & { readonly cluster?: false }): Redis;
export function createRedisClient(options: RedisClientOptions): Redis | Cluster;
export function createRedisClient(options: RedisClientOptions): Redis | Cluster {
  const onEvent = options.onEvent ?? (() => undefined);
  const common: RedisOptions = {
    lazyConnect: true,
    connectTimeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // Never resend a command after a reconnect: an admission whose reply was lost may already have run.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: reconnectDelayMs,
    connectionName: options.connectionName ?? 'raaga',
    ...(options.subscriber
      ? { autoResubscribe: true }
      : {
          commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
          // Fail at once while disconnected instead of queueing: the request gets its 503 now, not after the outage.
          enableOfflineQueue: false,
        }),
  };
  let client: Redis | Cluster;
  if (options.cluster) {
    const seed = new URL(options.url);
    client = new Cluster([{ host: seed.hostname, port: Number(seed.port || 6379) }], {
      lazyConnect: true,
      enableOfflineQueue: options.subscriber === true,
      // The ready check is a CLUSTER INFO sent through the not-yet-ready cluster, which a queue-less client refuses.
      enableReadyCheck: false,
      clusterRetryStrategy: reconnectDelayMs,
      redisOptions: {
        ...common,
        // Node connections are created and driven by the Cluster client (which fails fast at its own level).
        lazyConnect: false,
        ...(seed.username ? { username: decodeURIComponent(seed.username) } : {}),
        ...(seed.password ? { password: decodeURIComponent(seed.password) } : {}),
        ...(seed.protocol === 'rediss:' ? { tls: {} } : {}),
      },
    });
  } else {
    client = new Redis(options.url, common);
  }
  // Without an 'error' listener ioredis would crash the process; log state changes once each, not every retry.
  let lastError = '';
  client.on('error', (error: Error) => {
    if (error.message !== lastError) onEvent({ type: 'error', message: error.message });
    lastError = error.message;
  });
  client.on('ready', () => {
    lastError = '';
    onEvent({ type: 'ready' });
  });
  client.on('reconnecting', () => onEvent({ type: 'reconnecting' }));
  return client;
}
