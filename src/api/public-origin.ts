// The origin providers dial and sign: PUBLIC_URL, else the request's own scheme and Host (fine without a proxy).
// Behind a TLS-terminating proxy without PUBLIC_URL that origin would be http://, every signature check would fail
// with a bare 403 and stream URLs would say ws://: such requests are refused loudly instead.

import type { FastifyRequest } from 'fastify';
import type { TelephonyConfig } from '../config.js';
import { ApiError } from '../errors.js';

export function publicOrigin(config: Pick<TelephonyConfig, 'publicUrl'>, request: FastifyRequest): string {
  if (config.publicUrl !== undefined) return config.publicUrl;
  if (viaHttpsProxy(request)) {
    request.log.error({}, 'telephony request through an HTTPS proxy but PUBLIC_URL is not set: set PUBLIC_URL to the public https origin');
    throw new ApiError('internal_error', 'This server is reached through an HTTPS proxy but PUBLIC_URL is not set; its operator must set PUBLIC_URL.');
  }
  return `${request.protocol}://${request.host}`;
}

function viaHttpsProxy(request: FastifyRequest): boolean {
  const forwardedProto = request.headers['x-forwarded-proto'];
  if (typeof forwardedProto === 'string' && /(^|,)\s*https\s*$/i.test(forwardedProto)) return true;
  const forwarded = request.headers.forwarded;
  return typeof forwarded === 'string' && /proto=https/i.test(forwarded);
}
