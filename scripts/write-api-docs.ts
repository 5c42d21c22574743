// `npm run openapi`: writes docs/openapi.json and docs/asyncapi.json from the server's zod schemas.
// test/unit/api/api-documents.test.ts fails while the committed files differ from what this writes.

import { writeFileSync } from 'node:fs';
import { API_DOCUMENT_FILES, renderApiDocuments } from '../src/api/docs/api-documents.js';

for (const [name, text] of Object.entries(renderApiDocuments())) {
  const path = API_DOCUMENT_FILES[name as keyof typeof API_DOCUMENT_FILES];
  writeFileSync(new URL(`../${path}`, import.meta.url), text);
  console.log(`wrote ${path}`);
}
