// A loopback HTTP server standing in for api.twilio.com in telephony tests: records each REST request (method,
// path, form body, basic-auth user) and answers call updates with a minimal Call resource.

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRestCall {
  readonly method: string;
  readonly path: string;
  readonly form: Record<string, string>;
  readonly user: string;
}

export class FakeTwilioApi {
  readonly requests: RecordedRestCall[] = [];

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<FakeTwilioApi> {
    let api: FakeTwilioApi | undefined;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const auth = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8');
        const path = req.url ?? '';
        api?.requests.push({ method: req.method ?? '', path, form: Object.fromEntries(new URLSearchParams(body)), user: auth.split(':')[0] ?? '' });
        const sid = /Calls\/([A-Za-z0-9]+)\.json/.exec(path)?.[1] ?? 'CA0';
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sid, status: 'in-progress' }));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    api = new FakeTwilioApi(server, `http://127.0.0.1:${port}`);
    return api;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
