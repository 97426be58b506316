/**
 * What the one error handler makes of failures that are not the client's fault, or not a
 * failure at all: an internal error carrying `validation` is a 500 with its log line (only
 * Fastify's own request validation is a 400); a client that resets its connection mid-body is
 * logged as such, at info, without a stack; a body that takes longer than the request limit to
 * arrive is cut with 408 at that limit (here a small one), not at the next 30 s check of Node.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import app, { appOptions } from '../../src/app.ts';
import { freshDatabase, testConfig } from '../helper.ts';
import { signedIn } from '../support/fixtures.ts';

interface LogLine {
  level: number;
  msg: string;
  err?: { stack?: string };
  [key: string]: unknown;
}

async function loggedApp(t: { after(fn: () => unknown): void }, limits: { requestTimeoutMs?: number } = {}) {
  const lines: LogLine[] = [];
  const logged = new EventEmitter();
  const stream = new Writable({
    write(chunk, _encoding, done) {
      const line = JSON.parse(String(chunk)) as LogLine;
      lines.push(line);
      logged.emit('line', line);
      done();
    },
  });
  const config = testConfig();
  const database = await freshDatabase();
  const fastify = Fastify({ ...appOptions(config, limits), logger: { level: 'info', stream } });
  await fastify.register(app, { config, database, mailWorker: false, payrollWorker: false });
  await fastify.register(async (instance) => {
    instance.post('/echo', { config: { public: true }, schema: { body: Type.Object({ n: Type.Integer() }) } }, async (request) => request.body);
    // What the e-invoice library throws when its own JSON schema refuses an invoice.
    instance.get('/boom-validation', { config: { public: true } }, async () => {
      throw Object.assign(new Error('validation failed'), { validation: [{ instancePath: '/x', message: 'must be equal to one of the allowed values' }] });
    });
  });
  await fastify.ready();
  t.after(async () => {
    await fastify.close();
    await database.close();
  });
  /** The first line logged (now or later) whose message matches `pattern`. */
  const lineMatching = async (pattern: RegExp): Promise<LogLine> => {
    const seen = lines.find((line) => pattern.test(line.msg));
    if (seen) return seen;
    for (;;) {
      const [line] = (await once(logged, 'line')) as [LogLine];
      if (pattern.test(line.msg)) return line;
    }
  };
  return { fastify, database, lines, lineMatching };
}

/** Opens a raw connection, writes `head` and the start of a body, and resolves with what the server answered before closing. */
function partialRequest(port: number, head: string, bodyStart: string): { socket: net.Socket; answer: Promise<string> } {
  const socket = net.connect(port, '127.0.0.1');
  socket.write(`${head}\r\n\r\n${bodyStart}`);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  const answer = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  socket.on('error', () => {});
  return { socket, answer };
}

describe('the error handler', () => {
  it('should answer 500 server_error, logged at error level, to an internal error that carries `validation`; 400 to a request that fails validation', async (t) => {
    const { fastify, lines } = await loggedApp(t);
    const res = await fastify.inject({ method: 'GET', url: '/boom-validation' });
    assert.equal(res.statusCode, 500, res.body);
    assert.deepEqual(res.json(), { error: 'server_error', message: 'Erreur interne du serveur.' });
    const line = lines.find((l) => l.msg === 'unexpected failure');
    assert.ok(line, 'logged');
    assert.equal(line.level, 50);
    // Fastify's own validation of a request stays a 400.
    const bad = await fastify.inject({ method: 'POST', url: '/echo', payload: { n: 'x' } });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal(bad.json().error, 'invalid_request');
  });

  it('should log a client that resets its connection mid-body as an aborted request, at info, without a stack, never as the database', async (t) => {
    const { fastify, lines, lineMatching } = await loggedApp(t);
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = fastify.server.address() as AddressInfo;
    const { socket } = partialRequest(port, 'POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000', '{"email":"');
    // Reset once the server holds the request (its log line "incoming request").
    await lineMatching(/incoming request/);
    socket.resetAndDestroy();
    const line = await lineMatching(/client aborted|database unavailable|unexpected failure/);
    assert.equal(line.msg, 'client aborted the request');
    assert.equal(line.level, 30);
    assert.equal(line.err, undefined, 'no stack');
    assert.ok(!lines.some((l) => l.msg === 'database unavailable'));
  });

  it('should cut a body still arriving at the request limit with 408 request_timeout', { timeout: 20_000 }, async (t) => {
    const { fastify } = await loggedApp(t, { requestTimeoutMs: 400 });
    const staff = await signedIn(fastify, fastify.db, 'staff@ops.example', { staff: 'STAFF' });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = fastify.server.address() as AddressInfo;
    const { answer } = partialRequest(
      port,
      `PUT /api/staff/contrats/00000000-0000-4000-8000-000000000000/signed-pdf HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${staff.cookie}\r\nContent-Type: application/pdf\r\nContent-Length: 100000`,
      '%PDF-1.4\n',
    );
    const received = await answer;
    assert.match(received, /^HTTP\/1\.1 408 /);
    assert.equal(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)).error, 'request_timeout');
  });
});
