/**
 * Killing the server while it makes a document loses nothing: the demo's invoices and its
 * bulletins are queued by `seed-demo` (the command line, which renders nothing), the server is
 * killed (SIGKILL) while an invoice document is being made, then again while a bulletin is
 * being rendered; the next server takes the jobs up and every document appears, and the invoices
 * whose notification waited are announced once. Driven by the server's log lines, not by time.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { sql } from 'kysely';
import { freshDatabase, usingPostgres } from '../helper.ts';
import { cliJson, startServer, tempDir, type ServerProcess } from '../cli/processes.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { acquireDataDirLock } from '../../src/db/data-dir-lock.ts';
import { FACTUR_X_OPERATOR_ENV } from '../support/operator.ts';

interface LogLine {
  msg?: string;
  kind?: string;
  job_id?: string;
}
const lines = (server: ServerProcess): LogLine[] =>
  server
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);

/** Resolves with the first log line that matches, as soon as the server writes it. */
function logLine(server: ServerProcess, match: (line: LogLine) => boolean): Promise<LogLine> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = lines(server).find(match);
      if (found) {
        server.child.stdout!.off('data', check);
        resolve(found);
      }
    };
    server.child.stdout!.on('data', check);
    void server.exited.then(() => reject(new Error(`server exited before: ${server.stdout()}${server.stderr()}`)));
    check();
  });
}

describe('a server killed while it makes documents', () => {
  it('should lose nothing: the jobs are taken up again and every document appears', { timeout: 900_000 }, async (t) => {
    const dataDir = tempDir(t, 'pa-jobs-');
    const pg = usingPostgres ? await freshDatabase() : null;
    t.after(() => pg?.close());
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://paie.example.com',
      SUPPORT_EMAIL: 'support@example.com',
      MAIL_FROM: 'Paie <no-reply@example.com>',
      LOG_LEVEL: 'info',
      ...FACTUR_X_OPERATOR_ENV,
      ...(pg ? { DATABASE_URL: pg.url! } : {}),
    };
    /** The database between two servers (PGlite: its files, once the killed server's lock is stale). */
    const inspect = async <T>(read: (db: DatabaseHandle['db']) => Promise<T>): Promise<T> => {
      if (pg) return read(pg.db);
      const lock = acquireDataDirLock(dataDir);
      const handle = await openDatabase({ databaseUrl: null, pgliteDir: path.join(dataDir, 'pg') });
      try {
        return await read(handle.db);
      } finally {
        await handle.close();
        lock.release();
      }
    };
    const jobs = () => inspect((db) => db.selectFrom('jobs').select(['id', 'kind', 'status', 'subject_id']).orderBy('id').execute());

    await cliJson(['seed-demo'], env);
    const queued = await jobs();
    const bulletins = queued.filter((j) => j.kind === 'payroll.bulletin');
    const documents = queued.filter((j) => j.kind === 'invoice.document');
    const computed = await inspect((db) => db.selectFrom('payslips').select('id').where('source', '=', 'calcule').where('status', '=', 'publie').execute());
    assert.ok(computed.length >= 2);
    assert.deepEqual(bulletins.map((j) => j.subject_id).sort(), computed.map((p) => p.id).sort(), "the demo's bulletins, queued by the command line");
    assert.ok(documents.length >= 4, JSON.stringify(queued));
    assert.ok(
      [...bulletins, ...documents].every((j) => j.status === 'pending'),
      'nothing rendered by the command line',
    );
    // The demo's payroll runs are jobs too, run by seed-demo itself.
    const runs = queued.filter((j) => j.kind === 'payroll.run');
    assert.ok(runs.length >= 1 && runs.every((j) => j.status === 'done'), JSON.stringify(runs));

    for (const kind of ['invoice.document', 'payroll.bulletin']) {
      const server = await startServer(env);
      const started = await logLine(server, (l) => l.msg === 'jobs: started' && l.kind === kind);
      server.child.kill('SIGKILL');
      await server.exited;
      // Killed mid-job: its job is still leased to the dead server, and its document is not there.
      const killed = (await jobs()).find((j) => j.id === String(started.job_id))!;
      assert.equal(killed.status, 'running', `${kind} job ${killed.id} was killed before its commit`);
      const stored = await inspect(async (db) =>
        kind === 'payroll.bulletin'
          ? (await db.selectFrom('payslips').select('pdf_id').where('id', '=', killed.subject_id!).executeTakeFirstOrThrow()).pdf_id
          : (await db.selectFrom('invoices').select('xml_id').where('id', '=', killed.subject_id!).executeTakeFirstOrThrow()).xml_id,
      );
      assert.equal(stored, null);
      // The lease the dead server held runs out (30 s): written as past rather than waited for.
      await inspect((db) => sql`update public.jobs set lease_until = now() - interval '1 second' where status = 'running'`.execute(db));
    }

    const left = (await jobs()).filter((j) => j.status !== 'done');
    assert.ok(left.length >= 2);
    const server = await startServer(env);
    for (const job of left) await logLine(server, (l) => l.msg === 'jobs: done' && l.job_id === job.id);
    assert.equal(await server.stop('SIGTERM'), 0);

    assert.deepEqual(
      (await jobs()).filter((j) => j.status !== 'done'),
      [],
    );
    await inspect(async (db) => {
      const payslips = await db.selectFrom('payslips').select('pdf_id').where('source', '=', 'calcule').where('status', '=', 'publie').execute();
      assert.equal(payslips.length, bulletins.length);
      assert.ok(
        payslips.every((p) => p.pdf_id !== null),
        'every bulletin rendered',
      );
      const invoices = await db.selectFrom('invoices').select(['number', 'pdf_id', 'xml_id', 'notified', 'notify_pending']).orderBy('number').execute();
      assert.ok(
        invoices.every((i) => i.pdf_id !== null && i.xml_id !== null),
        'every invoice document made',
      );
      assert.ok(invoices.every((i) => !i.notify_pending));
      const mails = await db.selectFrom('mail_outbox').select('subject').where('kind', '=', 'invoice').execute();
      const notified = invoices.filter((i) => i.notified).map((i) => i.number);
      assert.ok(notified.length >= 2);
      assert.deepEqual(mails.map((m) => m.subject.match(/F-\d{4}-\d{6}/)![0]).sort(), notified.sort(), 'each waiting notification sent once');
    });
  });
});
