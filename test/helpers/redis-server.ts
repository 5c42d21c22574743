// A real Redis for the tests (never a mock): RAAGA_TEST_REDIS_URL or REDIS_URL when set (CI exports the former),
// else a redis-server from PATH spawned on a free port for this test file; without either, a loud skip.
// Tests isolate themselves with a unique key prefix and delete their keys at the end, so files run in parallel.

import { afterAll } from 'vitest';
import { hasRedisServer, spawnRedisServer } from './redis-process.js';

export { deleteKeys, freePort, rawClient, spawnRedisServer, uniquePrefix, type SpawnedRedis } from './redis-process.js';

export interface TestRedis {
  /** undefined when no Redis can be had: the suite must skip, saying `skipReason`. */
  readonly url: string | undefined;
  readonly skipReason: string;
}

/** The Redis for this test file; registers its own teardown. Call once, at the top level of the file. */
export async function useTestRedis(suite: string): Promise<TestRedis> {
  const given = process.env.RAAGA_TEST_REDIS_URL || process.env.REDIS_URL;
  if (given) return { url: given, skipReason: '' };
  if (!hasRedisServer()) return skip(suite, 'no RAAGA_TEST_REDIS_URL/REDIS_URL and no redis-server on PATH');
  const server = await spawnRedisServer();
  afterAll(() => server.stop());
  return { url: server.url, skipReason: '' };
}

/** For tests that must stop and start their own Redis: never the shared one. */
export function canSpawnRedis(suite: string): { ok: boolean; skipReason: string } {
  if (hasRedisServer()) return { ok: true, skipReason: '' };
  const reason = 'redis-server is not on PATH (this test stops and restarts its own Redis)';
  warnSkip(suite, reason);
  return { ok: false, skipReason: reason };
}

function skip(suite: string, reason: string): TestRedis {
  warnSkip(suite, reason);
  return { url: undefined, skipReason: reason };
}

/** Under CI (`.ci/run` exports CI=true and starts Redis) a missing Redis is a failure, never a skip. */
function warnSkip(suite: string, reason: string): void {
  if (process.env.CI) throw new Error(`Redis suite "${suite}" cannot run under CI: ${reason}`);
  console.warn(`\n!!! SKIPPING Redis suite "${suite}": ${reason}. Set RAAGA_TEST_REDIS_URL or install redis-server. !!!\n`);
}
