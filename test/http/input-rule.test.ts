/**
 * C, D: input.ts's rule on every text a request carries (never a database error),
 * bodies validated without type coercion, and gated routes refusing before reading a body.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { cddu, createOrg, member, signedIn, type Person } from '../support/fixtures.ts';

async function setup(t: Parameters<typeof build>[0]) {
  const { app, database } = await build(t);
  const db = database.db;
  const orgId = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const agent = await member(app, db, orgId, 'agent@soleil.example', 'AGENT');
  const compta = await member(app, db, orgId, 'compta@soleil.example', 'COMPTA');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
  const call = (who: Person | null, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method,
      url,
      headers: { ...(who ? { cookie: who.cookie } : {}), ...headers },
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
      ...(payload === undefined || headers['content-type']
        ? {}
        : { headers: { ...(who ? { cookie: who.cookie } : {}), 'content-type': 'application/json', ...headers } }),
    });
  const employee = (await call(agent, 'POST', '/api/salaries', { first_name: 'Hélène', last_name: 'Lefèvre' })).json().id as string;
  return { app, db, orgId, agent, compta, staff, call, employee };
}

const cursorOf = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');

describe('the text rule on every body and query', () => {
  it('should refuse a NUL, a control character or a bidi override in a contract, a note and a search with 400 invalid_<field>', async (t) => {
    const { agent, staff, call, employee } = await setup(t);
    for (const [field, value] of [
      ['show_title', 'a\u0000b'],
      ['job_title', 'a\u0000b'],
      ['show_title', 'abc\u202edcba'],
      ['job_title', 'ligne\nautre'],
      ['idcc', '30\u000090'],
    ] as const) {
      const res = await call(agent, 'POST', '/api/contrats', cddu(employee, { [field]: value }));
      assert.equal(res.statusCode, 400, `${field} ${JSON.stringify(value)}: ${res.body}`);
      assert.equal(res.json().error, `invalid_${field}`);
    }
    const made = await call(agent, 'POST', '/api/contrats', cddu(employee));
    assert.equal(made.statusCode, 201, made.body);
    const id = made.json().id as string;
    for (const field of ['show_title', 'job_title']) {
      const res = await call(agent, 'PATCH', `/api/contrats/${id}`, { [field]: 'a\u0000b' });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error, `invalid_${field}`);
    }
    const nul = await call(agent, 'POST', `/api/contrats/${id}/notes`, { text: 'a\u0000b' });
    assert.equal(nul.statusCode, 400, nul.body);
    assert.equal(nul.json().error, 'invalid_text');
    const bidi = await call(agent, 'POST', `/api/contrats/${id}/notes`, { text: 'abc\u202edcba' });
    assert.equal(bidi.json().error, 'invalid_text');
    // A note may hold several lines and tabs.
    const lines = await call(agent, 'POST', `/api/contrats/${id}/notes`, { text: 'Première ligne\n\tseconde' });
    assert.equal(lines.statusCode, 201, lines.body);
    assert.equal(lines.json().text, 'Première ligne\n\tseconde');
    for (const url of ['/api/contrats?q=a%00b', '/api/contrats?q=abc%E2%80%AEdcba', '/api/staff/contrats?q=%00']) {
      const res = await call(url.startsWith('/api/staff') ? staff : agent, 'GET', url);
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.deepEqual(res.json().error, 'invalid_q');
    }
    const page = await call(agent, 'GET', '/contrats?q=%00', undefined, { accept: 'text/html' });
    assert.equal(page.statusCode, 400);
    assert.match(String(page.headers['content-type']), /^text\/html/);
  });

  it('should refuse a body value of the wrong type instead of converting it (400 invalid_<field>)', async (t) => {
    const { agent, call, employee } = await setup(t);
    const id = (await call(agent, 'POST', '/api/contrats', cddu(employee))).json().id as string;
    const note = await call(agent, 'POST', `/api/contrats/${id}/notes`, { text: 42 });
    assert.equal(note.statusCode, 400, note.body);
    assert.equal(note.json().error, 'invalid_text');
    const title = await call(agent, 'PATCH', `/api/contrats/${id}`, { show_title: true });
    assert.equal(title.json().error, 'invalid_show_title');
    const name = await call(agent, 'POST', '/api/salaries', { first_name: 'A', last_name: 12 });
    assert.equal(name.json().error, 'invalid_last_name');
    // Query strings keep their conversion: `limit=1` is still a number where one is declared.
    assert.equal((await call(agent, 'GET', '/api/contrats?limit=1')).statusCode, 200);
  });
});

describe('a forged cursor', () => {
  it('should be 400 invalid_cursor on every list and page when a key holds a NUL, never a database error', async (t) => {
    const { agent, compta, staff, call } = await setup(t);
    const forged = [['a\u0000b'], ['2027-01-01', 'a\u0000b'], ['a\u0000b', '00000000-0000-4000-8000-000000000000']].map(cursorOf);
    const routes: [Person, string][] = [
      [compta, '/api/factures?cursor='],
      [compta, '/api/cotisations?cursor='],
      [agent, '/api/contrats?cursor='],
      [agent, '/api/salaries?cursor='],
      [agent, '/api/payslips?cursor='],
      [staff, '/api/staff/contrats?cursor='],
      [staff, '/api/staff/facturation?cursor='],
      [staff, '/api/staff/payslips/available?cursor='],
    ];
    let tried = 0;
    for (const [who, url] of routes) {
      for (const cursor of forged) {
        const res = await call(who, 'GET', `${url}${cursor}`);
        assert.equal(res.statusCode, 400, `${url}${cursor}: ${res.body}`);
        assert.equal(res.json().error, 'invalid_cursor', url);
        tried++;
      }
    }
    for (const [who, url] of [
      [compta, '/factures?cursor_factures='],
      [compta, '/factures?cursor_appels='],
      [staff, '/staff/facturation?cursor='],
    ] as const) {
      for (const cursor of forged) {
        const res = await call(who, 'GET', `${url}${cursor}`, undefined, { accept: 'text/html' });
        assert.equal(res.statusCode, 400, `${url}${cursor}: ${res.body.slice(0, 200)}`);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        tried++;
      }
    }
    assert.equal(tried, 33);
  });
});

describe('bodies before the caller is known', () => {
  it('should refuse an anonymous deep 4 MiB body and an anonymous PDF with 401', async (t) => {
    const { call } = await setup(t);
    const deep = '['.repeat(4 * 1024 * 1024 - 16);
    const bulk = await call(null, 'POST', '/api/staff/facturation/bulk-create', deep, { 'content-type': 'application/json' });
    assert.equal(bulk.statusCode, 401);
    assert.equal(bulk.body, 'Unauthorized');
    const pdf = await call(
      null,
      'PUT',
      '/api/staff/contrats/00000000-0000-4000-8000-000000000000/signed-pdf',
      Buffer.alloc(10 * 1024 * 1024, 0x41).toString('latin1'),
      {
        'content-type': 'application/pdf',
      },
    );
    assert.equal(pdf.statusCode, 401);
    // That they are not read first: test/http/upload-limit.test.ts, on a listening server.
  });

  it('should refuse 403 to a member on a staff route and answer a body nested over 32 deep with 400 json_too_deep', async (t) => {
    const { agent, staff, call } = await setup(t);
    const forbidden = await call(agent, 'POST', '/api/staff/facturation/bulk-create', '['.repeat(100_000), { 'content-type': 'application/json' });
    assert.equal(forbidden.statusCode, 403);
    const deep = await call(staff, 'POST', '/api/staff/facturation/bulk-create', `{"items":${'['.repeat(40)}${']'.repeat(40)}}`, {
      'content-type': 'application/json',
    });
    assert.equal(deep.statusCode, 400, deep.body);
    assert.equal(deep.json().error, 'json_too_deep');
    // Brackets inside strings are text, not nesting.
    const inString = await call(staff, 'POST', '/api/staff/facturation/bulk-create', JSON.stringify({ items: ['['.repeat(100)] }), {
      'content-type': 'application/json',
    });
    assert.notEqual(inString.json().error, 'json_too_deep');
  });
});
