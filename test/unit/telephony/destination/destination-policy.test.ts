// The destination policy over real sockets: which addresses a tenant-given URL may reach, that the host is resolved
// once and the connection goes to the checked address, and that a refused destination is never connected to.

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DestinationPolicy, type Resolver } from '../../../../src/telephony/destination/destination-policy.js';
import { embeddedIpv4, nonPublicRange } from '../../../../src/telephony/destination/ip-ranges.js';
import { pinnedPost } from '../../../../src/telephony/destination/pinned-post.js';

const HTTP = ['http', 'https'];
const WS = ['ws', 'wss'];

describe('ranges', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.5', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['::10.0.0.1', 'private'],
    // SIIT's IPv4-translated form, unwrapped like the mapped one.
    ['::ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:10.0.0.1', 'private'],
    // 6to4 carries the IPv4 address a relay delivers to in its second and third groups.
    ['2002:a00:1::1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe:1::5', 'link-local'],
    ['64:ff9b:1::a00:1', 'local NAT64'],
    ['64:ff9b:1:ffff::808:808', 'local NAT64'],
    ['fec0::1', 'site-local'],
    ['feff::1', 'site-local'],
    ['100::1', 'discard-only'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.7', 'documentation'],
    ['2001:db8::1', 'documentation'],
  ])('%s is %s', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '172.32.0.1',
    '100.128.0.1',
    '192.0.3.1',
    '203.0.114.1',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '::ffff:0:8.8.8.8',
    '2002:808:808::1',
    '64:ff9b:2::1',
    '100:0:0:1::1',
    'fe7f::1',
  ])('%s is public', (address) => {
    expect(nonPublicRange(address)).toBeUndefined();
  });

  it('reads the IPv4 address inside mapped, compatible, SIIT, NAT64 and 6to4 forms only', () => {
    expect(embeddedIpv4('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(embeddedIpv4('::ffff:0:c000:201')).toBe('192.0.2.1');
    expect(embeddedIpv4('64:ff9b::c000:201')).toBe('192.0.2.1');
    expect(embeddedIpv4('2002:c000:201:7::9')).toBe('192.0.2.1');
    expect(embeddedIpv4('64:ff9b:1::c000:201')).toBeUndefined();
    expect(embeddedIpv4('::ffff:1:c000:201')).toBeUndefined();
    expect(embeddedIpv4('2001:db8::1')).toBeUndefined();
    expect(embeddedIpv4('::1')).toBeUndefined();
  });
});

describe('URLs', () => {
  const policy = new DestinationPolicy([], async () => [{ address: '93.184.215.14', family: 4 }]);

  it.each([
    ['ws://127.0.0.1:6379/', 'loopback'],
    ['ws://0x7f000001:6379/', 'loopback'],
    ['ws://2130706433/', 'loopback'],
    ['ws://[::ffff:127.0.0.1]:2375/', 'loopback'],
    ['ws://[::1]/', 'loopback'],
    ['ws://localhost:9200/_cluster', 'loopback'],
    ['ws://db.localhost/', 'loopback'],
    ['wss://169.254.169.254/latest/meta-data/', 'link-local'],
    ['ws://10.0.0.5:6379/', 'private'],
    ['ws://[::ffff:0:7f00:1]/', 'loopback'],
    ['ws://[::ffff:0:127.0.0.1]:6379/', 'loopback'],
    ['ws://[64:ff9b:1::a00:1]/', 'local NAT64'],
    ['ws://[2002:a00:1::1]/', 'private'],
    ['ws://[fec0::1]/', 'site-local'],
    ['ws://[100::1]/', 'discard-only'],
    ['ws://192.0.2.1/', 'documentation'],
    ['ws://198.51.100.1/', 'documentation'],
    ['ws://203.0.113.1/', 'documentation'],
  ])('%s is refused at once as %s', async (url, range) => {
    expect(policy.checkForm(url, WS)).toContain(`a ${range} address`);
    expect(await policy.check(url, WS)).toMatchObject({ ok: false, reason: expect.stringContaining('ALLOWED_PRIVATE_DESTINATIONS') });
  });

  it('refuses other schemes, credentials in the URL and what does not parse', () => {
    expect(policy.checkForm('http://agent.example/', WS)).toBe('must be a ws:// or wss:// URL');
    expect(policy.checkForm('ws://user:pw@agent.example/', WS)).toBe('must not carry a user name or password');
    expect(policy.checkForm('ws://', WS)).toBe('is not a valid URL');
    expect(policy.checkForm('wss://agent.example/path?q=1', WS)).toBeUndefined();
  });

  it('resolves a name once and refuses it when any of its addresses is not public', async () => {
    const answers: Record<string, { address: string; family: number }[]> = {
      'inside.example': [{ address: '10.0.0.5', family: 4 }],
      'both.example': [
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
      'public.example': [{ address: '93.184.215.14', family: 4 }],
    };
    const asked: string[] = [];
    const resolver: Resolver = async (host) => {
      asked.push(host);
      const found = answers[host];
      if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return found;
    };
    const named = new DestinationPolicy([], resolver);
    expect(await named.check('ws://inside.example/', WS)).toMatchObject({ ok: false, reason: expect.stringContaining('a private address (10.0.0.5)') });
    expect(await named.check('ws://both.example/', WS)).toMatchObject({ ok: false, reason: expect.stringContaining('loopback') });
    expect(await named.check('ws://missing.example/', WS)).toMatchObject({ ok: false, reason: 'has a host (missing.example) that does not resolve' });
    expect(await named.check('wss://public.example/agent', WS)).toMatchObject({ ok: true, address: '93.184.215.14', family: 4 });
    expect(asked).toEqual(['inside.example', 'both.example', 'missing.example', 'public.example']);
  });

  it('refuses a name that resolves to an IPv4-embedding or otherwise non-public IPv6 form (where translators exist)', async () => {
    const answers: Record<string, { address: string; family: number }> = {
      'siit.example': { address: '::ffff:0:7f00:1', family: 6 },
      'nat64-local.example': { address: '64:ff9b:1::a00:1', family: 6 },
      'sixtofour.example': { address: '2002:a00:1::1', family: 6 },
      'site-local.example': { address: 'fec0::1', family: 6 },
      'discard.example': { address: '100::1', family: 6 },
      'docs.example': { address: '198.51.100.20', family: 4 },
      'public-6to4.example': { address: '2002:808:808::1', family: 6 },
    };
    const named = new DestinationPolicy([], async (host) => [answers[host] ?? { address: '10.9.9.9', family: 4 }]);
    const reason = async (host: string) => {
      const checked = await named.check(`wss://${host}/agent`, WS);
      return checked.ok ? 'accepted' : checked.reason;
    };
    expect(await reason('siit.example')).toBe(
      'points at a loopback address (::ffff:0:7f00:1); Raaga connects only to public addresses unless its operator allows the network (ALLOWED_PRIVATE_DESTINATIONS)',
    );
    expect(await reason('nat64-local.example')).toContain('a local NAT64 address (64:ff9b:1::a00:1)');
    expect(await reason('sixtofour.example')).toContain('a private address (2002:a00:1::1)');
    expect(await reason('site-local.example')).toContain('a site-local address (fec0::1)');
    expect(await reason('discard.example')).toContain('a discard-only address (100::1)');
    expect(await reason('docs.example')).toContain('a documentation address (198.51.100.20)');
    // 6to4 is unwrapped, not refused whole: one wrapping a public IPv4 address is delivered to that public host.
    expect(await named.check('wss://public-6to4.example/agent', WS)).toMatchObject({ ok: true, address: '2002:808:808::1', family: 6 });
  });

  it("lets the operator's networks through, and only those", async () => {
    const allowing = new DestinationPolicy(['10.20.0.0/16', '127.0.0.1'], async () => [{ address: '10.20.3.4', family: 4 }]);
    expect(await allowing.check('ws://agents.internal/', WS)).toMatchObject({ ok: true, address: '10.20.3.4' });
    expect(await allowing.check('ws://127.0.0.1:8080/', WS)).toMatchObject({ ok: true });
    expect(await allowing.check('ws://[::ffff:127.0.0.1]:8080/', WS)).toMatchObject({ ok: true });
    expect(await allowing.check('ws://[2002:a14:304::1]:8080/', WS)).toMatchObject({ ok: true });
    expect(await allowing.check('ws://[2002:a15::1]:8080/', WS)).toMatchObject({ ok: false });
    expect(await allowing.check('ws://127.0.0.2:8080/', WS)).toMatchObject({ ok: false });
    expect(await allowing.check('ws://10.21.0.1/', WS)).toMatchObject({ ok: false });
  });
});

describe('pinned POSTs over real sockets', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  async function listener(answer: (body: string, host: string | undefined) => [number, string]): Promise<{ port: number; requests: { host: string | undefined; body: string }[] }> {
    const requests: { host: string | undefined; body: string }[] = [];
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        requests.push({ host: request.headers.host, body });
        const [status, text] = answer(body, request.headers.host);
        response.writeHead(status, status === 302 ? { location: '/elsewhere' } : {}).end(text);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { port: (server.address() as AddressInfo).port, requests };
  }

  const options = { headers: { 'content-type': 'application/json' }, body: '{"a":1}', timeoutMs: 10_000, maxResponseBytes: 64 };

  it('connects to the address it checked, whatever the name resolves to later (no second resolution)', async () => {
    const { port, requests } = await listener(() => [200, 'ok']);
    const answers = [[{ address: '127.0.0.1', family: 4 }]];
    let lookups = 0;
    const policy = new DestinationPolicy(['127.0.0.1/32'], async () => answers[lookups++] ?? [{ address: '10.9.9.9', family: 4 }]);
    const result = await pinnedPost(policy, `http://hooks.example.test:${port}/status`, HTTP, options);
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(lookups).toBe(1);
    expect(requests).toEqual([{ host: `hooks.example.test:${port}`, body: '{"a":1}' }]);
  });

  it('checks again at every attempt: a name that now resolves inside is not posted to', async () => {
    const { port, requests } = await listener(() => [200, 'ok']);
    let inside = false;
    const policy = new DestinationPolicy([], async () => [{ address: inside ? '127.0.0.1' : '93.184.215.14', family: 4 }]);
    expect((await policy.check(`http://rebind.example.test:${port}/`, HTTP)).ok).toBe(true);
    inside = true;
    const result = await pinnedPost(policy, `http://rebind.example.test:${port}/`, HTTP, options);
    expect(result).toMatchObject({ ok: false, failure: 'refused', reason: expect.stringContaining('loopback') });
    // The refusal is decided before any socket opens: nothing can arrive after it.
    expect(requests).toEqual([]);
  });

  it('follows no redirect, and an answer longer than the cap is no answer', async () => {
    const policy = new DestinationPolicy(['127.0.0.1/32']);
    const redirect = await listener(() => [302, '']);
    expect(await pinnedPost(policy, `http://127.0.0.1:${redirect.port}/`, HTTP, options)).toMatchObject({ ok: true, status: 302 });
    expect(redirect.requests).toHaveLength(1);
    server?.close();
    const long = await listener(() => [200, 'x'.repeat(10_000)]);
    expect(await pinnedPost(policy, `http://127.0.0.1:${long.port}/`, HTTP, options)).toEqual({ ok: false, failure: 'no-answer' });
  });

  it('a closed port and a failing one read the same: no answer', async () => {
    const policy = new DestinationPolicy(['127.0.0.1/32']);
    const { port } = await listener(() => [200, '']);
    server?.close();
    await once(server!, 'close');
    expect(await pinnedPost(policy, `http://127.0.0.1:${port}/`, HTTP, options)).toEqual({ ok: false, failure: 'no-answer' });
  });
});
