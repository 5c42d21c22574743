// zod → JSON Schema (draft 2020-12, which OpenAPI 3.1 and AsyncAPI 3 both accept) with zod 4's own
// z.toJSONSchema: named components that reference each other, minus the noise of zod's integer bounds.

import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const SAFE_INTEGER_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * Converts named schemas into one `{ name: schema }` map; a schema used inside another becomes
 * `{"$ref": "<refPrefix><name>"}`. `io: 'input'` describes what clients send (defaults optional, loose objects
 * open), `'output'` what the server sends.
 */
export function namedJsonSchemas(schemas: Readonly<Record<string, z.ZodType>>, io: 'input' | 'output', refPrefix: string): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    uri: (id) => `${refPrefix}${id}`,
    override: (ctx) => {
      const schema = ctx.jsonSchema as JsonSchema;
      // z.number().int() states the safe-integer range; every JSON integer client has it anyway.
      if (schema.minimum === -SAFE_INTEGER_BOUND) delete schema.minimum;
      if (schema.maximum === SAFE_INTEGER_BOUND) delete schema.maximum;
    },
  }) as { schemas: Record<string, JsonSchema> };
  const out: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(converted.schemas)) {
    const { $schema: _schema, $id: _id, ...rest } = schema;
    out[id] = rest;
  }
  return out;
}
