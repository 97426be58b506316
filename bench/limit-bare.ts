/**
 * The limit's third form (c) for `GET /api/access`: the service's own list SQL
 * (`listOrgMembersJson`, the same named prepared statement through the same `pg` client)
 * served by a bare `node:http` server: no framework, no authentication, no logging, no
 * security headers. The organization comes from `?org=<uuid>`. Environment: `DATABASE_URL`,
 * `PORT`, `LIMIT_POOL` (pool size, default 10 like the service's).
 *
 * A request waits for a pool connection as long as it takes, as in the other limit forms
 * (`pg.Pool`'s default): with the 5 s the service had then, 32 connections of 10,000-member
 * lists on a slow host queued past it and the limit itself answered 500 (2026-11-28,
 * bench/README.md).
 */
import http from 'node:http';
import { openDatabase } from '../src/db/database.ts';
import { listOrgMembersJson } from '../src/access/access.repository.ts';

const handle = await openDatabase({
  databaseUrl: process.env.DATABASE_URL!,
  pgliteDir: 'memory://',
  maxConnections: Number(process.env.LIMIT_POOL ?? 10),
  poolWaitMs: 0,
});

const server = http.createServer((request, response) => {
  const org = new URL(request.url ?? '/', 'http://limit').searchParams.get('org');
  if (!org) {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"items":[]}');
    return;
  }
  listOrgMembersJson(handle.db, org).then(
    (items) => {
      const body = `{"items":${items}}`;
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
    },
    () => response.writeHead(500).end(),
  );
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT ?? 3100), '127.0.0.1', () => process.stdout.write('limit server (bare node:http) ready\n'));

const stop = () => server.close(() => void handle.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
