import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { build, untilBlockedOnALock } from '../helper.ts';
import { cddu, createOrg, member, outbox, signedIn, type Person } from '../support/fixtures.ts';
import { pdfText } from '../support/documents.ts';
import { numberingYear } from '../../src/format/calendar.ts';
import { replaceGeneratedPdf, storeGeneratedPdf } from '../../src/contracts/contracts.repository.ts';
import * as noteAuthorStaff from '../../src/db/migrations/2026_11_27_01_00_00_contract_note_author_staff.ts';

const YEAR = numberingYear(new Date());

async function setup(t: Parameters<typeof build>[0]) {
  const { app, database } = await build(t);
  const db = database.db;
  const orgId = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const otherId = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const agent = await member(app, db, orgId, 'agent@soleil.example', 'AGENT', { metadata: { first_name: 'Inès' } });
  const outsider = await member(app, db, otherId, 'agent@lumiere.example', 'AGENT');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });
  const call = (who: Person, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { cookie: who.cookie, ...headers }, ...(payload ? { payload } : {}) });
  // Artists: a CDDU goes out for signature only with its employee's category.
  const employee = (who: Person, first_name: string, last_name: string) =>
    call(who, 'POST', '/api/salaries', { first_name, last_name, category: 'artiste' }).then((r) => r.json().id as string);
  const helene = await employee(agent, 'Hélène', 'Lefèvre');
  return { app, db, orgId, otherId, agent, outsider, staff, call, employee, helene };
}

describe('POST /api/contrats', () => {
  it('should create a numbered draft with its dates and their total', async (t) => {
    const { db, orgId, agent, call, helene } = await setup(t);
    const res = await call(agent, 'POST', '/api/contrats', cddu(helene));
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.match(body.contract_number, new RegExp(`^C-${YEAR}-\\d{6}$`));
    assert.equal(body.contract_number, `C-${YEAR}-000001`);
    assert.deepEqual(
      { ...body, id: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        org_id: orgId,
        contract_number: `C-${YEAR}-000001`,
        employee_id: helene,
        employee: { first_name: 'Hélène', last_name: 'Lefèvre' },
        kind: 'CDDU',
        status: 'brouillon',
        job_title: 'Comédienne',
        show_title: 'Les Misérables',
        idcc: '3090',
        start_date: '2027-03-01',
        end_date: '2027-03-31',
        monthly_gross: null,
        gross_total: '642.40',
        dates: [
          { date: '2027-03-02', nature: 'repetition', quantity: '1', amount: '180.00' },
          { date: '2027-03-20', nature: 'representation', quantity: '2', amount: '462.40' },
        ],
        has_generated_pdf: false,
        has_signed_pdf: false,
        signed_at: null,
        created_at: undefined,
        updated_at: undefined,
      },
    );
    const second = await call(agent, 'POST', '/api/contrats', { employee_id: helene, kind: 'CDI', start_date: '2027-01-01', monthly_gross: '2100.5' });
    assert.equal(second.json().contract_number, `C-${YEAR}-000002`);
    assert.equal(second.json().gross_total, '2100.50');
    assert.equal(second.json().end_date, null);
    const events = await db.selectFrom('module_events').select('action').where('subject_type', '=', 'contract').execute();
    assert.deepEqual(
      events.map((e) => e.action),
      ['contract.created', 'contract.created'],
    );
  });

  it('should answer the documented 400s, and never a 500', async (t) => {
    const { agent, call, helene } = await setup(t);
    const cases: Array<[object, string]> = [
      [{ ...cddu(helene), employee_id: undefined }, 'missing_employee_id'],
      [cddu('00000000-0000-4000-8000-000000000000'), 'invalid_employee_id'],
      [{ ...cddu(helene), kind: 'CDDI' }, 'invalid_kind'],
      [{ ...cddu(helene), show_title: '' }, 'missing_show_title'],
      [{ ...cddu(helene), end_date: null }, 'missing_end_date'],
      [{ ...cddu(helene), end_date: '2027-02-01', dates: [] }, 'invalid_end_date'],
      [{ employee_id: helene, kind: 'CDI', start_date: '2027-01-01', end_date: '2027-12-31' }, 'invalid_end_date'],
      [{ ...cddu(helene), start_date: '2027-02-30' }, 'invalid_date'],
      [{ ...cddu(helene), dates: [{ date: '2027-04-01', nature: 'service', quantity: 1, amount: '1' }] }, 'invalid_date'],
      [{ ...cddu(helene), dates: [{ date: '2027-03-05', nature: 'service', quantity: 1, amount: '-1' }] }, 'invalid_amount'],
      [{ ...cddu(helene), dates: [{ date: '2027-03-05', nature: 'service', quantity: 1, amount: '1.234' }] }, 'invalid_amount'],
      [{ ...cddu(helene), dates: [{ date: '2027-03-05', nature: 'service', quantity: 1, amount: true }] }, 'invalid_amount'],
      [{ ...cddu(helene), dates: [{ date: '2027-03-05', nature: 'fête', quantity: 1, amount: '1' }] }, 'invalid_nature'],
      [{ ...cddu(helene), dates: [{ date: '2027-03-05', nature: 'service', quantity: -1, amount: '1' }] }, 'invalid_quantity'],
      [{ ...cddu(helene), dates: 'tous les jours' }, 'invalid_dates'],
      [{ ...cddu(helene), idcc: '30900' }, 'invalid_idcc'],
      [{ ...cddu(helene), job_title: 'x'.repeat(201) }, 'invalid_job_title'],
    ];
    for (const [payload, error] of cases) {
      const res = await call(agent, 'POST', '/api/contrats', payload);
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)} ${res.body}`);
      assert.equal(res.json().error, error, JSON.stringify(payload));
    }
    const tooBig = await app_inject_big(call, agent);
    assert.equal(tooBig, 413);
  });

  it('should refuse an employee of another organization as unknown', async (t) => {
    const { agent, outsider, call, employee } = await setup(t);
    const theirs = await employee(outsider, 'Autre', 'Personne');
    const res = await call(agent, 'POST', '/api/contrats', cddu(theirs));
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'invalid_employee_id');
  });
});

async function app_inject_big(call: (who: Person, method: 'POST', url: string, payload?: object) => Promise<{ statusCode: number }>, who: Person) {
  return (await call(who, 'POST', '/api/contrats', { show_title: 'x'.repeat(70 * 1024) })).statusCode;
}

describe('editing, submit and cancel', () => {
  it('should edit a draft only, then lock it (409 contract_locked)', async (t) => {
    const { agent, call, helene } = await setup(t);
    const { id } = (await call(agent, 'POST', '/api/contrats', cddu(helene))).json();
    const edited = await call(agent, 'PATCH', `/api/contrats/${id}`, {
      show_title: 'Le Songe',
      dates: [{ date: '2027-03-10', nature: 'service', quantity: '1.5', amount: '99.99' }],
    });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.equal(edited.json().show_title, 'Le Songe');
    assert.equal(edited.json().gross_total, '99.99');
    assert.deepEqual(edited.json().dates, [{ date: '2027-03-10', nature: 'service', quantity: '1.5', amount: '99.99' }]);
    // Moving the period away from the kept dates is refused.
    const shrink = await call(agent, 'PATCH', `/api/contrats/${id}`, { start_date: '2027-03-15' });
    assert.equal(shrink.json().error, 'invalid_date');

    const submitted = await call(agent, 'POST', `/api/contrats/${id}/submit`);
    assert.equal(submitted.statusCode, 200);
    assert.equal(submitted.json().status, 'a_signer');
    // Out for signature with its document: the PDF to sign, downloadable at once.
    assert.equal(submitted.json().has_generated_pdf, true);
    const pdf = await call(agent, 'GET', `/api/contrats/${id}/pdf-url`);
    assert.deepEqual([pdf.statusCode, pdf.json().signed], [200, false]);
    for (const [method, url, payload] of [
      ['PATCH', `/api/contrats/${id}`, { job_title: 'X' }],
      ['POST', `/api/contrats/${id}/submit`, undefined],
    ] as const) {
      const res = await call(agent, method, url, payload);
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().error, 'contract_locked');
    }
    const cancelled = await call(agent, 'POST', `/api/contrats/${id}/cancel`);
    assert.equal(cancelled.json().status, 'annule');
    const again = await call(agent, 'POST', `/api/contrats/${id}/cancel`);
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().error, 'contract_cancelled');
  });

  it('should answer 404 not_found for another organization’s contract, as for an unknown id', async (t) => {
    const { agent, outsider, call, helene } = await setup(t);
    const { id } = (await call(agent, 'POST', '/api/contrats', cddu(helene))).json();
    for (const [method, url] of [
      ['GET', `/api/contrats/${id}`],
      ['PATCH', `/api/contrats/${id}`],
      ['POST', `/api/contrats/${id}/submit`],
      ['POST', `/api/contrats/${id}/cancel`],
      ['GET', `/api/contrats/${id}/notes`],
      ['POST', `/api/contrats/${id}/notes`],
    ] as const) {
      const theirs = await call(outsider, method, url, method === 'GET' ? undefined : { text: 'bonjour' });
      const unknown = await call(agent, method, url.replace(id, '7d0f1f2e-0000-4000-8000-000000000000'), method === 'GET' ? undefined : { text: 'bonjour' });
      assert.equal(theirs.statusCode, 404, `${method} ${url}`);
      assert.deepEqual(theirs.json(), unknown.json(), `${method} ${url}`);
      assert.equal(theirs.json().error, 'not_found');
    }
    assert.equal((await call(agent, 'GET', `/api/contrats/${id}`)).json().status, 'brouillon', 'untouched');
  });
});

describe('GET /api/contrats (the grid)', () => {
  it('should order, filter, search without case or accents, and page by keyset', async (t) => {
    const { agent, outsider, call, employee, helene } = await setup(t);
    const marc = await employee(agent, 'Marc', 'Dupont');
    const made: Record<string, string> = {};
    const create = async (name: string, body: object) => {
      const res = await call(agent, 'POST', '/api/contrats', body);
      assert.equal(res.statusCode, 201, res.body);
      made[name] = res.json().contract_number;
      return res.json().id as string;
    };
    await create('a', cddu(helene, { start_date: '2027-03-01', dates: [] }));
    await create('b', cddu(marc, { show_title: 'Cyrano', start_date: '2027-03-01', dates: [] }));
    const c = await create('c', { employee_id: marc, kind: 'CDI', start_date: '2027-05-01', monthly_gross: '2000' });
    await create('d', { employee_id: helene, kind: 'CDD', start_date: '2026-01-01', end_date: '2026-02-28', monthly_gross: '1900' });
    await call(agent, 'POST', `/api/contrats/${c}/submit`);
    await call(outsider, 'POST', '/api/contrats', cddu(await employee(outsider, 'Hélène', 'Autre')));

    const numbers = async (query: string) => {
      const res = await call(agent, 'GET', `/api/contrats${query}`);
      assert.equal(res.statusCode, 200, `${query} ${res.body}`);
      return res.json().items.map((i: { contract_number: string }) => i.contract_number);
    };
    // Newest start first, then number descending (b after a: same start, higher number first).
    assert.deepEqual(await numbers(''), [made.c, made.b, made.a, made.d]);
    assert.deepEqual(await numbers('?status=a_signer'), [made.c]);
    assert.deepEqual(await numbers('?kind=CDDU'), [made.b, made.a]);
    assert.deepEqual(await numbers(`?employee_id=${marc}`), [made.c, made.b]);
    assert.deepEqual(await numbers('?from=2027-04-01'), [made.c], 'a CDI runs on');
    assert.deepEqual(await numbers('?to=2026-12-31'), [made.d]);
    assert.deepEqual(await numbers('?from=2026-02-28&to=2026-02-28'), [made.d]);
    assert.deepEqual(await numbers(`?q=${encodeURIComponent('HELENE lefevre')}`), [made.a, made.d]);
    assert.deepEqual(await numbers(`?q=${encodeURIComponent('misérables')}`), [made.a]);
    assert.deepEqual(await numbers(`?q=${encodeURIComponent('cyRANO dupont')}`), [made.b]);
    assert.deepEqual(await numbers(`?q=${made.d!.toLowerCase()}`), [made.d]);
    assert.deepEqual(await numbers('?q=%25'), [], 'a LIKE wildcard is a plain character');

    const item = (await call(agent, 'GET', '/api/contrats?limit=1')).json();
    assert.equal(item.items.length, 1);
    assert.equal('dates' in item.items[0], false, 'grid items carry no dates');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { contract_number: string }[]; next_cursor: string | null } = (
        await call(agent, 'GET', `/api/contrats?limit=3${cursor ? `&cursor=${cursor}` : ''}`)
      ).json();
      seen.push(...page.items.map((i) => i.contract_number));
      cursor = page.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, [made.c, made.b, made.a, made.d]);

    for (const [query, error] of [
      ['?limit=0', 'invalid_limit'],
      ['?limit=201', 'invalid_limit'],
      ['?limit=ten', 'invalid_limit'],
      ['?status=signé', 'invalid_status'],
      ['?kind=cdd', 'invalid_kind'],
      ['?employee_id=42', 'invalid_employee_id'],
      ['?from=2027-13-01', 'invalid_date'],
      ['?cursor=abc', 'invalid_cursor'],
      [`?cursor=${Buffer.from(JSON.stringify(['x', 1])).toString('base64url')}`, 'invalid_cursor'],
    ] as const) {
      const res = await call(agent, 'GET', `/api/contrats${query}`);
      assert.equal(res.statusCode, 400, query);
      assert.equal(res.json().error, error, query);
    }
    assert.equal((await call(agent, 'GET', '/api/contrats?limit=200')).statusCode, 200);
  });

  it('should plan a search from 1,000 values of search_text, so that a rare term is not estimated at 1 %', async (t) => {
    const { database } = await build(t);
    const { rows } = await sql<{ target: number }>`
      select attstattarget::int as target from pg_attribute
       where attrelid = 'public.contracts'::regclass and attname = 'search_text'`.execute(database.db);
    assert.deepEqual(rows, [{ target: 1000 }]);
  });

  it("should read a member's page with the session in one statement, the same page staff read", async (t) => {
    const { app, orgId, agent, staff, call, helene } = await setup(t);
    for (const start_date of ['2027-03-01', '2027-04-01', '2027-05-01']) {
      assert.equal(
        (await call(agent, 'POST', '/api/contrats', cddu(helene, { start_date, end_date: start_date.replace(/01$/, '28'), dates: [] }))).statusCode,
        201,
      );
    }
    // Every statement the app runs goes through its one executor.
    const executor = app.db.getExecutor();
    const run = executor.executeQuery.bind(executor);
    let statements = 0;
    executor.executeQuery = ((...args: Parameters<typeof run>) => {
      statements++;
      return run(...args);
    }) as typeof executor.executeQuery;
    t.after(() => {
      executor.executeQuery = run;
    });

    const walk = async (who: typeof agent, path: string) => {
      const pages: { items: { start_date: string }[]; next_cursor: string | null; statements: number }[] = [];
      let cursor: string | null = null;
      do {
        statements = 0;
        const res = await call(who, 'GET', `${path}limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(res.statusCode, 200, res.body);
        pages.push({ ...res.json(), statements });
        cursor = res.json().next_cursor;
      } while (cursor);
      return pages;
    };
    const member = await walk(agent, '/api/contrats?');
    assert.deepEqual(
      member.map((p) => p.items.map((i) => i.start_date)),
      [['2027-05-01', '2027-04-01'], ['2027-03-01']],
    );
    assert.deepEqual(
      member.map((p) => p.statements),
      [1, 1],
      'the session, the scope and the page in one statement',
    );
    const staffPages = await walk(staff, `/api/staff/contrats?org_id=${orgId}&`);
    assert.deepEqual(
      staffPages.map((p) => p.items),
      member.map((p) => p.items),
    );
    assert.equal(staffPages[0]!.next_cursor, member[0]!.next_cursor, 'one cursor for both ways');
    // A filter: still one statement, the page filtered; a bad one is refused after the gate.
    statements = 0;
    const filtered = await call(agent, 'GET', '/api/contrats?status=brouillon&limit=200');
    assert.equal(filtered.json().items.length, 3);
    assert.equal(statements, 1);
    assert.equal((await call(agent, 'GET', '/api/contrats?status=nope')).json().error, 'invalid_status');
  });

  it('should answer each item exactly as the contract reads, without its dates, whatever its text holds', async (t) => {
    const { db, agent, staff, call, employee } = await setup(t);
    // PostgreSQL writes the grid's JSON: quotes, backslashes, control characters, non-Latin names.
    const awkward = await employee(agent, 'Łukasz "Luk"', 'Dvořák\\Nowak');
    const made = await call(
      agent,
      'POST',
      '/api/contrats',
      cddu(awkward, { show_title: 'Le "Songe"\\ \u00e0 minuit \u{1F3AD}', job_title: null, kind: 'CDDU' }),
    );
    assert.equal(made.statusCode, 201, made.body);
    // Control characters and separators no longer come in (400 invalid_show_title);
    // a title stored before then still reads back exactly.
    const show = 'Le "Songe"\\ \u00e0 minuit\n\tacte II \u2028 \u{1F3AD}';
    await db.updateTable('contracts').set({ show_title: show }).where('id', '=', made.json().id).execute();
    const { dates, ...expected } = { ...made.json(), show_title: show };
    assert.equal(dates.length, 2);
    const grid = await call(agent, 'GET', '/api/contrats?limit=1');
    assert.equal(grid.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(grid.json().items, [expected]);
    assert.equal(grid.json().items[0].show_title, show);
    assert.equal(grid.json().items[0].gross_total, '642.40');
    assert.equal(grid.json().items[0].monthly_gross, null);
    assert.match(grid.json().items[0].created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const staffGrid = await call(staff, 'GET', `/api/staff/contrats?org_id=${expected.org_id}&limit=1`);
    assert.deepEqual(staffGrid.json().items, [expected]);
  });
});

describe('staff routes', () => {
  it('should list every organization, or one, and replace the dates with the total recomputed', async (t) => {
    const { db, orgId, otherId, agent, outsider, staff, call, helene, employee } = await setup(t);
    const { id } = (await call(agent, 'POST', '/api/contrats', cddu(helene))).json();
    await call(outsider, 'POST', '/api/contrats', cddu(await employee(outsider, 'Paul', 'Autre')));
    assert.equal((await call(staff, 'GET', '/api/staff/contrats')).json().items.length, 2);
    const mine = (await call(staff, 'GET', `/api/staff/contrats?org_id=${orgId}`)).json();
    assert.deepEqual(
      mine.items.map((i: { id: string }) => i.id),
      [id],
    );
    assert.equal((await call(staff, 'GET', `/api/staff/contrats?org_id=${otherId}&q=helene`)).json().items.length, 0);
    assert.equal((await call(agent, 'GET', '/api/staff/contrats')).statusCode, 403);

    await call(agent, 'POST', `/api/contrats/${id}/submit`);
    const url = `/api/staff/contrats/${id}/salaires-par-date`;
    const res = await call(staff, 'PATCH', url, {
      dates: [
        { date: '2027-03-03', nature: 'representation', quantity: 1, amount: '250.05' },
        { date: '2027-03-04', nature: 'representation', quantity: 1, amount: '250.05' },
        { date: '2027-03-05', nature: 'heures', quantity: '3.25', amount: 0.1 },
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      gross_total: '500.20',
      dates: [
        { date: '2027-03-03', nature: 'representation', quantity: '1', amount: '250.05' },
        { date: '2027-03-04', nature: 'representation', quantity: '1', amount: '250.05' },
        { date: '2027-03-05', nature: 'heures', quantity: '3.25', amount: '0.10' },
      ],
    });
    const stored = await db.selectFrom('contracts').select(['gross_total', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual(stored, { gross_total: '500.20', status: 'a_signer' });
    assert.equal((await call(agent, 'GET', `/api/contrats/${id}`)).json().dates.length, 3);

    const bad = await call(staff, 'PATCH', url, { dates: [{ date: '2027-05-01', nature: 'service', quantity: 1, amount: '1' }] });
    assert.equal(bad.json().error, 'invalid_date');
    assert.equal((await db.selectFrom('contract_dates').select('amount').where('contract_id', '=', id).execute()).length, 3, 'nothing changed');
    assert.equal((await call(staff, 'PATCH', url, {})).json().error, 'missing_dates');
    assert.equal((await call(staff, 'PATCH', '/api/staff/contrats/nope/salaires-par-date', { dates: [] })).statusCode, 404);
    assert.equal((await call(agent, 'PATCH', url, { dates: [] })).statusCode, 403);

    await call(agent, 'POST', `/api/contrats/${id}/cancel`);
    const cancelled = await call(staff, 'PATCH', url, { dates: [] });
    assert.equal(cancelled.statusCode, 409);
    assert.equal(cancelled.json().error, 'contract_cancelled');
  });
});

describe('notes', () => {
  it("should keep a client's note and e-mail the payroll mailbox; a staff note e-mails the note's writers", async (t) => {
    const { db, agent, staff, call, helene, orgId } = await setup(t);
    const { id, contract_number } = (await call(agent, 'POST', '/api/contrats', cddu(helene))).json();
    const res = await call(agent, 'POST', `/api/contrats/${id}/notes`, { text: '  Merci de vérifier\nles <dates> de mars  ' });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(Object.keys(res.json()).sort(), ['author_email', 'created_at', 'id', 'text']);
    assert.equal(res.json().author_email, 'agent@soleil.example');
    assert.equal(res.json().text, 'Merci de vérifier\nles <dates> de mars');
    const [mail] = await outbox(db);
    assert.equal(mail!.recipient, 'paie@localhost');
    assert.equal(mail!.kind, 'contract_note');
    assert.equal(mail!.subject, `Nouvelle note sur le contrat ${contract_number}`);
    for (const fact of [
      'Théâtre du Soleil',
      'TDS001',
      contract_number,
      'Inès',
      'agent@soleil.example',
      '> Merci de vérifier',
      '> les <dates> de mars',
      `https://paie.example.com/staff/contrats/${id}`,
    ]) {
      assert.ok(mail!.text_body.includes(fact), `text has ${fact}`);
    }
    assert.ok(mail!.html_body.includes('les &lt;dates&gt; de mars'));
    assert.ok(!mail!.html_body.includes('<dates>'));

    await call(staff, 'POST', `/api/contrats/${id}/notes`, { text: 'Vu.' }, { 'x-active-org-id': orgId });
    // The organization's people who wrote on the contract hear of a staff note.
    const [, told] = await outbox(db);
    assert.equal((await outbox(db)).length, 2);
    assert.equal(told!.kind, 'contract_staff_note');
    assert.equal(told!.recipient, 'agent@soleil.example');
    assert.equal(mail!.reply_to, 'agent@soleil.example');
    const list = (await call(agent, 'GET', `/api/contrats/${id}/notes?limit=1`)).json();
    assert.deepEqual(
      list.items.map((n: { text: string }) => n.text),
      ['Vu.'],
    );
    const next = (await call(agent, 'GET', `/api/contrats/${id}/notes?limit=1&cursor=${list.next_cursor}`)).json();
    assert.deepEqual(
      next.items.map((n: { text: string }) => n.text),
      ['Merci de vérifier\nles <dates> de mars'],
    );
    assert.equal(next.next_cursor, null);

    for (const [payload, error] of [
      [{}, 'missing_text'],
      [{ text: '   ' }, 'missing_text'],
      [{ text: 'x'.repeat(5001) }, 'invalid_text'],
    ] as const) {
      const bad = await call(agent, 'POST', `/api/contrats/${id}/notes`, payload);
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error, error);
    }
    assert.equal((await call(agent, 'POST', `/api/contrats/${id}/notes`, { text: 'é'.repeat(5000) })).statusCode, 201);
  });
});

describe('the author of a staff member’s note', () => {
  it('should show clients "Équipe paie", never the staff member’s address, and staff the address', async (t) => {
    const { db, agent, staff, call, helene, orgId } = await setup(t);
    const { id } = (await call(agent, 'POST', '/api/contrats', cddu(helene))).json();
    await call(agent, 'POST', `/api/contrats/${id}/notes`, { text: 'Question du client.' });
    const written = await call(staff, 'POST', `/api/contrats/${id}/notes`, { text: 'Réponse de la paie.' }, { 'x-active-org-id': orgId });
    assert.equal(written.statusCode, 201);
    assert.equal(written.json().author_email, staff.email, 'the author sees their own address');

    const clientView = (await call(agent, 'GET', `/api/contrats/${id}/notes`)).json();
    assert.deepEqual(
      clientView.items.map((n: { author_email: string }) => n.author_email),
      ['Équipe paie', 'agent@soleil.example'],
    );
    assert.ok(!JSON.stringify(clientView).includes(staff.email));
    const staffView = (await call(staff, 'GET', `/api/contrats/${id}/notes`, undefined, { 'x-active-org-id': orgId })).json();
    assert.deepEqual(
      staffView.items.map((n: { author_email: string }) => n.author_email),
      [staff.email, 'agent@soleil.example'],
    );
    const page = await call(agent, 'GET', `/contrats/${id}`);
    assert.ok(page.body.includes('<strong>Équipe paie</strong>'));
    assert.ok(!page.body.includes(staff.email));

    // Kept as written: the author's staff row going does not show the address.
    await db.updateTable('staff_users').set({ is_staff: false }).where('user_id', '=', staff.userId).execute();
    assert.equal((await call(agent, 'GET', `/api/contrats/${id}/notes`)).json().items[0].author_email, 'Équipe paie');
    const rows = await db.selectFrom('contract_notes').select(['text', 'author_is_staff']).orderBy('id').execute();
    assert.deepEqual(rows, [
      { text: 'Question du client.', author_is_staff: false },
      { text: 'Réponse de la paie.', author_is_staff: true },
    ]);
  });

  it('should mark the notes written before by staff accounts when migrating', async (t) => {
    const { db, agent, staff, call, helene, orgId } = await setup(t);
    const { id } = (await call(agent, 'POST', '/api/contrats', cddu(helene))).json();
    await call(agent, 'POST', `/api/contrats/${id}/notes`, { text: 'Client.' });
    await call(staff, 'POST', `/api/contrats/${id}/notes`, { text: 'Paie.' }, { 'x-active-org-id': orgId });
    await noteAuthorStaff.down(db);
    await noteAuthorStaff.up(db);
    const rows = await db.selectFrom('contract_notes').select(['text', 'author_is_staff']).orderBy('id').execute();
    assert.deepEqual(rows, [
      { text: 'Client.', author_is_staff: false },
      { text: 'Paie.', author_is_staff: true },
    ]);
  });
});

describe('contract numbers under concurrent creations', () => {
  it('should give 24 parallel creations 24 distinct consecutive numbers', async (t) => {
    const { agent, call, helene } = await setup(t);
    const answers = await Promise.all(Array.from({ length: 24 }, () => call(agent, 'POST', '/api/contrats', cddu(helene))));
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      Array(24).fill(201),
    );
    const numbers = answers.map((a) => a.json().contract_number as string).sort();
    assert.deepEqual(
      numbers,
      Array.from({ length: 24 }, (_, i) => `C-${YEAR}-${String(i + 1).padStart(6, '0')}`),
    );
  });
});

describe('the signed PDF', () => {
  const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2048, 0x20), Buffer.from('\n%%EOF\n')]);

  it('should attach it (status signe, signed_at), serve it by signed URL, and delete it (a_signer)', async (t) => {
    const { app, db, agent, outsider, staff, call, helene } = await setup(t);
    const { id, contract_number } = (await call(agent, 'POST', '/api/contrats', cddu(helene))).json();
    const url = `/api/staff/contrats/${id}/signed-pdf`;
    const noPdf = await call(agent, 'GET', `/api/contrats/${id}/pdf-url`);
    assert.equal(noPdf.statusCode, 404);
    assert.equal(noPdf.json().error, 'no_pdf');

    await call(agent, 'POST', `/api/contrats/${id}/submit`);
    const generated = (await db.selectFrom('contracts').select('generated_pdf_id').where('id', '=', id).executeTakeFirstOrThrow()).generated_pdf_id;
    assert.ok(generated, 'submitted: the PDF to sign is rendered');
    const put = await app.inject({ method: 'PUT', url, headers: { cookie: staff.cookie, 'content-type': 'application/pdf' }, payload: PDF });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().status, 'signe');
    assert.equal(put.json().has_signed_pdf, true);
    assert.ok(Date.now() - Date.parse(put.json().signed_at) < 60_000);

    const link = await call(agent, 'GET', `/api/contrats/${id}/pdf-url`);
    assert.equal(link.statusCode, 200);
    assert.equal(link.json().signed, true);
    const file = await app.inject({ method: 'GET', url: link.json().url.replace('https://paie.example.com', '') });
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'application/pdf');
    assert.match(String(file.headers['content-disposition']), new RegExp(`${contract_number}-signe\\.pdf`));
    assert.deepEqual(file.rawPayload, PDF);
    assert.equal((await call(outsider, 'GET', `/api/contrats/${id}/pdf-url`)).statusCode, 404);

    // A second upload replaces the first: one signed file stays, beside the generated one.
    await app.inject({ method: 'PUT', url, headers: { cookie: staff.cookie, 'content-type': 'application/pdf' }, payload: PDF });
    assert.deepEqual((await db.selectFrom('files').select('id').where('id', '!=', generated).execute()).length, 1);
    const cancel = await call(agent, 'POST', `/api/contrats/${id}/cancel`);
    assert.equal(cancel.statusCode, 409);
    assert.equal(cancel.json().error, 'contract_signed');

    const del = await call(staff, 'DELETE', `/api/staff/contrats/${id}/delete-signed-pdf`);
    assert.equal(del.statusCode, 200);
    assert.deepEqual(del.json(), { ok: true });
    const after = (await call(agent, 'GET', `/api/contrats/${id}`)).json();
    assert.deepEqual([after.status, after.has_signed_pdf, after.signed_at], ['a_signer', false, null]);
    assert.deepEqual(
      (await db.selectFrom('files').select('id').execute()).map((f) => f.id),
      [generated],
      'the signed file is gone, the one to sign stays',
    );
    const again = await call(staff, 'DELETE', `/api/staff/contrats/${id}/delete-signed-pdf`);
    assert.equal(again.statusCode, 404);
    assert.equal(again.json().error, 'no_signed_pdf');
  });

  it('should refuse bad uploads with 413/415/409/404 and keep no file', async (t) => {
    const { app, db, agent, staff, call, helene } = await setup(t);
    const { id } = (await call(agent, 'POST', '/api/contrats', cddu(helene))).json();
    const url = `/api/staff/contrats/${id}/signed-pdf`;
    const upload = (payload: Buffer | string, type = 'application/pdf', who = staff) =>
      app.inject({ method: 'PUT', url, headers: { cookie: who.cookie, 'content-type': type }, payload });
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(10 * 1024 * 1024)]);
    assert.equal((await upload(big)).statusCode, 413);
    const notPdf = await upload(Buffer.from('<html>signed</html>'));
    assert.equal(notPdf.statusCode, 415);
    assert.equal(notPdf.json().error, 'invalid_pdf');
    assert.equal((await upload('{"a":1}', 'application/json')).json().error, 'invalid_pdf');
    assert.equal((await upload(PDF, 'application/pdf', agent)).statusCode, 403);
    assert.equal(
      (
        await app.inject({
          method: 'PUT',
          url: '/api/staff/contrats/ea9c3a40-0000-4000-8000-000000000000/signed-pdf',
          headers: { cookie: staff.cookie, 'content-type': 'application/pdf' },
          payload: PDF,
        })
      ).statusCode,
      404,
    );
    await call(agent, 'POST', `/api/contrats/${id}/cancel`);
    const cancelled = await upload(PDF);
    assert.equal(cancelled.statusCode, 409);
    assert.equal(cancelled.json().error, 'contract_cancelled');
    assert.equal((await db.selectFrom('files').select('id').execute()).length, 0, 'no file left behind');
  });
});

describe('POST /api/generate-contract-pdf', () => {
  it('should render a French contract, replace the previous one, and link it', async (t) => {
    const { app, db, agent, outsider, call, helene } = await setup(t);
    await db.updateTable('organizations').set({ siret: '12345678900012' }).where('structure_api', '=', 'TDS001').execute();
    const { id, contract_number } = (await call(agent, 'POST', '/api/contrats', cddu(helene))).json();
    const res = await call(agent, 'POST', '/api/generate-contract-pdf', { contract_id: id });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().ok, true);
    assert.match(res.json().url, /^https:\/\/paie\.example\.com\/files\/[0-9a-f-]{36}\?exp=\d+&sig=[A-Za-z0-9_-]+$/);
    assert.equal(new URL(res.json().url).searchParams.get('exp'), String(Date.parse(res.json().expires_at) / 1000));

    const file = await app.inject({ method: 'GET', url: res.json().url.replace('https://paie.example.com', '') });
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'application/pdf');
    const text = await pdfText(file.rawPayload);
    for (const expected of [
      "Contrat de travail à durée déterminée d'usage",
      `N° ${contract_number}`,
      'Théâtre du Soleil',
      'Code employeur : TDS001',
      'SIRET : 12345678900012',
      'Hélène Lefèvre',
      'Emploi : Comédienne',
      'Objet (spectacle) : Les Misérables',
      'IDCC 3090',
      'du 01/03/2027 au 31/03/2027 inclus',
      '02/03/2027',
      'Répétition',
      '180,00 €',
      '20/03/2027',
      'Représentation',
      '462,40 €',
      'Total brut',
      '642,40 €',
      "L'employeur",
      'Le salarié',
    ]) {
      assert.ok(text.includes(expected), `the PDF says "${expected}":\n${text}`);
    }
    const link = (await call(agent, 'GET', `/api/contrats/${id}/pdf-url`)).json();
    assert.equal(link.signed, false);
    assert.equal((await call(agent, 'GET', `/api/contrats/${id}`)).json().has_generated_pdf, true);

    await call(agent, 'POST', '/api/generate-contract-pdf', { contract_id: id });
    assert.equal((await db.selectFrom('files').select('id').execute()).length, 1, 'the new PDF replaced the old one');

    const cdi = (
      await call(agent, 'POST', '/api/contrats', {
        employee_id: helene,
        kind: 'CDI',
        job_title: 'Administratrice',
        start_date: '2027-01-04',
        monthly_gross: '2600',
      })
    ).json();
    const cdiPdf = await call(agent, 'POST', '/api/generate-contract-pdf', { contract_id: cdi.id });
    const cdiText = await pdfText((await app.inject({ method: 'GET', url: cdiPdf.json().url.replace('https://paie.example.com', '') })).rawPayload);
    for (const expected of ['Contrat de travail à durée indéterminée', 'à compter du 04/01/2027', 'Salaire mensuel brut : 2 600,00 €']) {
      assert.ok(cdiText.includes(expected), `the CDI PDF says "${expected}":\n${cdiText}`);
    }

    for (const [who, payload, status, error] of [
      [outsider, { contract_id: id }, 404, 'not_found'],
      [agent, { contract_id: 'nope' }, 404, 'not_found'],
      [agent, {}, 400, 'missing_contract_id'],
    ] as const) {
      const bad = await call(who, 'POST', '/api/generate-contract-pdf', payload);
      assert.equal(bad.statusCode, status);
      assert.equal(bad.json().error, error);
    }
  });

  it('should read the contract, its dates and its parties in one statement, and store the PDF with its event in one', async (t) => {
    const { app, db, orgId, agent, call, helene } = await setup(t);
    const { id } = (await call(agent, 'POST', '/api/contrats', cddu(helene))).json();
    assert.equal((await call(agent, 'POST', '/api/generate-contract-pdf', { contract_id: id })).statusCode, 200);
    // Every statement, the transaction's included, goes through an executor of the one class.
    let proto = Object.getPrototypeOf(app.db.getExecutor());
    while (!Object.hasOwn(proto, 'executeQuery')) proto = Object.getPrototypeOf(proto);
    const run = proto.executeQuery;
    const statements: string[] = [];
    proto.executeQuery = function (this: unknown, query: { sql: string }, ...rest: unknown[]) {
      statements.push(/^\/\* prepared (\w+) \*\//.exec(query.sql)?.[1] ?? query.sql.split(' ').slice(0, 3).join(' '));
      return run.call(this, query, ...rest);
    };
    t.after(() => {
      proto.executeQuery = run;
    });
    const second = await call(agent, 'POST', '/api/generate-contract-pdf', { contract_id: id });
    proto.executeQuery = run;
    assert.equal(second.statusCode, 200);
    assert.deepEqual(statements, ['session_scope', 'contract_document', 'store_generated_pdf']);

    // What the general way writes: the new file in place of the previous, and one event each time.
    const files = await db.selectFrom('files').select(['id', 'org_id', 'filename', 'content_type', 'size', 'content']).execute();
    assert.equal(files.length, 1, 'the second PDF replaced the first');
    const [stored] = files;
    assert.equal(second.json().url.split('/files/')[1].split('?')[0], stored!.id);
    const contract = await db.selectFrom('contracts').select(['contract_number', 'generated_pdf_id']).where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(contract.generated_pdf_id, stored!.id);
    assert.deepEqual(
      { ...stored, id: undefined, content: undefined },
      {
        id: undefined,
        org_id: orgId,
        filename: `${contract.contract_number}.pdf`,
        content_type: 'application/pdf',
        size: stored!.content!.length,
        content: undefined,
      },
    );
    assert.equal(Buffer.from(stored!.content!).subarray(0, 5).toString('latin1'), '%PDF-');
    const events = await db
      .selectFrom('module_events')
      .select(['org_id', 'action', 'subject_type', 'subject_id', 'actor_email', 'details'])
      .where('action', '=', 'contract.pdf_generated')
      .orderBy('id')
      .execute();
    assert.equal(events.length, 2);
    assert.deepEqual(events[1], {
      org_id: orgId,
      action: 'contract.pdf_generated',
      subject_type: 'contract',
      subject_id: id,
      actor_email: 'agent@soleil.example',
      details: { bytes: stored!.size },
    });
  });

  it('should write nothing when the contract is gone by the time its PDF is stored', async (t) => {
    const { db, orgId, otherId, agent, call, helene } = await setup(t);
    const { id } = (await call(agent, 'POST', '/api/contrats', cddu(helene))).json();
    const file = { orgId, filename: 'C.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-') };
    const event = {
      org_id: orgId,
      action: 'contract.pdf_generated',
      subject_type: 'contract',
      subject_id: id,
      actor_user_id: null,
      actor_email: 'cli',
      details: { bytes: 5 },
    };
    // Another organization's contract is not this one's, whatever the id.
    assert.equal(await storeGeneratedPdf(db, id, { ...file, orgId: otherId }, { ...event, org_id: otherId }), undefined);
    await db.deleteFrom('contracts').where('id', '=', id).execute();
    assert.equal(await storeGeneratedPdf(db, id, file, event), undefined);
    assert.deepEqual(await db.selectFrom('files').select('id').execute(), []);
    assert.deepEqual(await db.selectFrom('module_events').select('id').where('action', '=', 'contract.pdf_generated').execute(), []);
  });

  /** A contract pointing at the first of these files, and their ids. */
  async function contractWithFiles(t: Parameters<typeof build>[0], names: string[]) {
    const { db, orgId, agent, call, helene } = await setup(t);
    const { id } = (await call(agent, 'POST', '/api/contrats', cddu(helene))).json();
    const ids: string[] = [];
    for (const filename of names) {
      ids.push(
        (
          await db
            .insertInto('files')
            .values({ org_id: orgId, filename, content_type: 'application/pdf', size: 1, content: Buffer.from('%') })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    }
    await db.updateTable('contracts').set({ generated_pdf_id: ids[0] }).where('id', '=', id).execute();
    return { db, orgId, id, ids };
  }

  /** A generation that has pointed the contract at `fileId`, its transaction held open until `release()`. */
  async function heldGeneration(db: Awaited<ReturnType<typeof setup>>['db'], orgId: string, id: string, fileId: string) {
    let replaced!: () => void;
    let release!: () => void;
    const firstReplaced = new Promise<void>((resolve) => (replaced = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const done = db.transaction().execute(async (trx) => {
      const previous = await replaceGeneratedPdf(trx, orgId, id, fileId);
      replaced();
      await held;
      return previous;
    });
    await firstReplaced;
    return { done, release };
  }

  it('should replace the PDF a generation stored while it waited, not the one it read before (the row locked)', async (t) => {
    const {
      db,
      orgId,
      id,
      ids: [a, b, c],
    } = await contractWithFiles(t, ['a.pdf', 'b.pdf', 'c.pdf']);
    // The first generation points the contract at b and holds its transaction open; the second
    // (at c) starts then and must wait for it, then replace b, not the a it could have read.
    const first = await heldGeneration(db, orgId, id, b!);
    const second = db.transaction().execute((trx) => replaceGeneratedPdf(trx, orgId, id, c!));
    await untilBlockedOnALock(db);
    first.release();
    assert.deepEqual(await first.done, { previous_pdf_id: a });
    assert.deepEqual(await second, { previous_pdf_id: b });
    assert.equal((await db.selectFrom('contracts').select('generated_pdf_id').where('id', '=', id).executeTakeFirstOrThrow()).generated_pdf_id, c);
  });

  it('should replace, in one statement, the PDF a generation stored while it waited (the row locked)', async (t) => {
    const {
      db,
      orgId,
      id,
      ids: [, b],
    } = await contractWithFiles(t, ['a.pdf', 'b.pdf']);
    // A generation in a transaction points the contract at b and holds it; the one statement
    // starts then, waits for it, and replaces (deletes) b, not the a it could have read.
    const first = await heldGeneration(db, orgId, id, b!);
    const event = {
      org_id: orgId,
      action: 'contract.pdf_generated',
      subject_type: 'contract',
      subject_id: id,
      actor_user_id: null,
      actor_email: 'cli',
      details: { bytes: 5 },
    };
    const second = storeGeneratedPdf(db, id, { orgId, filename: 'c.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-') }, event);
    await untilBlockedOnALock(db);
    first.release();
    await first.done;
    const c = await second;
    const left = (await db.selectFrom('files').select('filename').orderBy('filename').execute()).map((row) => row.filename);
    assert.deepEqual(left, ['a.pdf', 'c.pdf'], 'b, the PDF stored while the statement waited, is the one replaced');
    assert.equal((await db.selectFrom('contracts').select('generated_pdf_id').where('id', '=', id).executeTakeFirstOrThrow()).generated_pdf_id, c);
  });
});

describe('an employee renamed', () => {
  it('should be found on their contracts by the new name only (employees tell contracts through whenEmployeeRenamed)', async (t) => {
    const { agent, call, helene } = await setup(t);
    const created = (await call(agent, 'POST', '/api/contrats', cddu(helene))).json().contract_number as string;
    const found = async (q: string) =>
      (await call(agent, 'GET', `/api/contrats?q=${encodeURIComponent(q)}`)).json().items.map((c: { contract_number: string }) => c.contract_number);
    assert.deepEqual(await found('lefevre'), [created]);
    assert.equal((await call(agent, 'PATCH', `/api/salaries/${helene}`, { last_name: 'Dupré' })).statusCode, 200);
    assert.deepEqual(await found('dupre'), [created]);
    assert.deepEqual(await found('lefevre'), []);
    assert.deepEqual(await found('helene dupre'), [created]);
  });
});
