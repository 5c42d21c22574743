// Routes declare their zod schemas through fastify-type-provider-zod: one object is the validation, the handler's
// types and (through @fastify/swagger, src/api/docs/openapi.ts) the OpenAPI document. Validation failures leave as
// the spec's 422 `validation_error` naming the field; responses are serialized as they are, not re-validated.

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { ErrorEnvelopeSchema } from './response-schemas.js';
import { validationError } from './synthesis-request.js';

/** Zod validation with the spec's error envelope; JSON responses as they are (their schemas are documentation). */
export function useZodSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema }) => (data: unknown) => {
    const result = (schema as z.ZodType).safeParse(data);
    return result.success ? { value: result.data } : { error: validationError(result.error) };
  });
  app.setSerializerCompiler(() => (data: unknown) => JSON.stringify(data));
}

/** The same app typed by its route schemas. */
export function typed(app: FastifyInstance) {
  return app.withTypeProvider<ZodTypeProvider>();
}

/** A documented JSON response. */
export function jsonResponse(description: string, schema: z.ZodType) {
  return { description, content: { 'application/json': { schema } } };
}

/** How errors are written: the spec's envelope and statuses, or a vendor dialect's (src/api/<dialect>/). */
export interface ErrorEnvelopeDocs {
  readonly name: string;
  readonly schema: z.ZodType;
  readonly statusOf: (code: ErrorCode) => number;
}

const SPEC_ENVELOPE: ErrorEnvelopeDocs = { name: 'Error envelope', schema: ErrorEnvelopeSchema, statusOf: (code) => ERROR_CODES[code].status };

/** Error responses grouped by status, each naming the codes it can carry (from the error registry). */
export function errorResponses(codes: readonly ErrorCode[], envelope: ErrorEnvelopeDocs = SPEC_ENVELOPE): Record<number, ReturnType<typeof jsonResponse>> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(envelope.statusOf(code), [...(byStatus.get(envelope.statusOf(code)) ?? []), code]);
  const out: Record<number, ReturnType<typeof jsonResponse>> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[status] = jsonResponse(`${envelope.name} with code ${list.map((code) => `\`${code}\``).join(', ')}.`, envelope.schema);
  }
  return out;
}

/** Operations that need no API key (probes, pages, documents). */
export const NO_KEY = [] as const;
