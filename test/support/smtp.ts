/**
 * A real SMTP server for tests: listens on 127.0.0.1 (a free port), accepts mail without
 * authentication or TLS, parses each message with mailparser and keeps it.
 *
 * @example
 * const smtp = await startSmtpServer();
 * t.after(() => smtp.stop());
 * const { app } = await build(t, { env: { SMTP_URL: smtp.url }, app: { mailWorker: true } });
 * const [mail] = await smtp.waitFor(1);
 */
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface ReceivedMail {
  /** Envelope sender and recipients, as given to MAIL FROM / RCPT TO. */
  envelope: { from: string | null; to: string[] };
  parsed: ParsedMail;
  subject: string;
  text: string;
  /** The HTML part as sent (entities not decoded); '' when absent. */
  html: string;
  /** The whole message as received. */
  raw: string;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`: the value for `SMTP_URL`. */
  readonly url: string;
  readonly port: number;
  /** Every message accepted so far, in order. */
  readonly messages: ReceivedMail[];
  /** How many messages were refused while `refuse` was on. */
  readonly refusedCount: number;
  /**
   * When true, every message is refused at the end of DATA with `554 5.7.1 Refusé pour test`
   * (the client gets a permanent SMTP error).
   */
  refuse: boolean;
  /** Resolves with the messages once at least `count` are received; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Stops listening: connections are then refused, as when the mail server is down. */
  stop(): Promise<void>;
  /** Listens again on the same port (after `stop()`). */
  restart(): Promise<void>;
}

export async function startSmtpServer(options: { port?: number } = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let server: SMTPServer | null = null;
  let refusedCount = 0;

  const state = {
    refuse: false,
  };

  function createServer(): SMTPServer {
    return new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      // No reverse DNS of 127.0.0.1: it costs ~100 ms per connection.
      disableReverseLookup: true,
      // Do not keep a test waiting 30 s on close for an idle client.
      closeTimeout: 200,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', callback);
        stream.on('end', () => {
          if (state.refuse) {
            refusedCount++;
            const error = Object.assign(new Error('5.7.1 Refusé pour test'), { responseCode: 554 });
            callback(error);
            return;
          }
          const raw = Buffer.concat(chunks);
          simpleParser(raw)
            .then((parsed) => {
              messages.push({
                envelope: {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
                  to: session.envelope.rcptTo.map((r) => r.address),
                },
                parsed,
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : '',
                raw: raw.toString('utf8'),
              });
              for (const wake of waiters) wake();
              callback();
            })
            .catch(callback);
        });
      },
    });
  }

  async function listen(port: number): Promise<number> {
    const next = createServer();
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        next.off('error', reject);
        resolve();
      });
    });
    // Errors of single connections (a client hanging up) are not test failures.
    next.on('error', () => {});
    server = next;
    const address = next.server.address();
    if (address === null || typeof address === 'string') throw new Error('SMTP test server has no port');
    return address.port;
  }

  const port = await listen(options.port ?? 0);

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    get refusedCount() {
      return refusedCount;
    },
    get refuse() {
      return state.refuse;
    },
    set refuse(value: boolean) {
      state.refuse = value;
    },
    waitFor(count, timeoutMs = 5000) {
      if (messages.length >= count) return Promise.resolve(messages.slice());
      return new Promise((resolve, reject) => {
        const wake = () => {
          if (messages.length < count) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(messages.slice());
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`expected ${count} e-mail(s) within ${timeoutMs} ms, received ${messages.length}`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    async stop() {
      const current = server;
      server = null;
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    async restart() {
      if (server) return;
      await listen(port);
    },
  };
}
