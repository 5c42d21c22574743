// GET /v1/voices: the catalog grouped by language (default) or by voice; authenticated, not rate counted.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ApiContext } from '../context.js';
import { VoicesByLanguageSchema, VoicesByVoiceSchema } from '../response-schemas.js';
import { errorResponses, jsonResponse, typed } from '../route-schemas.js';

export const VoicesQuerySchema = z.object({
  group_by: z
    .enum(['language', 'voice'], { error: "must be 'language' or 'voice'" })
    .default('language')
    .meta({ description: "'language' (default) or 'voice': the shape of the answer." }),
});

export function registerVoicesRoute(app: FastifyInstance, ctx: ApiContext, onRequest: (request: FastifyRequest) => Promise<void>): void {
  typed(app).get(
    '/v1/voices',
    {
      onRequest,
      schema: {
        tags: ['voices'],
        operationId: 'listVoices',
        summary: 'The active voices, grouped by language (default) or by voice. Not rate counted.',
        querystring: VoicesQuerySchema,
        response: {
          200: jsonResponse('The catalog in the requested shape.', z.union([VoicesByLanguageSchema, VoicesByVoiceSchema])),
          ...errorResponses(['invalid_api_key', 'validation_error', 'store_unavailable']),
        },
      },
    },
    async (request) => (request.query.group_by === 'voice' ? ctx.catalog.groupByVoice() : ctx.catalog.groupByLanguage()),
  );
}
