// A call's agent link over real loopback sockets: it dials the address the destination policy checked, refuses
// agent messages over 64 KiB with 1009, and reports an agent that never answered only at the connect deadline,
// so a closed port, a port that hangs up and a silent one end the call at the same moment.

import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { CallSession } from '../../../src/session/call-session.js';
import { AgentLink, MAX_AGENT_MESSAGE_BYTES } from '../../../src/telephony/agent/agent-link.js';
import { DestinationPolicy } from '../../../src/telephony/destination/destination-policy.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const CONNECT_TIMEOUT_MS = 5000;

/** The call side of the link: records what the link tells the call. */
function recordingCall() {
  const seen: string[] = [];
  let lost!: () => void;
  const agentLost = new Promise<void>((resolve) => (lost = resolve));
  const call = {
    attachAgent: () => void seen.push('attached'),
    agentLost: () => {
      seen.push('lost');
      lost();
    },
    receive: () => void seen.push('receive'),
    receiveInvalid: () => void seen.push('invalid'),
  } as unknown as CallSession;
  return { call, seen, agentLost };
}

function logger() {
  const warned: string[] = [];
  let unavailable!: () => void;
  const gone = new Promise<void>((resolve) => (unavailable = resolve));
  return {
    warned,
    gone,
    log: {
      warn: (_fields: object, message: string) => {
        warned.push(message);
        if (message === 'call agent unavailable') unavailable();
      },
      info: () => undefined,
    },
  };
}

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => server.close());
  return (server.address() as AddressInfo).port;
}

async function dial(url: string, clock: FakeClock, policy = new DestinationPolicy(['127.0.0.0/8'])) {
  const checked = await policy.check(url, ['ws', 'wss']);
  if (!checked.ok) throw new Error(checked.reason);
  const { call, seen, agentLost } = recordingCall();
  const log = logger();
  new AgentLink(call, { destination: checked, connectTimeoutMs: CONNECT_TIMEOUT_MS, clock, callSid: 'CAtest', wantsAudio: false, logger: log.log });
  return { seen, agentLost, log };
}

describe('agent link', () => {
  it('connects to the checked address under the URL host name, and closes a 64 KiB+ message with 1009', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(wss, 'listening');
    closers.push(() => wss.close());
    const port = (wss.address() as AddressInfo).port;
    const hosts: (string | undefined)[] = [];
    const closed = new Promise<number>((resolve) =>
      wss.on('connection', (socket, request) => {
        hosts.push(request.headers.host);
        socket.on('close', (code) => resolve(code));
        socket.send('x'.repeat(MAX_AGENT_MESSAGE_BYTES + 1));
      }),
    );
    // agent.invalid resolves nowhere in DNS: only the policy's own answer can have taken the link here.
    const policy = new DestinationPolicy(['127.0.0.1/32'], async () => [{ address: '127.0.0.1', family: 4 }]);
    const { seen, agentLost } = await dial(`ws://agent.invalid:${port}/agent`, new FakeClock(), policy);
    expect(await closed).toBe(1009);
    await agentLost;
    expect(hosts).toEqual([`agent.invalid:${port}`]);
    expect(seen).toEqual(['attached', 'lost']);
  });

  it.each([
    ['a closed port', 'closed'],
    ['a port that hangs up at once', 'hangs-up'],
    ['a port that answers not HTTP', 'junk'],
  ])('%s is reported at the connect deadline, not before', async (_name, kind) => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => {
      sockets.push(socket);
      if (kind === 'hangs-up') socket.destroy();
      else socket.end('-ERR unknown command\r\n');
    });
    const port = await listen(server);
    if (kind === 'closed') {
      server.close();
      await once(server, 'close');
    }
    const clock = new FakeClock();
    const { seen, agentLost, log } = await dial(`ws://127.0.0.1:${port}/`, clock);
    await log.gone;
    expect(seen).toEqual([]);
    await clock.advance(CONNECT_TIMEOUT_MS - 1);
    expect(seen).toEqual([]);
    await clock.advance(1);
    await agentLost;
    expect(seen).toEqual(['lost']);
  });
});
