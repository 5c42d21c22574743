// Liveness and readiness for orchestrators. Unauthenticated by design: probes carry no API key.

import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';

export function registerHealthRoutes(app: FastifyInstance, ctx: ApiContext): void {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const engine = ctx.synthesis.isReady();
    let store = true;
    try {
      await ctx.store.ping();
    } catch {
      store = false;
    }
    const ready = engine && store && !ctx.shutdown.aborted;
    return reply.code(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not_ready',
      checks: { engine: engine ? 'ready' : 'warming', store: store ? 'ok' : 'unreachable', shutting_down: ctx.shutdown.aborted },
    });
  });
}
