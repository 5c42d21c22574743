// The browser pages and machine-readable documents: the playground at `/`, the API reference at `/docs`, and
// /openapi.json + /asyncapi.json rendered once at start from the zod schemas (the same text as docs/*.json).
// Pages need no key (they hold none); every API call they make is authenticated with the key the user types.

import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PROVIDERS } from '../../telephony/providers.js';
import { escapeXml } from '../../util/xml-entities.js';
import { renderAsyncApi } from '../docs/api-documents.js';
import { renderOpenApi } from '../docs/openapi.js';
import { jsonResponse, NO_KEY } from '../route-schemas.js';
import { registerStaticPage } from '../static-files.js';

const PLAYGROUND_DIR = fileURLToPath(new URL('../playground/', import.meta.url));
const DOCS_PAGE_DIR = fileURLToPath(new URL('../docs/page/', import.meta.url));
const PROVIDER_OPTIONS = /^( *)<!-- provider options: .* -->\n/m;

/** The playground's call picker: one <option> per provider module that offers itself to it, in the registry's order. */
function withProviderOptions(html: string): string {
  return html.replace(PROVIDER_OPTIONS, (_line, indent: string) =>
    PROVIDERS.flatMap((module) => (module.playground ? [`${indent}<option value="${module.name}">${escapeXml(module.playground.label)}</option>\n`] : [])).join(''),
  );
}

export function registerWebPages(app: FastifyInstance): void {
  registerStaticPage(app, {
    dir: PLAYGROUND_DIR,
    pageUrl: '/',
    page: 'index.html',
    render: withProviderOptions,
    assetPrefix: '/playground',
    assets: ['favicon.svg', 'playground.css', 'main.js', 'api.js', 'audio-files.js', 'pcm-player.js', 'ws-speaker.js', 'call-timeline.js'],
    doc: { tag: 'playground', operationId: 'playground', summary: 'The playground page (HTML; the key is typed into it, kept in sessionStorage).' },
  });
  registerStaticPage(app, {
    dir: DOCS_PAGE_DIR,
    pageUrl: '/docs',
    page: 'docs.html',
    assetPrefix: '/docs',
    assets: ['docs.css', 'docs.js'],
    doc: { tag: 'operations', operationId: 'docsPage', summary: 'This reference as a page (HTML rendering /openapi.json and /asyncapi.json).' },
  });

  const document = (operationId: string, summary: string, description: string) => ({
    tags: ['operations'],
    operationId,
    summary,
    security: NO_KEY,
    response: { 200: jsonResponse(description, z.record(z.string(), z.unknown())) },
  });
  // Rendered once, on first request: by then every route has been added and swagger has seen it.
  let openapi: string | undefined;
  app.get('/openapi.json', { schema: document('openapi', 'This document.', 'OpenAPI 3.1.') }, async (_request, reply) => {
    openapi ??= renderOpenApi(app);
    return reply.type('application/json; charset=utf-8').send(openapi);
  });
  const asyncapi = renderAsyncApi();
  app.get('/asyncapi.json', { schema: document('asyncapi', 'The AsyncAPI 3.0 document of the WebSocket protocol.', 'AsyncAPI 3.0.') }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(asyncapi),
  );
}
