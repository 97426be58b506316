import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appPerSuite } from '../helper.ts';
import { createOrg, member } from '../support/fixtures.ts';

const IBAN = 'FR76 3000 6000 0112 3456 7890 189';

// One app for the file: each test makes its own organizations and people, at address domains and
// employer keys of its own.
const suite = appPerSuite();
let tests = 0;

async function setup() {
  const { app, database } = suite();
  const db = database.db;
  const tag = `t${++tests}`;
  /** An address of the test's own Théâtre du Soleil. */
  const soleil = (local: string) => `${local}@soleil-${tag}.example`;
  const orgId = await createOrg(db, 'Théâtre du Soleil', `TDS-${tag}`);
  const otherId = await createOrg(db, 'Compagnie Lumière', `CLU-${tag}`);
  const agent = await member(app, db, orgId, soleil('agent'), 'AGENT');
  const compta = await member(app, db, orgId, soleil('compta'), 'COMPTA');
  const outsider = await member(app, db, otherId, `agent@lumiere-${tag}.example`, 'AGENT');
  const call = (cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  return { app, db, orgId, agent, compta, outsider, call, soleil };
}

describe('POST /api/salaries', () => {
  it('should create an employee, keep the IBAN and show only its last four characters', async () => {
    const { db, agent, call, soleil } = await setup();
    const res = await call(agent.cookie, 'POST', '/api/salaries', {
      first_name: 'Élise',
      last_name: 'Durand',
      email: 'Elise@Example.com',
      category: 'artiste',
      iban: IBAN,
      bic: 'BNPAFRPP',
    });
    assert.equal(res.statusCode, 201);
    const body = res.json();
    assert.deepEqual(
      { ...body, id: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        first_name: 'Élise',
        last_name: 'Durand',
        email: 'elise@example.com',
        category: 'artiste',
        iban_last4: '0189',
        bic: 'BNPAFRPP',
        cadre: false,
        pas_rate: null,
        dfs: null,
        address_line: null,
        postcode: null,
        city: null,
        classification: null,
        created_at: undefined,
        updated_at: undefined,
      },
    );
    assert.doesNotMatch(res.body, /FR76|3000 6000|30006000/);
    const row = await db.selectFrom('employees').select('iban').where('id', '=', body.id).executeTakeFirstOrThrow();
    assert.equal(row.iban, 'FR7630006000011234567890189');
    const event = await db.selectFrom('module_events').selectAll().where('subject_id', '=', body.id).executeTakeFirstOrThrow();
    assert.equal(event.action, 'employee.created');
    assert.equal(event.actor_email, soleil('agent'));
  });

  it('should answer the documented 400s', async () => {
    const { agent, call } = await setup();
    const cases: Array<[object, string]> = [
      [{ last_name: 'Durand' }, 'missing_first_name'],
      [{ first_name: 'Élise', last_name: '' }, 'missing_last_name'],
      [{ first_name: 'Élise', last_name: 'Durand', iban: 'FR7630006000011234567890188' }, 'invalid_iban'],
      [{ first_name: 'Élise', last_name: 'Durand', category: 'cadre' }, 'invalid_category'],
      [{ first_name: 'Élise', last_name: 'Durand', email: 'nope' }, 'invalid_email'],
      [{ first_name: 'Élise', last_name: 'Durand', iban: ['FR76'] }, 'invalid_iban'],
      [{ first_name: 'x'.repeat(101), last_name: 'Durand' }, 'invalid_first_name'],
      // A character no font of the PDFs draws: the bulletin would print an empty box.
      [{ first_name: '민수', last_name: 'Kim' }, 'invalid_first_name'],
      [{ first_name: 'Élise', last_name: 'Durand', classification: 'x'.repeat(121) }, 'invalid_classification'],
      [{ first_name: 'Élise', last_name: 'Durand', postcode: '!' }, 'invalid_postcode'],
    ];
    for (const [payload, error] of cases) {
      const res = await call(agent.cookie, 'POST', '/api/salaries', payload);
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().error, error, JSON.stringify(payload));
    }
  });

  it('should refuse COMPTA (contract set) but let it read the list', async () => {
    const { compta, agent, call } = await setup();
    const refused = await call(compta.cookie, 'POST', '/api/salaries', { first_name: 'Élise', last_name: 'Durand' });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.body, 'Forbidden');
    await call(agent.cookie, 'POST', '/api/salaries', { first_name: 'Élise', last_name: 'Durand' });
    const list = await call(compta.cookie, 'GET', '/api/salaries');
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.json().items.map((e: { last_name: string }) => e.last_name),
      ['Durand'],
    );
  });
});

describe('PATCH /api/salaries/{id}', () => {
  it('should change the fields given, and answer 404 for another organization’s employee', async () => {
    const { agent, outsider, call } = await setup();
    const created = (await call(agent.cookie, 'POST', '/api/salaries', { first_name: 'Élise', last_name: 'Durand', iban: IBAN })).json();
    const res = await call(agent.cookie, 'PATCH', `/api/salaries/${created.id}`, { last_name: 'Martin', iban: 'DE89 3704 0044 0532 0130 00' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().last_name, 'Martin');
    assert.equal(res.json().first_name, 'Élise');
    assert.equal(res.json().iban_last4, '3000');
    for (const [who, id] of [
      [outsider, created.id],
      [agent, '00000000-0000-4000-8000-000000000000'],
      [agent, 'not-a-uuid'],
    ] as const) {
      const missing = await call(who.cookie, 'PATCH', `/api/salaries/${id}`, { last_name: 'X' });
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { error: 'not_found', message: 'Salarié introuvable.' });
    }
  });
});

describe('the payroll inputs of an employee (cadre, pas_rate)', () => {
  it('should default to cadre false and no pas_rate, set both at creation and by PATCH, clear pas_rate with null, and show them in the list', async () => {
    const { db, agent, compta, call } = await setup();
    const plain = (await call(agent.cookie, 'POST', '/api/salaries', { first_name: 'Luc', last_name: 'Arnaud' })).json();
    assert.deepEqual([plain.cadre, plain.pas_rate], [false, null]);

    const created = await call(agent.cookie, 'POST', '/api/salaries', {
      first_name: 'Élise',
      last_name: 'Durand',
      category: 'permanent',
      cadre: true,
      pas_rate: '7.5',
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual([created.json().cadre, created.json().pas_rate], [true, '7.50']);
    const id = created.json().id;
    const row = await db.selectFrom('employees').select(['cadre', 'pas_rate']).where('id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { cadre: true, pas_rate: '7.50' });

    // A PATCH that leaves them out keeps them.
    const renamed = (await call(agent.cookie, 'PATCH', `/api/salaries/${id}`, { last_name: 'Martin' })).json();
    assert.deepEqual([renamed.cadre, renamed.pas_rate], [true, '7.50']);
    // A number with two decimals, as vat_rate; the limits 0 and the neutral grid's highest rate.
    for (const [pas_rate, stored] of [
      [12.25, '12.25'],
      [0, '0.00'],
      ['43', '43.00'],
    ] as const) {
      const res = await call(agent.cookie, 'PATCH', `/api/salaries/${id}`, { pas_rate });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().pas_rate, stored);
    }
    const changed = await call(agent.cookie, 'PATCH', `/api/salaries/${id}`, { cadre: false, pas_rate: null });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual([changed.json().cadre, changed.json().pas_rate], [false, null]);
    const event = await db
      .selectFrom('module_events')
      .select(['action', 'details'])
      .where('subject_id', '=', id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.deepEqual(event, { action: 'employee.updated', details: { changed: ['cadre', 'pas_rate'] } });

    await call(agent.cookie, 'PATCH', `/api/salaries/${id}`, { cadre: true, pas_rate: '3.1' });
    const list = (await call(compta.cookie, 'GET', '/api/salaries')).json();
    assert.deepEqual(
      list.items.map((e: { last_name: string; cadre: boolean; pas_rate: string | null }) => [e.last_name, e.cadre, e.pas_rate]),
      [
        ['Arnaud', false, null],
        ['Martin', true, '3.10'],
      ],
    );
  });

  it('should refuse a wrong cadre or pas_rate with 400 invalid_cadre / invalid_pas_rate, at creation and by PATCH', async () => {
    const { db, agent, call } = await setup();
    const id = (await call(agent.cookie, 'POST', '/api/salaries', { first_name: 'Élise', last_name: 'Durand', pas_rate: '4' })).json().id;
    const name = { first_name: 'Élise', last_name: 'Durand' };
    const cases: Array<[object, string]> = [
      [{ cadre: 'oui' }, 'invalid_cadre'],
      [{ cadre: 'true' }, 'invalid_cadre'],
      [{ cadre: 1 }, 'invalid_cadre'],
      [{ cadre: null }, 'invalid_cadre'],
      [{ pas_rate: '100.01' }, 'invalid_pas_rate'],
      [{ pas_rate: -2 }, 'invalid_pas_rate'],
      [{ pas_rate: '7.555' }, 'invalid_pas_rate'],
      [{ pas_rate: 7.555 }, 'invalid_pas_rate'],
      [{ pas_rate: '7,5' }, 'invalid_pas_rate'],
      [{ pas_rate: 'neutre' }, 'invalid_pas_rate'],
      [{ pas_rate: true }, 'invalid_pas_rate'],
      [{ pas_rate: [7] }, 'invalid_pas_rate'],
    ];
    for (const [payload, error] of cases) {
      const created = await call(agent.cookie, 'POST', '/api/salaries', { ...name, ...payload });
      assert.equal(created.statusCode, 400, JSON.stringify(payload));
      assert.equal(created.json().error, error, JSON.stringify(payload));
      assert.equal(typeof created.json().message, 'string');
      const edited = await call(agent.cookie, 'PATCH', `/api/salaries/${id}`, payload);
      assert.equal(edited.statusCode, 400, JSON.stringify(payload));
      assert.equal(edited.json().error, error, JSON.stringify(payload));
    }
    const row = await db.selectFrom('employees').select(['cadre', 'pas_rate']).where('id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { cadre: false, pas_rate: '4.00' }, 'a refused change changes nothing');
  });
});

describe('GET /api/salaries', () => {
  it('should list by name in keyset pages, only the organization’s, and refuse bad limits', async () => {
    const { agent, outsider, call } = await setup();
    for (const [first, last] of [
      ['Zoé', 'Bernard'],
      ['Ana', 'Bernard'],
      ['Luc', 'Arnaud'],
      ['Max', 'Caron'],
    ]) {
      await call(agent.cookie, 'POST', '/api/salaries', { first_name: first, last_name: last });
    }
    await call(outsider.cookie, 'POST', '/api/salaries', { first_name: 'Autre', last_name: 'Aaron' });
    const page1 = (await call(agent.cookie, 'GET', '/api/salaries?limit=3')).json();
    assert.deepEqual(
      page1.items.map((e: { first_name: string }) => e.first_name),
      ['Luc', 'Ana', 'Zoé'],
    );
    const page2 = (await call(agent.cookie, 'GET', `/api/salaries?limit=3&cursor=${page1.next_cursor}`)).json();
    assert.deepEqual(
      page2.items.map((e: { first_name: string }) => e.first_name),
      ['Max'],
    );
    assert.equal(page2.next_cursor, null);
    for (const limit of ['0', '201', 'abc']) {
      const res = await call(agent.cookie, 'GET', `/api/salaries?limit=${limit}`);
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error, 'invalid_limit');
    }
    assert.equal((await call(agent.cookie, 'GET', '/api/salaries?cursor=!!')).json().error, 'invalid_cursor');
  });
});

describe('the address and classification of an employee (the bulletin)', () => {
  it('should set them at creation and by PATCH, keep them when left out, clear them with null, and name the refusal', async () => {
    const { agent, call } = await setup();
    const created = await call(agent.cookie, 'POST', '/api/salaries', {
      first_name: '太郎',
      last_name: '山田',
      address_line: '4 rue des Lilas',
      postcode: '75011',
      city: 'Paris',
      classification: 'Artiste interprète – groupe 2',
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().id;
    assert.deepEqual(
      [created.json().last_name, created.json().address_line, created.json().postcode, created.json().city, created.json().classification],
      ['山田', '4 rue des Lilas', '75011', 'Paris', 'Artiste interprète – groupe 2'],
    );
    const kept = (await call(agent.cookie, 'PATCH', `/api/salaries/${id}`, { classification: 'Niveau 3 – échelon 2' })).json();
    assert.deepEqual([kept.city, kept.classification], ['Paris', 'Niveau 3 – échelon 2']);
    const cleared = (await call(agent.cookie, 'PATCH', `/api/salaries/${id}`, { address_line: null, postcode: null, city: null })).json();
    assert.deepEqual([cleared.address_line, cleared.postcode, cleared.city, cleared.classification], [null, null, null, 'Niveau 3 – échelon 2']);
    const refused = await call(agent.cookie, 'PATCH', `/api/salaries/${id}`, { last_name: 'สมชาย' });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().error, 'invalid_last_name');
    assert.match(refused.json().message, /écritures acceptées : latin, grec, cyrillique, chinois, japonais \(kanji et kana\), arabe, hébreu/);
  });
});

describe('a change of IBAN or withholding rate', () => {
  it("should e-mail the organization's administrators and the payroll team, in the change's transaction, naming the employee and what changed, never the IBAN", async () => {
    const { app, db, orgId, agent, call, soleil } = await setup();
    await member(app, db, orgId, soleil('admin'), 'ADMIN');
    await member(app, db, orgId, soleil('owner'), 'SUPER_ADMIN');
    const employee = (await call(agent.cookie, 'POST', '/api/salaries', { first_name: 'Élise', last_name: 'D\'Artagnan & "Fils"', iban: IBAN })).json();
    const before = (await db.selectFrom('mail_outbox').select('id').execute()).length;
    // An e-mail address alone: nobody is told.
    assert.equal((await call(agent.cookie, 'PATCH', `/api/salaries/${employee.id}`, { email: 'elise@example.com' })).statusCode, 200);
    assert.equal((await db.selectFrom('mail_outbox').select('id').execute()).length, before);

    const res = await call(agent.cookie, 'PATCH', `/api/salaries/${employee.id}`, { iban: 'DE89 3704 0044 0532 0130 00', pas_rate: '7.5' });
    assert.equal(res.statusCode, 200, res.body);
    const mails = (await db.selectFrom('mail_outbox').selectAll().orderBy('id').execute()).slice(before);
    assert.deepEqual(mails.map((m) => m.recipient).sort(), [soleil('admin'), soleil('owner'), 'paie@localhost']);
    for (const mail of mails) {
      assert.equal(mail.kind, 'employee_sensitive_change');
      assert.equal(mail.subject, `Salarié Élise D'Artagnan & "Fils" : l'IBAN et le taux de prélèvement à la source modifiés`);
      for (const body of [mail.text_body, mail.html_body]) {
        assert.doesNotMatch(body, /FR76|DE89|30006000|37040044/, 'never the IBAN');
        assert.match(body, /•••• 0189 → •••• 3000/);
        assert.match(body, /grille neutre → 7,5\u00a0%/);
        assert.ok(body.includes(soleil('agent')));
      }
      assert.ok(
        mail.html_body.includes('Élise D&#39;Artagnan &amp; &quot;Fils&quot;') || mail.html_body.includes('Élise D&#x27;Artagnan &amp; &quot;Fils&quot;'),
        'the name escaped',
      );
      assert.ok(!mail.html_body.includes('& "Fils"'));
    }
    assert.match(mails.find((m) => m.recipient === 'paie@localhost')!.html_body, new RegExp(`/staff/organisations/${orgId}`));
  });
});
