// The METRICS_PORT listener: GET /metrics alone, on its own port (loopback by default), so the API's port can face
// the internet while Prometheus scrapes from inside. Same access rule and timeouts as the API's listener.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorEnvelope } from '../errors.js';
import type { ServerMetrics } from '../metrics/metrics.js';
import { metricsRefusal, type MetricsAccess } from './metrics-access.js';

export const METRICS_PATH = '/metrics';

export interface MetricsListenerOptions {
  readonly host: string;
  readonly port: number;
  readonly metrics: ServerMetrics;
  readonly access: MetricsAccess;
  readonly timeouts: { readonly headersMs: number; readonly requestMs: number };
}

export class MetricsListener {
  readonly #server: Server;

  constructor(private readonly options: MetricsListenerOptions) {
    const { headersMs, requestMs } = options.timeouts;
    this.#server = createServer({ headersTimeout: Math.min(headersMs, requestMs), requestTimeout: requestMs }, (request, response) => void this.#answer(request, response));
  }

  async listen(): Promise<AddressInfo> {
    await new Promise<void>((resolve, reject) => {
      const failed = (error: Error): void => reject(new Error(`metrics listener cannot bind ${this.options.host}:${this.options.port}: ${error.message}`));
      this.#server.once('error', failed);
      this.#server.listen(this.options.port, this.options.host, () => {
        this.#server.off('error', failed);
        resolve();
      });
    });
    return this.#server.address() as AddressInfo;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  async #answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?')[0];
    const json = (status: number, body: object): void => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    };
    if (request.method !== 'GET' || path !== METRICS_PATH) {
      json(404, { error: { status_code: 404, code: 'not_found', message: `This listener serves only GET ${METRICS_PATH}.` } });
      return;
    }
    const refusal = metricsRefusal(this.options.access, request.headers);
    if (refusal) {
      json(refusal.status, errorEnvelope(refusal));
      return;
    }
    const { contentType, body } = await this.options.metrics.render();
    response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
  }
}
