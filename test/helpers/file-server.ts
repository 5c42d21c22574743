// A loopback file server for download tests (voice packs, the voice catalog): plain HTTP or HTTPS with a
// certificate made at test time (openssl; the client trusts it through NODE_EXTRA_CA_CERTS). Serves files from a
// map, honours Range requests (resumed downloads), redirects, and can cut a body short to break a transfer.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Served =
  | { readonly body: Buffer; readonly contentType?: string; readonly cutAfterBytes?: number }
  | { readonly redirect: string }
  | { readonly status: number; readonly body?: string };

export interface FileServer {
  readonly url: string;
  /** Every request's path, in order, with its Range header. */
  readonly requests: { readonly path: string; readonly range: string | undefined }[];
  readonly files: Map<string, Served>;
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1 (file paths), made once per process. */
let tls: { readonly key: Buffer; readonly cert: Buffer; readonly certPath: string } | undefined;
export function loopbackCertificate(): { readonly key: Buffer; readonly cert: Buffer; readonly certPath: string } {
  if (tls) return tls;
  const dir = mkdtempSync(join(tmpdir(), 'raaga-tls-'));
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyPath, '-out', certPath], { stdio: 'ignore' });
  tls = { key: readFileSync(keyPath), cert: readFileSync(certPath), certPath };
  return tls;
}

export async function startFileServer(files: Record<string, Served>, options: { readonly https?: boolean } = {}): Promise<FileServer> {
  const map = new Map(Object.entries(files));
  const requests: { path: string; range: string | undefined }[] = [];
  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    const range = request.headers.range;
    requests.push({ path, range });
    const served = map.get(path);
    if (served === undefined) {
      response.writeHead(404).end('not found');
      return;
    }
    if ('redirect' in served) {
      response.writeHead(302, { location: served.redirect }).end();
      return;
    }
    if ('status' in served) {
      response.writeHead(served.status, { 'content-type': 'text/html' }).end(served.body ?? '');
      return;
    }
    let body = served.body;
    let status = 200;
    const headers: Record<string, string | number> = { 'content-type': served.contentType ?? 'application/octet-stream', 'accept-ranges': 'bytes' };
    const match = range === undefined ? null : /^bytes=(\d+)-$/.exec(range);
    if (match?.[1] !== undefined) {
      const from = Number(match[1]);
      if (from >= body.length) {
        response.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      headers['content-range'] = `bytes ${from}-${body.length - 1}/${body.length}`;
      body = body.subarray(from);
      status = 206;
    }
    headers['content-length'] = body.length;
    response.writeHead(status, headers);
    if (served.cutAfterBytes !== undefined && status === 200) {
      // A transfer that breaks: part of the body, then the connection closes (FIN, so the part is delivered first).
      response.write(body.subarray(0, served.cutAfterBytes), () => response.socket?.end());
      return;
    }
    response.end(body);
  };
  const server: Server = options.https ? createHttpsServer({ key: loopbackCertificate().key, cert: loopbackCertificate().cert }, handler) : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `${options.https ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    files: map,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
