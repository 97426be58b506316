import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { assertCloseWaitsFor, build, freshDatabase, sql, testConfig } from '../helper.ts';
import { startSmtpServer } from '../support/smtp.ts';
import app, { appOptions } from '../../src/app.ts';
import { openDatabase, type Database, type DatabaseHandle } from '../../src/db/database.ts';
import { enqueueMail } from '../../src/mail/outbox.ts';
import { accessUpdatedEmail, activationEmail } from '../../src/access/access.mail.ts';
import { createSmtpTransport, type MailTransport, type OutboxMessage } from '../../src/mail/transport.ts';
import { describeSendError, MailWorker, retryDelayMs } from '../../src/mail/worker.ts';

const PUBLIC_URL = 'https://paie.example.com';
const SECRET_URL = `${PUBLIC_URL}/activate#token=tokenid1.thisisthesecretpartofthetoken00&type=invite`;

async function waitUntil<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the worker to poll `count` more times: a check that nothing more is sent waits for polls, not for time. */
async function polls(worker: { passes: number }, count = 3): Promise<void> {
  const seen = worker.passes;
  await waitUntil(async () => worker.passes >= seen + count, 5000, `${count} more polls`);
}

function outboxRow(db: Database, id: string) {
  return db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function queue(
  db: Database,
  to: string,
  mail = activationEmail({
    firstName: 'Ana',
    orgName: 'Compagnie du Soleil',
    role: 'AGENT',
    inviter: { firstName: null, email: 'jean@example.com', status: 'Administrateur' },
    activationUrl: SECRET_URL,
    supportEmail: 'support@example.com',
  }),
  kind = 'activation',
): Promise<string> {
  await enqueueMail(db, { kind, to, ...mail });
  const row = await db.selectFrom('mail_outbox').select('id').where('recipient', '=', to).orderBy('id', 'desc').executeTakeFirstOrThrow();
  return row.id;
}

/** A logger that keeps what it is given. */
function recordingLogger() {
  const records: { level: string; obj: object; msg: string }[] = [];
  const at = (level: string) => (obj: object, msg: string) => void records.push({ level, obj, msg });
  return { records, log: { info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('retryDelayMs', () => {
  it('should double from the base and stop at the cap', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 9, 10, 11, 50].map((n) => retryDelayMs(n, 2000, 600_000)),
      [2000, 4000, 8000, 16_000, 512_000, 600_000, 600_000, 600_000],
    );
  });
});

describe('describeSendError', () => {
  it('should keep the codes and hide the password of a URL', () => {
    const error = Object.assign(new Error('Invalid login: 535 failed for smtp://bob:hunter2@mail.example.com'), {
      code: 'EAUTH',
      responseCode: 535,
    });
    const text = describeSendError(error);
    assert.equal(text, 'EAUTH 535 Invalid login: 535 failed for smtp://***@mail.example.com');
    assert.ok(describeSendError(new Error('x'.repeat(2000))).length <= 500);
    assert.equal(
      describeSendError(Object.assign(new Error('Recipient command failed: 550 5.1.1 <ana.secret@example.com>: unknown'), { responseCode: 550 })),
      '550 Recipient command failed: 550 5.1.1 <***@example.com>: unknown',
    );
  });
});

describe('mail worker', () => {
  it('should deliver an e-mail queued while SMTP is down once it is back, exactly once', async (t) => {
    const smtp = await startSmtpServer();
    t.after(() => smtp.stop());
    const { app, database } = await build(t, {
      env: { SMTP_URL: smtp.url },
      app: { mailWorker: true, mailPollMs: 20, mailRetryBaseMs: 40 },
    });
    await smtp.stop();

    const mail = accessUpdatedEmail({
      firstName: 'Ana',
      orgName: 'Compagnie du Soleil',
      oldRole: 'AGENT',
      newRole: 'ADMIN',
      updatedBy: 'jean@example.com',
      updatedAt: '22 novembre 2026 à 10:05',
      accessUrl: `${PUBLIC_URL}/vos-acces`,
      supportEmail: 'support@example.com',
    });
    const id = await queue(database.db, 'ana@example.com', mail, 'access_updated');
    app.mail.nudge();

    const failed = await waitUntil(
      async () => {
        const row = await outboxRow(database.db, id);
        return row.attempts >= 2 && row;
      },
      5000,
      'two failed attempts',
    );
    assert.equal(failed.status, 'pending');
    assert.match(failed.last_error ?? '', /ECONNREFUSED/);
    assert.equal(failed.sent_at, null);

    await smtp.restart();
    const [received] = await smtp.waitFor(1, 5000);
    assert.equal(received!.subject, 'Vos accès ont été mis à jour');
    assert.deepEqual(received!.envelope.to, ['ana@example.com']);
    assert.equal(received!.envelope.from, 'no-reply@example.com');
    assert.equal(received!.parsed.from?.text, '"Paie" <no-reply@example.com>');
    assert.match(received!.text, /^Nouveau rôle : Administrateur$/m);
    assert.match(received!.html, /Ancien rôle :<\/th><td[^>]*>Agent<\/td>/);
    assert.equal(received!.parsed.headers.get('auto-submitted'), 'auto-generated');

    const sent = await waitUntil(
      async () => {
        const row = await outboxRow(database.db, id);
        return row.status === 'sent' && row;
      },
      2000,
      'status sent',
    );
    assert.ok(sent.sent_at instanceof Date);
    assert.equal(sent.locked_until, null);
    assert.equal(sent.last_error, null);

    // More passes and polls send nothing more.
    assert.equal(await app.mail.flush(), 0);
    await polls(app.mail);
    assert.equal(await app.mail.flush(), 0);
    assert.equal(smtp.messages.length, 1);
  });

  it('should mark an e-mail failed after the last attempt and log it without the link', async (t) => {
    const smtp = await startSmtpServer();
    t.after(() => smtp.stop());
    smtp.refuse = true;
    const config = testConfig({ SMTP_URL: smtp.url });
    const database = await freshDatabase();
    t.after(() => database.close());
    const { records, log } = recordingLogger();
    const worker = new MailWorker({
      db: database.db,
      transport: createSmtpTransport(config, smtp.url),
      log,
      pollMs: 10,
      retryBaseMs: 10,
      maxAttempts: 3,
    });
    t.after(() => worker.stop());
    const id = await queue(database.db, 'Ana.Secret@Example.com');
    worker.start();

    const row = await waitUntil(
      async () => {
        const r = await outboxRow(database.db, id);
        return r.status === 'failed' && r;
      },
      5000,
      'status failed',
    );
    assert.equal(row.attempts, 3);
    assert.match(row.last_error ?? '', /554/);
    assert.equal(row.locked_until, null);
    assert.equal(row.sent_at, null);
    assert.equal(smtp.refusedCount, 3);

    // A failed e-mail is never tried again.
    await worker.flush();
    await polls(worker);
    assert.equal(smtp.refusedCount, 3);
    assert.equal(smtp.messages.length, 0);

    const errors = records.filter((r) => r.level === 'error');
    assert.equal(errors.length, 1);
    assert.deepEqual(
      { ...errors[0]!.obj, error: undefined },
      { outboxId: id, kind: 'activation', recipientDomain: 'example.com', attempt: 3, error: undefined },
    );
    assert.equal(records.filter((r) => r.level === 'warn').length, 2);
    const logged = JSON.stringify(records);
    assert.ok(!logged.includes('thisisthesecretpartofthetoken00'), 'no token in logs');
    assert.ok(!logged.includes('/activate'), 'no link in logs');
    assert.ok(!/ana\.secret/i.test(logged), 'no full recipient address in logs');
  });

  it('should wait the back-off delay before trying again', async (t) => {
    const smtp = await startSmtpServer();
    t.after(() => smtp.stop());
    smtp.refuse = true;
    const database = await freshDatabase();
    t.after(() => database.close());
    const worker = new MailWorker({
      db: database.db,
      transport: createSmtpTransport(testConfig(), smtp.url),
      log: recordingLogger().log,
      retryBaseMs: 60_000,
    });
    const id = await queue(database.db, 'ana@example.com');
    assert.equal(await worker.flush(), 1);
    assert.equal(await worker.flush(), 0);
    assert.equal(smtp.refusedCount, 1);
    const { rows } = await sql<{ delay_s: number }>`
      select extract(epoch from next_attempt_at - now())::float8 as delay_s from mail_outbox where id = ${id}`.execute(database.db);
    assert.ok(rows[0]!.delay_s > 55 && rows[0]!.delay_s <= 60, `next attempt in ${rows[0]!.delay_s} s`);
    const row = await outboxRow(database.db, id);
    assert.equal(row.status, 'pending');
    assert.equal(row.attempts, 1);
  });

  it('should stop at the first refused e-mail of a claimed batch and give the untried ones back untouched', async (t) => {
    const database = await freshDatabase();
    t.after(() => database.close());
    const sent: string[] = [];
    let refuseNext = false;
    const transport: MailTransport = {
      name: 'test',
      async send(message: OutboxMessage) {
        if (refuseNext) throw Object.assign(new Error('451 try later'), { responseCode: 451 });
        sent.push(String(message.to));
        if (sent.length === 2) refuseNext = true;
      },
      close() {},
    };
    const worker = new MailWorker({ db: database.db, transport, log: recordingLogger().log, retryBaseMs: 60_000 });
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e']) ids.push(await queue(database.db, `${name}@example.com`));
    // The batch of five is claimed at once; the third is refused; the last two were never tried.
    assert.equal(await worker.flush(), 3);
    assert.deepEqual(sent, ['a@example.com', 'b@example.com']);
    const rows = await Promise.all(ids.map((id) => outboxRow(database.db, id)));
    assert.deepEqual(
      rows.map((r) => [r.status, r.attempts, r.locked_until]),
      [
        ['sent', 1, null],
        ['sent', 1, null],
        ['pending', 1, null],
        ['pending', 0, null],
        ['pending', 0, null],
      ],
    );
    // Untried rows are due at once: the next pass sends them.
    refuseNext = false;
    assert.equal(await worker.flush(), 2);
    assert.deepEqual(sent.slice(2), ['d@example.com', 'e@example.com']);
  });

  it('should deliver each e-mail once when two servers drain one database', async (t) => {
    const smtp = await startSmtpServer();
    t.after(() => smtp.stop());
    const config = testConfig({ SMTP_URL: smtp.url });
    const first = await freshDatabase();
    // Two servers: on PGlite they share the one embedded database; on PostgreSQL each has
    // its own pool to the same database.
    const second: DatabaseHandle = first.url ? await openDatabase({ databaseUrl: first.url, pgliteDir: 'memory://' }) : first;
    const servers: FastifyInstance[] = [];
    const sentBy = [0, 0];
    t.after(async () => {
      for (const server of servers) await server.close();
      if (second !== first) await second.close();
      await first.close();
    });
    for (const [index, handle] of [first, second].entries()) {
      // Counts who sent what. (The test SMTP server takes ~100 ms per message, slow
      // enough that both workers are busy at the same time.)
      const smtpTransport = createSmtpTransport(config, smtp.url);
      const transport: MailTransport = {
        name: 'smtp',
        async send(message: OutboxMessage) {
          await smtpTransport.send(message);
          sentBy[index]!++;
        },
        close: () => smtpTransport.close(),
      };
      const server = Fastify({ ...appOptions(), logger: false });
      await server.register(app, { config, database: handle, mailWorker: true, mailTransport: transport, mailPollMs: 10 });
      await server.ready();
      servers.push(server);
    }

    const count = 16;
    await first.db.transaction().execute(async (trx) => {
      for (let i = 0; i < count; i++) await queue(trx, `user${i}@example.com`);
    });
    for (const server of servers) server.mail.nudge();

    await smtp.waitFor(count, 10_000);
    for (const server of servers) await server.mail.flush();
    for (const server of servers) await polls(server.mail);
    assert.equal(smtp.messages.length, count);
    const recipients = smtp.messages.map((m) => m.envelope.to.join());
    assert.equal(new Set(recipients).size, count);
    assert.ok(sentBy[0]! > 0 && sentBy[1]! > 0, `both servers worked: ${sentBy.join(' + ')}`);
    assert.equal(sentBy[0]! + sentBy[1]!, count);
    const rows = await first.db.selectFrom('mail_outbox').select(['status', 'attempts']).execute();
    assert.equal(rows.length, count);
    for (const row of rows) assert.deepEqual(row, { status: 'sent', attempts: 1 });
  });

  it('should hold no transaction or row lock while sending, and finish the send on close', async (t) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let sending!: () => void;
    const started = new Promise<void>((resolve) => (sending = resolve));
    const transport: MailTransport = {
      name: 'test',
      async send() {
        sending();
        await released;
      },
      close() {},
    };
    const { app, database } = await build(t, { app: { mailWorker: true, mailTransport: transport, mailPollMs: 10 } });
    const id = await queue(database.db, 'ana@example.com');
    app.mail.nudge();
    await started;

    // On PGlite an open transaction would hold the one session and this would hang; on
    // PostgreSQL a held row lock would make NOWAIT fail.
    const locked = await Promise.race([
      database.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ id: string }>`select id from mail_outbox where id = ${id} for update nowait`.execute(trx);
        return rows.length;
      }),
      sleep(2000).then(() => 'timeout'),
    ]);
    assert.equal(locked, 1);
    const leased = await outboxRow(database.db, id);
    assert.equal(leased.status, 'pending');
    assert.equal(leased.attempts, 1);
    assert.ok(leased.locked_until && leased.locked_until.getTime() > Date.now() + 60_000, 'leased');

    await assertCloseWaitsFor(app, 'the e-mail being sent', release);
    const row = await outboxRow(database.db, id);
    assert.equal(row.status, 'sent');
  });

  it('should write each e-mail as an .eml file under DATA_DIR/mail when SMTP_URL is unset', async (t) => {
    const { app, database, config } = await build(t, { app: { mailWorker: true, mailPollMs: 20 } });
    t.after(() => fs.rm(config.dataDir, { recursive: true, force: true }));
    assert.equal(config.smtpUrl, null);
    const id = await queue(database.db, 'ana@example.com');
    app.mail.nudge();

    const dir = path.join(config.dataDir, 'mail');
    const files = await waitUntil(
      async () => {
        const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'));
        return names.length > 0 && names;
      },
      5000,
      'an .eml file',
    );
    assert.equal(files.length, 1);
    assert.match(files[0]!, new RegExp(`^\\d{8}T\\d{9}Z-${id.padStart(10, '0')}\\.eml$`));

    const parsed = await simpleParser(await fs.readFile(path.join(dir, files[0]!)));
    assert.equal(parsed.subject, 'Activez votre compte');
    assert.equal(parsed.from?.text, '"Paie" <no-reply@example.com>');
    assert.equal((Array.isArray(parsed.to) ? parsed.to[0] : parsed.to)?.text, 'ana@example.com');
    assert.ok(parsed.text?.split('\n').includes(SECRET_URL));
    assert.match(String(parsed.html), /<h1[^>]*>Activez votre compte<\/h1>/);
    assert.match(parsed.messageId ?? '', new RegExp(`^<outbox-${id}\\.\\d+@example\\.com>$`));

    const row = await waitUntil(
      async () => {
        const r = await outboxRow(database.db, id);
        return r.status === 'sent' && r;
      },
      2000,
      'status sent',
    );
    assert.equal(row.attempts, 1);
    assert.deepEqual(await fs.readdir(dir), files, 'no partial file left');
  });

  it('should send a row to every To and Cc address it carries, and one address as before', async (t) => {
    const smtp = await startSmtpServer();
    t.after(() => smtp.stop());
    const { app, database } = await build(t, { env: { SMTP_URL: smtp.url }, app: { mailWorker: true, mailPollMs: 20 } });
    const mail = activationEmail({
      firstName: null,
      orgName: null,
      role: 'AGENT',
      inviter: null,
      activationUrl: SECRET_URL,
      supportEmail: 'support@example.com',
    });
    await enqueueMail(database.db, { kind: 'test_many', to: ['ana@example.com', 'bob@example.com'], cc: ['chef@example.com', 'expert@example.com'], ...mail });
    await enqueueMail(database.db, { kind: 'test_one', to: 'zoe@example.com', ...mail });
    const rows = await database.db.selectFrom('mail_outbox').select(['kind', 'recipient', 'extra_to', 'cc']).orderBy('id').execute();
    assert.deepEqual(rows, [
      { kind: 'test_many', recipient: 'ana@example.com', extra_to: ['bob@example.com'], cc: ['chef@example.com', 'expert@example.com'] },
      { kind: 'test_one', recipient: 'zoe@example.com', extra_to: [], cc: [] },
    ]);
    app.mail.nudge();
    const [many, one] = await smtp.waitFor(2, 5000);
    assert.deepEqual(many!.envelope.to, ['ana@example.com', 'bob@example.com', 'chef@example.com', 'expert@example.com']);
    assert.equal(many!.parsed.headers.get('to') && (many!.parsed.to as { text: string }).text, 'ana@example.com, bob@example.com');
    assert.equal((many!.parsed.cc as { text: string }).text, 'chef@example.com, expert@example.com');
    assert.deepEqual(one!.envelope.to, ['zoe@example.com']);
    assert.equal(one!.parsed.cc, undefined);
    assert.ok(!/^cc:/im.test(one!.raw));
  });
});
