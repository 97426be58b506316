/**
 * The delivery worker: drains `mail_outbox`.
 *
 * Claiming and sending are separate steps. A claim is one short statement that takes a due
 * row with `FOR UPDATE SKIP LOCKED`, counts the attempt and leases the row (`locked_until`);
 * it commits at once. The e-mail is then sent with no transaction open, so a slow or
 * hanging SMTP server never holds a database connection, a row lock, or (on PGlite) the one
 * session every request needs. Another server's worker skips a locked or leased row, so two
 * servers on one database never send the same e-mail twice.
 *
 * A lease only expires when its worker died mid-send (a graceful stop waits for the send in
 * flight); the row is then sent again by whoever claims it next. The attempt is counted at
 * claim time, so even an e-mail that crashes the process stops being retried eventually.
 *
 * Logs carry the outbox id, the kind and the recipient's domain: never the body (it holds
 * one-time links) nor the full address.
 */
import { sql } from 'kysely';
import { preparedStatement, type Database } from '../db/database.ts';
import type { MailTransport, OutboxMessage } from './transport.ts';

export interface MailLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface MailWorkerOptions {
  db: Database;
  transport: MailTransport;
  log: MailLogger;
  /**
   * How often the outbox is checked when nothing nudges the worker.
   * @default 1000
   */
  pollMs?: number;
  /**
   * Delay before the first retry; doubled at each further failure.
   * @default 2000
   */
  retryBaseMs?: number;
  /**
   * Longest delay between two attempts.
   * @default 600000 (10 minutes)
   */
  retryMaxMs?: number;
  /**
   * Attempts before an e-mail is marked `failed`.
   * @default 12 (about 37 minutes of retries with the default delays)
   */
  maxAttempts?: number;
  /**
   * How long a claimed row is reserved to its worker. Must exceed the longest send (SMTP
   * timeouts are 10 s per step); it only matters when a worker dies mid-send.
   * @default 120000
   */
  leaseMs?: number;
}

interface ClaimedRow {
  id: string;
  kind: string;
  recipient: string;
  extra_to: string[];
  cc: string[];
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
  created_at: Date;
}

/** Where the e-mail goes, without saying to whom: `example.com`. */
export function recipientDomain(address: string): string {
  const at = address.lastIndexOf('@');
  return at >= 0 ? address.slice(at + 1).toLowerCase() : '?';
}

/** Delay before attempt `attempts + 1`: base, 2×base, 4×base… capped. */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
}

/**
 * What is stored in `last_error` and logged: the error's code, SMTP response code and
 * message, with any `user:password@` of a URL and the local part of any address masked, and
 * the length bounded.
 */
export function describeSendError(error: unknown): string {
  const e = (error ?? {}) as { code?: unknown; responseCode?: unknown; message?: unknown };
  const parts: string[] = [];
  if (typeof e.code === 'string') parts.push(e.code);
  if (typeof e.responseCode === 'number') parts.push(String(e.responseCode));
  const message = typeof e.message === 'string' ? e.message : String(error);
  parts.push(
    message
      .replace(/\/\/[^\s/@]*@/g, '//***@')
      // SMTP replies often quote the recipient ("<ana@x.fr>: mailbox unavailable").
      .replace(/[^\s<>"'(),;:/@]+@(?=[^\s@])/g, '***@')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  const text = parts.join(' ');
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

/** Rows a worker claims at once; each is still marked sent as soon as it has left. */
const CLAIM_BATCH = 10;

/** Outbox ids (bigint, as text) in numeric order. */
function compareIds(a: string, b: string): number {
  const difference = BigInt(a) - BigInt(b);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

export class MailWorker {
  private readonly db: Database;
  private readonly transport: MailTransport;
  private readonly log: MailLogger;
  private readonly pollMs: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly maxAttempts: number;
  private readonly leaseMs: number;

  private state: 'idle' | 'running' | 'stopping' | 'stopped' = 'idle';
  private timer: NodeJS.Timeout | null = null;
  /** Passes run one after the other: this is the end of the last one queued. */
  private tail: Promise<unknown> = Promise.resolve();
  private passesEnded = 0;

  constructor(options: MailWorkerOptions) {
    this.db = options.db;
    this.transport = options.transport;
    this.log = options.log;
    this.pollMs = options.pollMs ?? 1000;
    this.retryBaseMs = options.retryBaseMs ?? 2000;
    this.retryMaxMs = options.retryMaxMs ?? 600_000;
    this.maxAttempts = options.maxAttempts ?? 12;
    this.leaseMs = options.leaseMs ?? 120_000;
  }

  /** Starts polling; the first pass runs at once (e-mails left by a previous run). */
  start(): void {
    if (this.state !== 'idle') return;
    this.state = 'running';
    this.schedule(0);
  }

  /** Runs a pass now (e.g. after a commit that queued mail) instead of at the next poll. */
  nudge(): void {
    // A pass already under way may have missed the new row: the pass this queues runs
    // right after it. Nudges in a burst share one timer, hence one pass.
    if (this.state === 'running') this.schedule(0);
  }

  /**
   * Runs one delivery pass now, after any pass in progress, and resolves with the number of
   * e-mails it tried. Works whether or not the worker polls (e.g. from a command).
   */
  flush(): Promise<number> {
    return this.pass();
  }

  /** Stops polling and resolves once the e-mail being sent, if any, is done. */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopping';
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.tail;
    this.state = 'stopped';
  }

  /** Read through a method: `drain` checks it again after awaits the compiler cannot see through. */
  private stopping(): boolean {
    return this.state === 'stopping' || this.state === 'stopped';
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    // Polling alone must not keep the process alive.
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = null;
    if (this.state !== 'running') return;
    try {
      await this.pass();
    } catch (error) {
      this.log.error({ err: describeSendError(error) }, 'mail outbox: delivery pass failed');
    }
    // A nudge during the pass has set a newer timer: keep it.
    if (this.state === 'running' && this.timer === null) this.schedule(this.pollMs);
  }

  /** How many delivery passes have ended, polls and flushes alike: what "it polled again" means. */
  get passes(): number {
    return this.passesEnded;
  }

  private pass(): Promise<number> {
    const run = this.tail.then(() => this.drain());
    this.tail = run.catch(() => undefined).finally(() => this.passesEnded++);
    return run;
  }

  /** Sends due e-mails one by one until none is due, one fails, or the worker stops. */
  private async drain(): Promise<number> {
    let tried = 0;
    while (this.state !== 'stopping' && this.state !== 'stopped') {
      let rows: ClaimedRow[];
      try {
        rows = await this.claim();
      } catch (error) {
        // Database unreachable: the next poll tries again.
        this.log.warn({ err: describeSendError(error) }, 'mail outbox: cannot read the outbox');
        return tried;
      }
      if (rows.length === 0) return tried;
      const claimedAt = Date.now();
      for (const [index, row] of rows.entries()) {
        // Stopping, or half the lease gone (a slow server): the rest go back to the outbox
        // untried, before another worker could take them for a lease that ran out.
        const stop = this.stopping() || Date.now() - claimedAt > this.leaseMs / 2;
        if (stop) {
          await this.release(rows.slice(index));
          return tried;
        }
        tried++;
        // A failure is most often the server (down, refusing): wait for the next poll rather
        // than spend the connection timeout on every other due e-mail now.
        if (!(await this.deliver(row))) {
          await this.release(rows.slice(index + 1));
          return tried;
        }
      }
    }
    return tried;
  }

  /**
   * Takes up to CLAIM_BATCH due rows for this worker: a single statement, so the row locks
   * taken by `FOR UPDATE SKIP LOCKED` last only until it commits. The lease then keeps others
   * away. One claim per batch rather than per e-mail spares the database a statement per e-mail.
   */
  private async claim(): Promise<ClaimedRow[]> {
    const { rows } = await sql<ClaimedRow>`${preparedStatement('outbox_claim_batch')}
      with due as (
        select id from mail_outbox
         where status = 'pending'
           and next_attempt_at <= now()
           and (locked_until is null or locked_until < now())
         order by next_attempt_at, id
         limit ${sql.lit(CLAIM_BATCH)}
         for update skip locked
      )
      update mail_outbox m
         set locked_until = now() + ${this.leaseMs}::double precision * interval '1 millisecond',
             attempts = m.attempts + 1
        from due
       where m.id = due.id
      returning m.id, m.kind, m.recipient, m.extra_to, m.cc, m.reply_to, m.subject, m.text_body, m.html_body, m.attempts, m.created_at`.execute(this.db);
    // `update … from` returns rows in no set order: send them in the order they were due.
    return rows.sort((a, b) => compareIds(a.id, b.id));
  }

  /** Gives claimed rows that were not tried back to the outbox, as if never claimed. */
  private async release(rows: ClaimedRow[]): Promise<void> {
    for (const row of rows) {
      try {
        await this.db
          .updateTable('mail_outbox')
          .set({ locked_until: null, attempts: row.attempts - 1 })
          .where('id', '=', row.id)
          .where('attempts', '=', row.attempts)
          .where('status', '=', 'pending')
          .execute();
      } catch {
        // Its lease runs out and it is tried again then.
      }
    }
  }

  /** Sends a claimed row (no transaction open) and records the outcome. */
  private async deliver(row: ClaimedRow): Promise<boolean> {
    const context = { outboxId: row.id, kind: row.kind, recipientDomain: recipientDomain(row.recipient), attempt: row.attempts };
    const message: OutboxMessage = {
      id: row.id,
      kind: row.kind,
      to: row.extra_to.length > 0 ? [row.recipient, ...row.extra_to] : row.recipient,
      cc: row.cc,
      ...(row.reply_to ? { replyTo: row.reply_to } : {}),
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      createdAt: new Date(row.created_at),
    };
    let failure: string | null = null;
    try {
      await this.transport.send(message);
    } catch (error) {
      failure = describeSendError(error);
    }
    try {
      if (failure === null) {
        await this.markSent(row);
        this.log.info({ ...context, transport: this.transport.name }, 'mail sent');
      } else if (row.attempts >= this.maxAttempts) {
        await this.markFailed(row, failure);
        this.log.error({ ...context, error: failure }, 'mail delivery failed for good: marked failed');
      } else {
        const delayMs = retryDelayMs(row.attempts, this.retryBaseMs, this.retryMaxMs);
        await this.scheduleRetry(row, failure, delayMs);
        this.log.warn({ ...context, error: failure, retryInMs: delayMs }, 'mail delivery failed: will retry');
      }
    } catch (error) {
      // The outcome is not recorded: the lease keeps the row away until it expires, then it
      // is tried again (possibly a second delivery: the only case, and it needs a database
      // failure right after a successful send).
      this.log.error({ ...context, sent: failure === null, err: describeSendError(error) }, 'mail outbox: cannot record the outcome');
    }
    return failure === null;
  }

  // Each outcome is written only if the row is still this worker's claim (same attempt),
  // so a worker whose lease ran out cannot overwrite a newer attempt's result.

  private async markSent(row: ClaimedRow): Promise<void> {
    await this.db
      .updateTable('mail_outbox')
      .set({ status: 'sent', sent_at: sql`now()`, locked_until: null, last_error: null })
      .where('id', '=', row.id)
      .where('attempts', '=', row.attempts)
      .where('status', '=', 'pending')
      .execute();
  }

  private async markFailed(row: ClaimedRow, error: string): Promise<void> {
    await this.db
      .updateTable('mail_outbox')
      .set({ status: 'failed', locked_until: null, last_error: error })
      .where('id', '=', row.id)
      .where('attempts', '=', row.attempts)
      .where('status', '=', 'pending')
      .execute();
  }

  private async scheduleRetry(row: ClaimedRow, error: string, delayMs: number): Promise<void> {
    await this.db
      .updateTable('mail_outbox')
      .set({
        next_attempt_at: sql`now() + ${delayMs}::double precision * interval '1 millisecond'`,
        locked_until: null,
        last_error: error,
      })
      .where('id', '=', row.id)
      .where('attempts', '=', row.attempts)
      .where('status', '=', 'pending')
      .execute();
  }
}
