// RedisStore on Redis Cluster: a one-node cluster owning all 16384 slots still refuses any command or script whose
// keys hash to different slots (CROSSSLOT), so the whole contract passing here proves the key layout is Cluster-safe.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../../../src/store/redis-store.js';
import { canSpawnRedis, rawClient, spawnRedisServer, uniquePrefix, type SpawnedRedis } from '../../helpers/redis-server.js';
import { manualClock, runStoreContract } from '../../helpers/store-contract.js';

const spawnable = canSpawnRedis('RedisStore on Redis Cluster');
let server: SpawnedRedis | undefined;
let dir = '';

describe.skipIf(!spawnable.ok)('RedisStore on a one-node Redis Cluster', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'raaga-cluster-'));
    server = await spawnRedisServer({ extraArgs: ['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'), '--dir', dir,
      // A lone node does not know its own address, so it would advertise an empty one in CLUSTER SLOTS.
      '--cluster-announce-ip', '127.0.0.1'] });
    const raw = await rawClient(server.url);
    await raw.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
    for (let i = 0; i < 100 && !String(await raw.call('CLUSTER', 'INFO')).includes('cluster_state:ok'); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    raw.disconnect();
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('the server really is in cluster mode and refuses cross-slot scripts', async () => {
    const raw = await rawClient(server!.url);
    await expect(raw.eval("return redis.call('MGET', KEYS[1], KEYS[2])", 2, '{a}x', '{b}y')).rejects.toThrow(/slot/i);
    raw.disconnect();
  });

  runStoreContract('RedisStore (Cluster client, manual clock)', async () => {
    const clock = manualClock();
    const store = await RedisStore.connect({ url: server!.url, cluster: true, keyPrefix: uniquePrefix('cluster'), now: clock.now });
    return { store, clock };
  });
});
