/**
 * A database error's log line never carries the statement's parameters (e-mail
 * addresses, users' text). PGlite's errors used to carry them (`params`), and the error
 * handler logs the error whole.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { sql } from 'kysely';
import app, { appOptions } from '../../src/app.ts';
import { freshDatabase, testConfig } from '../helper.ts';

describe('a database error in the logs', () => {
  it('should be logged with its message and SQL, never the parameters', async (t) => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = testConfig();
    const database = await freshDatabase();
    const fastify = Fastify({ ...appOptions(config), logger: { level: 'info', stream } });
    await fastify.register(app, { config, database, mailWorker: false });
    await fastify.register(async (instance) => {
      instance.get('/boom', { config: { public: true } }, async () => {
        await sql`select ${'helene.secret@example.com'}::text as email, ${'Merci de vérifier les dates'}::text as note, 1 / 0 as boom`.execute(database.db);
        return {};
      });
    });
    await fastify.ready();
    t.after(async () => {
      await fastify.close();
      await database.close();
    });
    const res = await fastify.inject({ method: 'GET', url: '/boom' });
    assert.equal(res.statusCode, 500);
    const log = lines.join('');
    assert.match(log, /division by zero/, 'the error is logged');
    assert.match(log, /unexpected failure/);
    assert.doesNotMatch(log, /helene\.secret@example\.com/);
    assert.doesNotMatch(log, /Merci de vérifier/);
    assert.doesNotMatch(log, /"params"/);
  });
});
