// A loopback stand-in for the call-control part of Plivo's REST API (and of Vobiz's, which copies it) for benches
// that drive inbound calls: DELETE {base}/v1/Account/{auth_id}/Call/{uuid}/ hangs the call up (204), POST with
// legs=aleg and aleg_url transfers it (202; the stand-in fetches the transfer XML, signed, as Plivo would). Then it
// ends the call's media stream as the provider does when a call leaves the stream: the peer sends stop and closes.

import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallPeer } from '../../src/sim/call-peer.js';
import { plivoSignatureHeaders } from '../../src/sim/dialects/plivo-answer-client.js';
import { readBody } from '../../test/helpers/provider-apis.js';

export interface FakePlivoRest {
  /** `${url}/${prefix}` is an account's plivoApiBaseUrl. */
  readonly url: string;
  /** Requests answered, by `${prefix} ${method}` (e.g. `vobiz POST`), and failures (bad auth, a transfer XML not served). */
  readonly counts: Record<string, number>;
  /** The live call's peer, by CallUUID, so that a hangup or transfer ends its stream. */
  readonly peers: Map<string, CallPeer>;
  close(): Promise<void>;
}

/** `accounts`: per path prefix (`plivo`, `vobiz`), the auth id and token the account stored. */
export async function startFakePlivoRest(accounts: Readonly<Record<string, { authId: string; authToken: string }>>): Promise<FakePlivoRest> {
  const counts: Record<string, number> = {};
  const count = (key: string) => (counts[key] = (counts[key] ?? 0) + 1);
  const peers = new Map<string, CallPeer>();
  const server: Server = createServer((request, response) => {
    void answer(request).then(
      (status) => response.writeHead(status, { 'content-type': 'application/json' }).end(status === 202 ? '{"message":"call transferred"}' : undefined),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });

  async function answer(request: IncomingMessage): Promise<number> {
    const body = await readBody(request);
    const match = /^\/([a-z]+)\/v1\/Account\/([^/]+)\/Call\/([^/]+)\/$/.exec(request.url ?? '');
    const account = match && accounts[match[1]!];
    if (!match || !account || match[2] !== account.authId) return count('not-found'), 404;
    if (request.headers.authorization !== `Basic ${Buffer.from(`${account.authId}:${account.authToken}`).toString('base64')}`) return count('unauthorized'), 401;
    const prefix = match[1]!;
    const peer = peers.get(decodeURIComponent(match[3]!));
    count(`${prefix} ${request.method}`);
    if (request.method === 'DELETE') {
      setImmediate(() => void peer?.stop());
      return peer ? 204 : 404;
    }
    if (request.method !== 'POST') return 405;
    const form = new URLSearchParams(body);
    const xmlUrl = form.get('aleg_url');
    if (form.get('legs') !== 'aleg' || xmlUrl === null) return 400;
    // Plivo fetches the new XML for the A leg, then the call leaves the stream.
    setImmediate(() => {
      void fetch(xmlUrl, { headers: plivoSignatureHeaders(account.authToken, 'GET', xmlUrl, {}) })
        .then(async (xml) => {
          if (xml.status !== 200 || !(await xml.text()).includes('<Dial')) count(`${prefix} transfer-xml-failed`);
        })
        .catch(() => count(`${prefix} transfer-xml-failed`))
        .finally(() => void peer?.stop());
    });
    return peer ? 202 : 404;
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    peers,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
