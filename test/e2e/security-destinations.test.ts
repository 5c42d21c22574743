// The destination policy at every door a tenant can hand Raaga a URL through, on a server with the default
// ALLOWED_PRIVATE_DESTINATIONS (empty): POST /v1/calls, the voice webhook's query, and a media stream's start
// parameters. A loopback listener stands for the operator's internal service and records any connection.

import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawStream, unsignedAccount } from '../helpers/telephony.js';
import { authHeaders, startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;
let internal: Server;
let internalPort = 0;
const connections: Socket[] = [];
let tenant: { id: string; keys: string[] };

beforeAll(async () => {
  internal = createServer((socket) => {
    connections.push(socket);
    socket.destroy();
  });
  internal.listen(0, '127.0.0.1');
  await once(internal, 'listening');
  internalPort = (internal.address() as AddressInfo).port;
  server = await startTestServer(
    { ALLOWED_PRIVATE_DESTINATIONS: '', TTS_WORKERS: '1' },
    { vad: null, resolveHost: async (host) => [{ address: host === 'rebind.example.test' ? '10.0.0.5' : '203.0.113.80', family: 4 }] },
  );
  tenant = await unsignedAccount(server);
});
afterAll(async () => {
  await server?.close();
  internal?.close();
});

async function placeCall(body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/v1/calls`, {
    method: 'POST',
    headers: authHeaders(tenant.keys[0] as string),
    body: JSON.stringify({ provider: 'twilio', to: '+919812345678', from: '+14155550100', greeting: 'नमस्ते', ...body }),
  });
  return { status: response.status, json: (await response.json()) as { error: { code: string; message: string } } };
}

describe('POST /v1/calls refuses inside destinations with 422 naming the field', () => {
  it.each([
    ['agent_url', () => `ws://127.0.0.1:${internalPort}/`, 'loopback'],
    ['agent_url', () => `ws://[::ffff:127.0.0.1]:${internalPort}/`, 'loopback'],
    ['agent_url', () => `ws://0x7f000001:${internalPort}/`, 'loopback'],
    ['agent_url', () => 'ws://localhost:9200/_cluster', 'loopback'],
    ['agent_url', () => 'ws://rebind.example.test/agent', 'private'],
    ['status_webhook', () => 'http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['status_webhook', () => 'http://10.0.0.5:6379/', 'private'],
  ])('%s %s', async (field, url, range) => {
    const { status, json } = await placeCall({ [field]: url() });
    expect(status).toBe(422);
    expect(json.error.code).toBe('validation_error');
    expect(json.error.message).toContain(`Field '${field}' points at a ${range} address`);
    expect(json.error.message).toContain('ALLOWED_PRIVATE_DESTINATIONS');
  });
});

describe('calls', () => {
  it("the voice webhook refuses an agent_url in its query with 422", async () => {
    const response = await fetch(`${server.url}/v1/telephony/twilio/voice/${tenant.id}?agent_url=${encodeURIComponent(`ws://127.0.0.1:${internalPort}/`)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ CallSid: `CA${'5'.repeat(32)}`, From: '+919812345678', To: '+918000000000' }).toString(),
    });
    expect(response.status).toBe(422);
    const json = (await response.json()) as { error: { code: string; message: string } };
    expect(json.error).toMatchObject({ code: 'validation_error' });
    expect(json.error.message).toContain("call parameter 'agent_url' points at a loopback address");
  });

  it('a media stream whose start names an inside agent is refused (1008) before anything connects', async () => {
    const stream = RawStream.open(`${server.url.replace('http', 'ws')}/v1/telephony/twilio/media`);
    await stream.opened;
    stream.start(`CA${'6'.repeat(32)}`, { raaga_api_key: tenant.keys[0] as string, agent_url: `ws://127.0.0.1:${internalPort}/redis`, greeting: 'नमस्ते' });
    const closed = await stream.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toMatch(/^call parameter 'agent_url' points at a loopback address/);
    // The refusal comes before the call is built; the agent would be dialled only after it started.
    expect(stream.received.filter((message) => message.event === 'media')).toEqual([]);
    expect(connections).toEqual([]);
  });
});
