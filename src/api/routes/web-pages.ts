// The browser pages and machine-readable documents: the playground at `/`, the API reference at `/docs`, and
// /openapi.json + /asyncapi.json rendered once at start from the zod schemas (the same text as docs/*.json).
// Pages need no key (they hold none); every API call they make is authenticated with the key the user types.

import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { renderApiDocuments } from '../docs/api-documents.js';
import { registerStaticPage } from '../static-files.js';

const PLAYGROUND_DIR = fileURLToPath(new URL('../playground/', import.meta.url));
const DOCS_PAGE_DIR = fileURLToPath(new URL('../docs/page/', import.meta.url));

export function registerWebPages(app: FastifyInstance): void {
  registerStaticPage(app, {
    dir: PLAYGROUND_DIR,
    pageUrl: '/',
    page: 'index.html',
    assetPrefix: '/playground',
    assets: ['favicon.svg', 'playground.css', 'main.js', 'api.js', 'audio-files.js', 'pcm-player.js', 'ws-speaker.js', 'call-timeline.js'],
  });
  registerStaticPage(app, { dir: DOCS_PAGE_DIR, pageUrl: '/docs', page: 'docs.html', assetPrefix: '/docs', assets: ['docs.css', 'docs.js'] });

  const documents = renderApiDocuments();
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(documents.openapi));
  app.get('/asyncapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(documents.asyncapi));
}
