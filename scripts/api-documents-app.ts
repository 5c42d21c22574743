// Both API documents from an app built the way the server builds it (defaults, a throwaway data directory, the
// engine not started): what `npm run openapi` writes and what the drift test compares with docs/.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { renderAsyncApi } from '../src/api/docs/api-documents.js';
import { renderOpenApi } from '../src/api/docs/openapi.js';
import { buildApp } from '../src/app.js';
import { parseConfig } from '../src/config.js';
import { buildDeps } from '../src/deps.js';

export async function renderApiDocuments(): Promise<{ openapi: string; asyncapi: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'raaga-docs-'));
  const deps = await buildDeps(parseConfig({ RAAGA_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
  const app = buildApp(deps);
  try {
    await app.ready();
    return { openapi: renderOpenApi(app), asyncapi: renderAsyncApi() };
  } finally {
    await app.close();
    await deps.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
