// GET /metrics on the API's listener: the Prometheus text exposition, to whom metrics-access.ts allows (a bearer of
// METRICS_TOKEN; without one, only when the listener is loopback and the request did not come through a proxy).
// Absent when METRICS_PORT serves it instead.

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ApiContext } from '../context.js';
import { sendApiError } from '../error-handler.js';
import { METRICS_PATH } from '../metrics-listener.js';
import { metricsRefusal } from '../metrics-access.js';
import { errorResponses } from '../route-schemas.js';

export { METRICS_PATH };

export function registerMetricsRoute(app: FastifyInstance, ctx: ApiContext): void {
  const { metrics, metricsAccess } = ctx;
  if (!metrics || !metricsAccess) return;
  const schema = {
    tags: ['operations'],
    operationId: 'metrics',
    summary: 'Prometheus metrics (text exposition format).',
    description:
      'With METRICS_TOKEN set, `Authorization: Bearer <METRICS_TOKEN>` is required. Without it, served only when the server listens on loopback, ' +
      'and a request carrying a proxy header (`Forwarded`, `X-Forwarded-For`, `X-Forwarded-Host`, `X-Forwarded-Proto`, `X-Real-IP`, `Via`) gets 404; ' +
      'with METRICS_PORT, served on that listener instead of this one.',
    security: [{}, { metricsToken: [] }] as { [label: string]: string[] }[],
    response: { 200: { description: 'Metrics.', content: { 'text/plain': { schema: z.string() } } }, ...errorResponses(['invalid_api_key', 'not_found']) },
  };
  app.get(METRICS_PATH, { schema }, async (request, reply) => {
    const refusal = metricsRefusal(metricsAccess, request.headers);
    if (refusal) return sendApiError(reply, refusal);
    const { contentType, body } = await metrics.render();
    return reply.header('Cache-Control', 'no-store').type(contentType).send(body);
  });
}
