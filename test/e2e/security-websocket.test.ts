// L6: WebSocket sessions cost a stranger with a key something to hold: each account has a cap on open sessions
// per server (configured or not), and a socket that never sends config is closed after 10 s (on the session clock).

import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxOpenSessions } from '../../src/api/open-sockets.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { eventually } from '../helpers/telephony.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { configMessage, wsUrl, WsTestClient } from '../helpers/ws-client.js';

let server: TestServer;
const clock = new FakeClock();

beforeAll(async () => {
  server = await startTestServer({ TTS_WORKERS: '1' }, { vad: null, webSocket: { clock } });
});
afterAll(async () => {
  await server?.close();
});

async function open(key: string): Promise<WsTestClient> {
  const client = new WsTestClient(new WebSocket(wsUrl(server), { headers: { authorization: `Bearer ${key}` } }));
  await client.opened;
  return client;
}

describe('L6', () => {
  it('a socket with no config within 10 s is told so and closed with 1008; one that configured stays', async () => {
    const { keys } = await server.account('growth', 1000);
    const silent = await open(keys[0]!);
    const configured = await open(keys[0]!);
    await Promise.all([silent.waitFor('connected'), configured.waitFor('connected')]);
    configured.send(configMessage());
    await configured.waitFor('configured');
    await clock.advance(9_999);
    expect(silent.closeInfo).toBeUndefined();
    await clock.advance(1);
    expect(await silent.closed).toMatchObject({ code: 1008 });
    expect(silent.ofType('error')[0]?.error).toMatchObject({ code: 'missing_websocket_config' });
    expect(configured.closeInfo).toBeUndefined();
    configured.socket.close();
    await configured.closed;
  });

  it('an account holds at most its cap of open sessions; a closed one makes room', async () => {
    const { keys } = await server.account('free', 1000);
    const cap = maxOpenSessions('free');
    const held: WsTestClient[] = [];
    for (let i = 0; i < cap; i++) {
      const client = await open(keys[0]!);
      await client.waitFor('connected');
      held.push(client);
    }
    const refused = await open(keys[0]!);
    expect(await refused.closed).toMatchObject({ code: 1008, reason: 'too many open sessions' });
    expect(refused.ofType('connected')).toEqual([]);
    expect(refused.ofType('error')[0]?.error).toMatchObject({ code: 'concurrency_limit_exceeded' });
    // Another account is not affected.
    const other = await server.account('free', 1000);
    const theirs = await open(other.keys[0]!);
    await theirs.waitFor('connected');
    theirs.socket.close();
    // Once one of the account's sockets has closed on the server, a new one is accepted.
    held[0]!.socket.close();
    await held[0]!.closed;
    await eventually(async () => {
      const retry = await open(keys[0]!);
      await Promise.race([retry.waitFor('connected').then(() => undefined), retry.closed]);
      const accepted = retry.ofType('connected').length === 1;
      retry.socket.close();
      return accepted;
    }, 'a freed place');
    for (const client of held.slice(1)) client.socket.close();
  });
});
