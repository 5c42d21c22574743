// The two machine-readable API documents as the exact text committed under docs/ and served by the server.

import { buildAsyncApiDocument } from './asyncapi-document.js';
import { buildOpenApiDocument } from './openapi-document.js';

export const API_DOCUMENT_FILES = { openapi: 'docs/openapi.json', asyncapi: 'docs/asyncapi.json' } as const;

export function renderApiDocuments(): Record<keyof typeof API_DOCUMENT_FILES, string> {
  return {
    openapi: `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`,
    asyncapi: `${JSON.stringify(buildAsyncApiDocument(), null, 2)}\n`,
  };
}
