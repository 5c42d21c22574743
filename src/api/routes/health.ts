// Liveness and readiness for orchestrators. Unauthenticated by design: probes carry no API key.

import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { HealthSchema, ReadinessSchema } from '../response-schemas.js';
import { jsonResponse, NO_KEY } from '../route-schemas.js';

export function registerHealthRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const healthz = { tags: ['operations'], operationId: 'health', summary: 'Liveness.', security: NO_KEY, response: { 200: jsonResponse('Alive.', HealthSchema) } };
  app.get('/healthz', { schema: healthz, config: { openWhileDraining: true } }, async () => ({ status: 'ok' }));

  const readyz = {
    tags: ['operations'],
    operationId: 'ready',
    summary: 'Readiness: engine warmed, store reachable, not shutting down, not shedding calls, call slots not all taken.',
    security: NO_KEY,
    response: { 200: jsonResponse('Ready.', ReadinessSchema), 503: jsonResponse('Not ready.', ReadinessSchema) },
  };
  app.get('/readyz', { schema: readyz, config: { openWhileDraining: true } }, async (_request, reply) => {
    const engine = ctx.synthesis.isReady();
    let store = true;
    try {
      await ctx.store.ping();
    } catch {
      store = false;
    }
    const shedding = ctx.telephony?.callAdmission.shedding ?? false;
    // Authenticated calls only: connections that have not proved who pays hold no slot, so they cannot make this 503.
    const saturated = ctx.telephony?.callAdmission.saturated ?? false;
    const shuttingDown = ctx.shutdown.aborted || ctx.draining?.aborted === true;
    const ready = engine && store && !shuttingDown && !shedding && !saturated;
    return reply.code(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not_ready',
      checks: { engine: engine ? 'ready' : 'warming', store: store ? 'ok' : 'unreachable', shutting_down: shuttingDown, shedding_calls: shedding, calls_saturated: saturated },
    });
  });
}
