// GET /v1/voices: the catalog grouped by language (default) or by voice; authenticated, not rate counted.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../errors.js';
import type { ApiContext } from '../context.js';

export const VoicesQuerySchema = z.object({
  group_by: z.enum(['language', 'voice']).default('language').meta({ description: "'language' (default) or 'voice': the shape of the answer." }),
});

export function registerVoicesRoute(app: FastifyInstance, ctx: ApiContext, onRequest: (request: FastifyRequest) => Promise<void>): void {
  app.get('/v1/voices', { onRequest }, async (request) => {
    const query = VoicesQuerySchema.safeParse(request.query);
    if (!query.success) {
      throw new ApiError('validation_error', "Query parameter 'group_by' must be 'language' or 'voice'.");
    }
    return query.data.group_by === 'voice' ? ctx.catalog.groupByVoice() : ctx.catalog.groupByLanguage();
  });
}
