/**
 * The pages' static files (`src/pages/assets/`): plain ES modules and one stylesheet, served
 * as they are, with no build step. A handful of small files, read once at start-up and kept
 * in memory; only names found in the folder are served, so no request can reach another file.
 * Browsers revalidate them (`no-cache` + ETag): after an upgrade nobody runs stale scripts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';

// From the package root, so that the compiled server (dist/pages/) finds the same folder.
export const ASSETS_DIR = fileURLToPath(new URL('../../src/pages/assets/', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

// The calendar module the server runs too: the scripts import it as `../../format/calendar-shared.js`,
// which names this file on disk (from src/pages/assets/) and this URL in the browser (from /assets/).
const CALENDAR_FILE = fileURLToPath(new URL('../../src/format/calendar-shared.js', import.meta.url));
export const CALENDAR_URL = '/format/calendar-shared.js';

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

function assetOf(file: string, type: string): Asset {
  const body = fs.readFileSync(file);
  const etag = `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, type, etag };
}

function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of fs.readdirSync(ASSETS_DIR)) {
    const type = TYPES[path.extname(name)];
    if (type) assets.set(name, assetOf(path.join(ASSETS_DIR, name), type));
  }
  return assets;
}

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset) {
  reply.header('cache-control', 'no-cache').header('etag', asset.etag).type(asset.type);
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.send(asset.body);
}

const Params = Type.Object({ name: Type.String({ maxLength: 100 }) });

export default async function assetRoutes(fastify: FastifyInstance): Promise<void> {
  const assets = loadAssets();
  fastify.get<{ Params: Static<typeof Params> }>('/assets/:name', { schema: { hide: true, params: Params } }, async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.callNotFound();
    return send(request, reply, asset);
  });
  const calendar = assetOf(CALENDAR_FILE, TYPES['.js']!);
  fastify.get(CALENDAR_URL, { schema: { hide: true } }, async (request, reply) => send(request, reply, calendar));
}
