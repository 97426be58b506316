/**
 * How an e-mail leaves the process: over SMTP when `SMTP_URL` is set, else as an
 * `.eml` file under `DATA_DIR/mail/` (so that a local install shows what would have been sent,
 * e.g. the activation link, without any mail server).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../db/private-files.ts';

/** One e-mail of the outbox, ready to send. */
export interface OutboxMessage {
  /** The outbox row id: in `.eml` file names, the Message-ID and logs. */
  id: string;
  kind: string;
  /** One address or several. */
  to: string | string[];
  /** Copies; none when absent or empty. */
  cc?: string[];
  /** The `Reply-To` address; none when absent. */
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  /** When the e-mail was queued; makes the Message-ID unique across databases. */
  createdAt: Date;
}

export interface MailTransport {
  /** `smtp` or `eml`, for logs. */
  readonly name: string;
  /** Resolves once the message is accepted (by the SMTP server, or written to disk). */
  send(message: OutboxMessage): Promise<void>;
  close(): void;
}

/** Timeouts of one SMTP exchange: a server that hangs must not hold the worker for minutes. */
const SMTP_TIMEOUT_MS = 10_000;

function domainOf(address: string): string {
  const match = /@([^\s<>@]+?)>?\s*$/.exec(address);
  return match?.[1] ?? 'localhost';
}

function mailOptions(config: Config, message: OutboxMessage) {
  return {
    from: config.mailFrom,
    to: message.to,
    ...(message.cc && message.cc.length > 0 ? { cc: message.cc } : {}),
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    subject: message.subject,
    text: message.text,
    html: message.html,
    // The same id on every attempt, so a receiving system can tell a retried e-mail is
    // the same one; the creation time keeps ids of two deployments apart.
    messageId: `<outbox-${message.id}.${message.createdAt.getTime()}@${domainOf(config.mailFrom)}>`,
    date: message.createdAt,
    // RFC 3834: automatic mail; out-of-office responders should not answer it.
    headers: { 'Auto-Submitted': 'auto-generated' },
  };
}

export function createSmtpTransport(config: Config, smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    // One connection kept open across e-mails (the worker sends one at a time): a new
    // connection per e-mail cost more round trips than the e-mail itself (bench: billing).
    pool: true,
    maxConnections: 1,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    dnsTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    name: 'smtp',
    async send(message) {
      await transporter.sendMail(mailOptions(config, message));
    },
    close() {
      transporter.close();
    },
  };
}

/** `20261122T090500123Z-0000000042.eml`: files sort by time, then by outbox id. */
export function emlFileName(message: Pick<OutboxMessage, 'id'>, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${message.id.padStart(10, '0')}.eml`;
}

export function createEmlTransport(config: Config, directory: string = path.join(config.dataDir, 'mail')): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    name: 'eml',
    async send(message) {
      const info = await transporter.sendMail(mailOptions(config, message));
      const name = emlFileName(message);
      const file = path.join(directory, name);
      // Written aside (a hidden name that is not `.eml`) then renamed: a reader never sees
      // half a message.
      const partial = path.join(directory, `.${name}.partial`);
      const write = () => fs.writeFile(partial, info.message as Buffer, { mode: PRIVATE_FILE_MODE });
      try {
        await write();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        // The folder is made when first needed (or again, if it was removed): private, since
        // each file holds a live sign-in or invitation link (DATA_DIR, see db/private-files.ts).
        await fs.mkdir(directory, { recursive: true, mode: PRIVATE_DIR_MODE });
        await write();
      }
      await fs.rename(partial, file);
    },
    close() {
      transporter.close();
    },
  };
}

/** SMTP when configured, else `.eml` files under `DATA_DIR/mail/`. */
export function createMailTransport(config: Config): MailTransport {
  return config.smtpUrl ? createSmtpTransport(config, config.smtpUrl) : createEmlTransport(config);
}
