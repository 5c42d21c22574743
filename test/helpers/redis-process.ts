// Real redis-server processes on free ports, and per-run key prefixes with their cleanup. No vitest here,
// so bench/ can use it too.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

let redisServerFound: boolean | undefined;
export function hasRedisServer(): boolean {
  redisServerFound ??= spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
  return redisServerFound;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface SpawnedRedis {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** Sends a signal (SIGSTOP freezes it: commands time out; SIGCONT resumes). */
  signal(signal: NodeJS.Signals): void;
  /** Kills it (SIGKILL by default) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts a new redis-server with the same arguments and port (data survives only with appendonly). */
  restart(): Promise<SpawnedRedis>;
  stop(): Promise<void>;
}

/**
 * Spawns `redis-server` on a free port (or `options.port`), without persistence unless `extraArgs` asks for it,
 * and resolves once it accepts connections.
 */
export async function spawnRedisServer(options: { port?: number; extraArgs?: readonly string[] } = {}): Promise<SpawnedRedis> {
  if (options.port !== undefined) return spawnOn(options.port, options.extraArgs);
  // The free port may be taken between probing and binding (parallel test files): try a few.
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnOn(await freePort(), options.extraArgs);
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

async function spawnOn(port: number, extraArgs: readonly string[] | undefined): Promise<SpawnedRedis> {
  const options = extraArgs ? { extraArgs } : {};
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...(options.extraArgs ?? [])];
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start on ${port}:\n${output}`));
    }, 10_000);
    const onData = (data: Buffer): void => {
      output += data.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  const spawned: SpawnedRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    process: child,
    signal: (signal) => void child.kill(signal),
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    restart: () => spawnRedisServer({ port, ...(options.extraArgs ? { extraArgs: options.extraArgs } : {}) }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGKILL');
      }
      await exited;
    },
  };
  return spawned;
}

export function uniquePrefix(tag = 't'): string {
  return `raaga-test-${tag}-${randomBytes(5).toString('hex')}:`;
}

/** Deletes every key under `prefix` (SCAN, never FLUSHDB: the Redis may be shared). */
export async function deleteKeys(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/** A raw client for assertions on the key layout; the caller disconnects it. */
export async function rawClient(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  return redis;
}
