// Who may read the metrics: with METRICS_TOKEN, a bearer of it; without one, only a listener on loopback (the API's
// when HOST is loopback, or the separate METRICS_PORT listener), and only a request that did not come through a
// reverse proxy (a same-host proxy makes a loopback listener public). Metrics reveal traffic and cache hits, so a
// public listener never serves them to strangers.

import type { IncomingHttpHeaders } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { ApiError } from '../errors.js';

export interface MetricsAccess {
  /** Required bearer token; undefined: none configured. */
  readonly token: string | undefined;
  /** Without a token, the listener serving /metrics is reachable from this machine only. */
  readonly loopbackOnly: boolean;
}

/** True for 127.0.0.0/8, ::1 and localhost: what only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  const plain = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

/** Hashing both sides first makes the comparison constant-time whatever the lengths. */
function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Headers a reverse proxy adds to what it forwards (RFC 7239 `Forwarded`, the de facto `X-Forwarded-*` and
 * `X-Real-IP`, and `Via`). A local scraper sends none of them. A proxy that adds none cannot be told from a local
 * client: docs/operations.md says to set METRICS_TOKEN or METRICS_PORT behind one.
 */
export const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'via'] as const;

/** The first proxy header the request carries, or undefined. */
function proxyHeader(headers: IncomingHttpHeaders): string | undefined {
  return PROXY_HEADERS.find((name) => headers[name] !== undefined);
}

/** Why this scrape is refused (an ApiError to answer with), or undefined when it may read the metrics. */
export function metricsRefusal(access: MetricsAccess, headers: IncomingHttpHeaders): ApiError | undefined {
  if (access.token === undefined) {
    if (!access.loopbackOnly) {
      return new ApiError(
        'invalid_api_key',
        'Metrics are not served on a public listener without a token: the operator must set METRICS_TOKEN, or METRICS_PORT (a loopback listener of its own), or bind HOST to loopback.',
      );
    }
    const forwarded = proxyHeader(headers);
    // Answered like a path that is not there: through the proxy, the internet sees no metrics endpoint.
    if (forwarded !== undefined) {
      return new ApiError(
        'not_found',
        `GET /metrics is not served to a request that came through a proxy (it carries ${forwarded}) unless the operator sets METRICS_TOKEN; scrape the loopback port directly, or set METRICS_PORT.`,
      );
    }
    return undefined;
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  if (!match?.[1] || !sameToken(match[1], access.token)) {
    return new ApiError('invalid_api_key', "Missing or wrong metrics token: send 'Authorization: Bearer <METRICS_TOKEN>'.");
  }
  return undefined;
}
