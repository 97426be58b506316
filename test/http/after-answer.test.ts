/** Shutdown and the work still running: handlers whose client has left, work after an answer. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { assertCloseWaitsFor, build, sql } from '../helper.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('shutdown', () => {
  it('should wait for a handler whose client has left before the database closes', async (t) => {
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let answered: unknown = null;
    const { app, database } = await build(t, {
      routes: (fastify) =>
        fastify.get('/test/slow', async () => {
          entered();
          await gate;
          // What the PDF route does after rendering: a statement on the database.
          const { rows } = await sql<{ answer: number }>`select 42 as answer`.execute(database.db);
          answered = rows[0]!.answer;
          return { ok: true };
        }),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;

    const client = new AbortController();
    const request = fetch(`http://127.0.0.1:${port}/test/slow`, { signal: client.signal }).catch((error: Error) => error.name);
    await inHandler;
    client.abort();
    assert.equal(await request, 'AbortError');

    // Without the wait, the connection being gone, close would already have run its onClose hooks.
    await assertCloseWaitsFor(app, 'the handler still running', release, 200);
    assert.equal(answered, 42, 'the handler read the database before it closed');
  });

  it('should count a request as ended once answered, errors and 404s included', async (t) => {
    const { app } = await build(t, {
      routes: (fastify) => {
        fastify.get('/test/ok', async () => ({ ok: true }));
        fastify.get('/test/fails', async () => {
          throw new Error('boom');
        });
      },
    });
    for (const url of ['/test/ok', '/test/fails', '/test/nowhere']) await app.inject({ method: 'GET', url });
    // settled() waits for every handler counted: it would never resolve after a leaked count.
    const outcome = await Promise.race([app.afterAnswer.settled().then(() => 'settled'), sleep(1_000).then(() => 'still waiting')]);
    assert.equal(outcome, 'settled');
  });
});
