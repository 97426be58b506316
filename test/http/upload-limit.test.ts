/**
 * A body over its limit sent to a real listening server: the client reads the 413,
 * whatever the body's framing, instead of losing the connection while it still writes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from '../helper.ts';
import { createOrg, member, signedIn } from '../support/fixtures.ts';
import { PDF_BODY_LIMIT } from '../../src/files/pdf-upload.ts';

const SIGNED_PDF = '/api/staff/contrats/00000000-0000-4000-8000-000000000000/signed-pdf';

interface Sent {
  status: number | null;
  body: string;
  error: string | null;
}

/** PUTs `size` bytes in 64 KiB chunks, chunked or with a length; what the client saw. */
function upload(port: number, path: string, cookie: string, size: number, framing: 'chunked' | 'length'): Promise<Sent> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { cookie, 'content-type': 'application/pdf' };
    if (framing === 'length') headers['content-length'] = String(size);
    const request = http.request({ host: '127.0.0.1', port, path, method: 'PUT', headers, agent: false });
    let status: number | null = null;
    let body = '';
    let settled = false;
    const done = (error: string | null) => {
      if (settled) return;
      settled = true;
      resolve({ status, body, error });
    };
    request.on('response', (response) => {
      status = response.statusCode ?? null;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => done(null));
      response.on('error', (error) => done(`${(error as NodeJS.ErrnoException).code ?? error.message} after the answer`));
    });
    request.on('error', (error) => done(`${(error as NodeJS.ErrnoException).code ?? error.message}${status === null ? ' before any answer' : ''}`));
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    chunk.write('%PDF-1.4\n');
    let sent = 0;
    const write = () => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!request.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void request.once('drain', write);
      }
      request.end();
    };
    write();
  });
}

describe('a body over its limit on a listening server', () => {
  // 10 MiB + 1 byte is the case; on this machine's loopback the client has written it
  // all before the answer, so 9 MiB more is what made the connection reset before the fix.
  const cases = [
    { framing: 'chunked', size: PDF_BODY_LIMIT + 1, label: '10 MiB + 1 byte' },
    { framing: 'chunked', size: PDF_BODY_LIMIT + 9 * 1024 * 1024, label: '19 MiB' },
    { framing: 'length', size: PDF_BODY_LIMIT + 9 * 1024 * 1024, label: '19 MiB' },
  ] as const;
  for (const { framing, size, label } of cases) {
    it(`should let the client read 413 for a ${framing} PDF upload of ${label}`, async (t) => {
      const { app, database } = await build(t);
      const staff = await signedIn(app, database.db, 'staff@ops.example', { staff: 'STAFF' });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const sent = await upload(port, SIGNED_PDF, staff.cookie, size, framing);
      assert.equal(sent.error, null, `the client saw ${sent.error}`);
      assert.equal(sent.status, 413);
      assert.equal(JSON.parse(sent.body).error, 'payload_too_large');
    });
  }

  it('should let an anonymous client read 401 before its 19 MiB upload is read', async (t) => {
    const { app } = await build(t);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const sent = await upload(port, SIGNED_PDF, '', PDF_BODY_LIMIT + 9 * 1024 * 1024, 'chunked');
    assert.equal(sent.error, null, `the client saw ${sent.error}`);
    assert.equal(sent.status, 401);
    assert.equal(sent.body, 'Unauthorized');
  });
});

/** Sends the headers and `sent` bytes of a body announced as `announced`, then waits: the answer, or null after `waitMs`. */
function answerBeforeBody(
  port: number,
  path: string,
  headers: Record<string, string>,
  sent: number,
  announced: number,
  waitMs = 3000,
): Promise<{ status: number; body: string } | null> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      path,
      method: path.endsWith('signed-pdf') ? 'PUT' : 'POST',
      agent: false,
      headers: { ...headers, 'content-length': String(announced) },
    });
    const timer = setTimeout(() => {
      request.destroy();
      resolve(null);
    }, waitMs);
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        clearTimeout(timer);
        request.destroy();
        resolve({ status: response.statusCode!, body });
      });
    });
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.write(Buffer.alloc(sent, 0x5b));
  });
}

describe('a gated route refuses before it reads a body', () => {
  it('should answer 401 and 403 while the body is still on its way', async (t) => {
    const { app, database } = await build(t);
    const orgId = await createOrg(database.db, 'Org');
    const agent = await member(app, database.db, orgId, 'agent@example.com', 'AGENT');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const json = { 'content-type': 'application/json' };
    const pdf = { 'content-type': 'application/pdf' };
    const cases = [
      { path: '/api/staff/facturation/bulk-create', headers: json, announced: 4 * 1024 * 1024, status: 401 },
      { path: SIGNED_PDF, headers: pdf, announced: PDF_BODY_LIMIT, status: 401 },
      { path: SIGNED_PDF, headers: { ...pdf, cookie: agent.cookie }, announced: PDF_BODY_LIMIT, status: 403 },
      { path: '/api/contrats', headers: json, announced: 60 * 1024, status: 401 },
    ];
    for (const { path, headers, announced, status } of cases) {
      const answer = await answerBeforeBody(port, path, headers, 16 * 1024, announced);
      assert.ok(answer, `${path}: no answer before the body was complete`);
      assert.equal(answer.status, status, path);
    }
  });
});
