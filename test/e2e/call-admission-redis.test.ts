// Two instances on one Redis, A at TELEPHONY_MAX_CALLS=1: A's refusals (its webhook and a stream routed to it) come
// before the store's admission, so the account's slot leases, credit reservations, balance and rate window in Redis
// are exactly as before, and the same call then runs on B.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyLayout } from '../../src/store/redis/key-layout.js';
import { CallPeer } from '../../src/sim/call-peer.js';
import { fetchStreamInstruction } from '../../src/sim/dialects/twilio-voice-webhook-client.js';
import { deleteKeys, rawClient, uniquePrefix, useTestRedis } from '../helpers/redis-server.js';
import { eventually, unsignedAccount } from '../helpers/telephony.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const redis = await useTestRedis('call admission across instances');

describe.skipIf(!redis.url)('a refusal on one instance leaks nothing in the shared store', () => {
  const keyPrefix = uniquePrefix('admission');
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const env = { REDIS_URL: redis.url ?? '', REDIS_KEY_PREFIX: keyPrefix, TTS_WORKERS: '1', RAAGA_CALL_TOKEN_SECRET: 'shared-secret-'.repeat(4) };
    [a, b] = await Promise.all([startTestServer({ ...env, TELEPHONY_MAX_CALLS: '1' }, { vad: null }), startTestServer(env, { vad: null })]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await deleteKeys(redis.url ?? '', keyPrefix);
  });

  it("A at its limit refuses; the account's slots, reservations, credits and window in Redis are unchanged, and B takes the call", async () => {
    const acct = await unsignedAccount(a, 'growth', 100_000);
    const keys = new KeyLayout(keyPrefix).forAccount(acct.id);
    const raw = await rawClient(redis.url!);
    // What the account holds in the store: lease holders (their expiry moves on renewal), reservations, balance, window.
    const stored = async () => ({
      leases: (await raw.zrange(keys.leases, '0', '-1')).sort(),
      reservations: await raw.zrange(keys.reservations, '0', '-1'),
      reservedCredits: await raw.hgetall(keys.reservedCredits),
      credits: (await b.deps.store.getAccount(acct.id))!.credits,
      window: await raw.zcard(keys.window),
    });
    const onto = (server: TestServer, streamUrl: string) => `${server.url.replace(/^http/, 'ws')}${new URL(streamUrl).pathname}`;
    const peers: CallPeer[] = [];
    try {
      // The first call: answered by B, its stream on A, where it takes A's one slot and one of the account's.
      const first = await fetchStreamInstruction({ url: `${b.url}/v1/telephony/twilio/voice/${acct.id}` });
      peers.push(await CallPeer.connect({ url: onto(a, first.streamUrl), callSid: first.params.CallSid!, customParameters: first.parameters }));
      await eventually(() => a.deps.telephony!.calls.localCalls() === 1, 'the first call live on A');
      await eventually(async () => (await stored()).leases.length === 1, "the first call's lease in Redis");
      const held = await stored();

      // A refuses the second call at its webhook, and a stream of it (answered by B) that the balancer sends to A.
      await expect(fetchStreamInstruction({ url: `${a.url}/v1/telephony/twilio/voice/${acct.id}` })).rejects.toThrow('rejected the call (busy)');
      const second = await fetchStreamInstruction({ url: `${b.url}/v1/telephony/twilio/voice/${acct.id}` });
      await expect(CallPeer.connect({ url: onto(a, second.streamUrl), callSid: second.params.CallSid!, customParameters: second.parameters })).rejects.toThrow(/503/);
      expect(await stored()).toEqual(held);
      expect(a.deps.telephony!.callAdmission.liveCalls).toBe(1);

      // The same call's stream on B is taken: the account's second slot was never touched by A.
      peers.push(await CallPeer.connect({ url: onto(b, second.streamUrl), callSid: second.params.CallSid!, customParameters: second.parameters }));
      await eventually(() => b.deps.telephony!.calls.localCalls() === 1, 'the second call live on B');
      await eventually(async () => (await stored()).leases.length === 2, 'two leases, one per live call');
      await Promise.all(peers.map((peer) => peer.stop()));
      await eventually(async () => (await stored()).leases.length === 0, 'every lease released');
      expect(await stored()).toMatchObject({ reservations: [], reservedCredits: {}, credits: 100_000 });
    } finally {
      await Promise.all(peers.map((peer) => peer.drop()));
      raw.disconnect();
    }
  });
});
