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
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';

// From the package root, so that the compiled server (dist/pages/) finds the same folder.
export const ASSETS_DIR = fileURLToPath(new URL('../../src/pages/assets/', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of fs.readdirSync(ASSETS_DIR)) {
    const type = TYPES[path.extname(name)];
    if (!type) continue;
    const body = fs.readFileSync(path.join(ASSETS_DIR, name));
    const etag = `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    assets.set(name, { body, type, etag });
  }
  return assets;
}

const Params = Type.Object({ name: Type.String({ maxLength: 100 }) });

export default async function assetRoutes(fastify: FastifyInstance): Promise<void> {
  const assets = loadAssets();
  fastify.get<{ Params: Static<typeof Params> }>('/assets/:name', { schema: { hide: true, params: Params } }, async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.callNotFound();
    reply.header('cache-control', 'no-cache').header('etag', asset.etag).type(asset.type);
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.send(asset.body);
  });
}
