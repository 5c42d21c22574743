// Serves the few static files of the browser pages (playground, API docs) from memory: a fixed list read once at
// start, so no request can reach any other file, with a Content-Security-Policy that lets a page load nothing
// but this server's own scripts, styles and sockets (nothing is fetched from the internet, ever).

import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { NO_KEY } from './route-schemas.js';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

// 'self' covers same-origin ws:/wss: in current browsers; blob: is the audio the page itself fetched and wrapped.
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

interface StaticFile {
  readonly body: Buffer;
  readonly contentType: string;
}

function load(dir: string, file: string, render?: (text: string) => string): StaticFile {
  const contentType = CONTENT_TYPES[extname(file)];
  if (!contentType) throw new Error(`static file ${file} has no known content type`);
  const body = readFileSync(join(dir, file));
  return { body: render ? Buffer.from(render(body.toString('utf8')), 'utf8') : body, contentType };
}

function send(reply: FastifyReply, file: StaticFile): FastifyReply {
  return reply
    .header('Content-Security-Policy', PAGE_CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-cache')
    .type(file.contentType)
    .send(file.body);
}

/** `page` at `pageUrl`, and each of `assets` at `<assetPrefix>/<name>`. */
export function registerStaticPage(
  app: FastifyInstance,
  options: {
    readonly dir: string;
    readonly pageUrl: string;
    readonly page: string;
    /** Fills the page's generated parts, once at start (the playground's provider picker). */
    readonly render?: (html: string) => string;
    readonly assetPrefix: string;
    readonly assets: readonly string[];
    /** The page's entry in the OpenAPI document (its assets are left out). */
    readonly doc: { readonly tag: string; readonly operationId: string; readonly summary: string };
  },
): void {
  const page = load(options.dir, options.page, options.render);
  const schema = {
    tags: [options.doc.tag],
    operationId: options.doc.operationId,
    summary: options.doc.summary,
    security: NO_KEY,
    response: { 200: { description: 'HTML.', content: { 'text/html': { schema: z.string() } } } },
  };
  app.get(options.pageUrl, { schema }, async (_request, reply) => send(reply, page));
  for (const name of options.assets) {
    const asset = load(options.dir, name);
    app.get(`${options.assetPrefix}/${name}`, { schema: { hide: true } }, async (_request, reply) => send(reply, asset));
  }
}
