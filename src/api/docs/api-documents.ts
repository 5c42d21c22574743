// The two machine-readable API documents as the exact text committed under docs/ and served by the server:
// OpenAPI from the routes (./openapi.ts, needs the built app), AsyncAPI from the WebSocket messages' zod schemas.

import { buildAsyncApiDocument } from './asyncapi-document.js';

export const API_DOCUMENT_FILES = { openapi: 'docs/openapi.json', asyncapi: 'docs/asyncapi.json' } as const;

export function renderAsyncApi(): string {
  return `${JSON.stringify(buildAsyncApiDocument(), null, 2)}\n`;
}
