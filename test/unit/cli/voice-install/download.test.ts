// Where a voice download's redirects may lead, over real loopback sockets: a redirect may not move into a
// non-public network other than the host the operator's URL named (a blind GET from the operator's machine
// otherwise), while a local mirror given directly, and redirects on its own host, still work.

import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download } from '../../../../src/cli/voice-install/download.js';

const BODY = Buffer.from('a voice file, small enough for a test\n'.repeat(50));
const CHECKSUM = { algorithm: 'sha256' as const, hex: createHash('sha256').update(BODY).digest('hex') };

interface Listener {
  readonly server: Server;
  /** `http://host:port` as a URL names it. */
  readonly base: string;
  readonly requests: string[];
}

const listeners: Listener[] = [];
let dir: string;

/** A loopback HTTP server: `/file` is the body, `/go?to=<url>` redirects there (302); every path is recorded. */
async function listen(host: string): Promise<Listener> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    requests.push(url.pathname);
    if (url.pathname === '/file') response.writeHead(200, { 'content-length': BODY.length }).end(BODY);
    else if (url.pathname === '/go') response.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const listener = { server, base: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, requests };
  listeners.push(listener);
  return listener;
}

let origin: Listener;
let sameHost: Listener;
let otherLoopback: Listener;
let ipv6Loopback: Listener;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-download-'));
  origin = await listen('127.0.0.1');
  sameHost = await listen('127.0.0.1');
  otherLoopback = await listen('127.0.0.2');
  ipv6Loopback = await listen('::1');
});
afterAll(async () => {
  for (const { server } of listeners) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await rm(dir, { recursive: true, force: true });
});

const redirectTo = (target: string) => `${origin.base}/go?to=${encodeURIComponent(target)}`;
const fetchTo = (url: string, name: string) => download(url, join(dir, name), { maxBytes: 1 << 20, checksum: CHECKSUM });

describe('redirects of a voice download', () => {
  it.each([
    ['another loopback address', () => `${otherLoopback.base}/file`, 'loopback', '127.0.0.2', () => otherLoopback],
    ['IPv6 loopback', () => `${ipv6Loopback.base}/file`, 'loopback', '::1', () => ipv6Loopback],
  ])('to %s are refused before anything connects there', async (_label, target, range, address, listener) => {
    const before = listener().requests.length;
    await expect(fetchTo(redirectTo(target()), `refused-${address}`)).rejects.toThrow(
      `${redirectTo(target())} redirects to ${target()}, refused: it points at a ${range} address (${address}), and a redirect may lead to a non-public address only on the host the download started from; give that URL directly if it is your own mirror`,
    );
    expect(listener().requests.length).toBe(before);
    // Nothing was written: no file and no part left behind.
    expect((await readdir(dir)).filter((name) => name.startsWith(`refused-${address}`))).toEqual([]);
  });

  it('within the original host are followed, on another port too', async () => {
    const got = await fetchTo(redirectTo(`${sameHost.base}/file`), 'same-host');
    expect(got).toEqual({ sizeBytes: BODY.length, sha256: CHECKSUM.hex });
    expect(await readFile(join(dir, 'same-host'))).toEqual(BODY);
    expect(sameHost.requests).toEqual(['/file']);
    const relative = await fetchTo(redirectTo('/file'), 'same-port');
    expect(relative.sizeBytes).toBe(BODY.length);
  });

  it('do not hinder a non-public mirror given directly, nor its redirects to itself', async () => {
    const direct = await fetchTo(`${otherLoopback.base}/file`, 'direct');
    expect(direct).toEqual({ sizeBytes: BODY.length, sha256: CHECKSUM.hex });
    const own = await fetchTo(`${ipv6Loopback.base}/go?to=${encodeURIComponent(`${ipv6Loopback.base}/file`)}`, 'own-redirect');
    expect(own.sizeBytes).toBe(BODY.length);
    expect(await readFile(join(dir, 'own-redirect'))).toEqual(BODY);
  });
});
