// GET /metrics: the Prometheus text exposition. Open by default (scraped from inside the network); with
// METRICS_TOKEN set it needs `Authorization: Bearer <token>`, compared in constant time.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.js';
import { z } from 'zod';
import type { ApiContext } from '../context.js';
import { errorResponses } from '../route-schemas.js';
import { sendApiError } from '../error-handler.js';

export const METRICS_PATH = '/metrics';

/** Hashing both sides first makes the comparison constant-time whatever the lengths. */
function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function registerMetricsRoute(app: FastifyInstance, ctx: ApiContext): void {
  const { metrics, metricsToken } = ctx;
  if (!metrics) return;
  const schema = {
    tags: ['operations'],
    operationId: 'metrics',
    summary: 'Prometheus metrics (text exposition format).',
    description: 'Open unless the server has METRICS_TOKEN; then `Authorization: Bearer <METRICS_TOKEN>` is required.',
    security: [{}, { metricsToken: [] }] as { [label: string]: string[] }[],
    response: { 200: { description: 'Metrics.', content: { 'text/plain': { schema: z.string() } } }, ...errorResponses(['invalid_api_key']) },
  };
  app.get(METRICS_PATH, { schema }, async (request, reply) => {
    if (metricsToken !== undefined) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
      if (!match?.[1] || !sameToken(match[1], metricsToken)) {
        return sendApiError(reply, new ApiError('invalid_api_key', "Missing or wrong metrics token: send 'Authorization: Bearer <METRICS_TOKEN>'."));
      }
    }
    const { contentType, body } = await metrics.render();
    return reply.header('Cache-Control', 'no-store').type(contentType).send(body);
  });
}
