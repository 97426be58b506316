/** The server's log redaction: a database error's values never reach the logs. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { LOG_REDACTION } from '../../src/http/log-redaction.ts';

describe('LOG_REDACTION', () => {
  it("should log a database error's message but not its detail nor its parameters", async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: { level: 'error', redact: LOG_REDACTION, stream: { write: (line: string) => void lines.push(line) } } });
    const error = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      code: '23505',
      detail: 'Key (email)=(helene.lefevre@example.com) already exists.',
      params: ['helene.lefevre@example.com', 'une note privée'],
    });
    app.log.error({ err: error }, 'unexpected failure');
    await app.close();
    assert.equal(lines.length, 1);
    const logged = JSON.parse(lines[0]!) as { err: Record<string, unknown> };
    assert.equal(logged.err.message, 'duplicate key value violates unique constraint "users_email_key"');
    assert.equal(logged.err.code, '23505');
    assert.equal(logged.err.detail, '[redacted]');
    assert.equal(logged.err.params, '[redacted]');
    assert.ok(!lines[0]!.includes('helene.lefevre@example.com'));
  });
});
