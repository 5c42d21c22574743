// `npm run openapi`: writes docs/openapi.json (from the routes, through a built app) and docs/asyncapi.json (from the
// WebSocket messages' schemas). test/integration/api/api-documents.test.ts fails while the committed files differ.

import { writeFileSync } from 'node:fs';
import { API_DOCUMENT_FILES } from '../src/api/docs/api-documents.js';
import { renderApiDocuments } from './api-documents-app.js';

for (const [name, text] of Object.entries(await renderApiDocuments())) {
  const path = API_DOCUMENT_FILES[name as keyof typeof API_DOCUMENT_FILES];
  writeFileSync(new URL(`../${path}`, import.meta.url), text);
  console.log(`wrote ${path}`);
}
