/**
 * `/staff/organisations` and `/staff/organisations/{id}` (gate `staff`), as the server renders
 * them: the accent-insensitive search and keyset pages of `GET /api/staff/orgs`, one
 * organization's settings form and its employees with their IBAN masked.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IBAN, setup } from '../payslips/support.ts';

/** The ids of the rows carrying `attribute`, in page order. */
const rowIds = (body: string, attribute: string) => [...body.matchAll(new RegExp(`<tr ${attribute}="([^"]+)"`, 'g'))].map((m) => m[1]);

/** The text of the cells labelled `label`, in page order, tags removed. */
const cells = (body: string, label: string) =>
  [...body.matchAll(new RegExp(`<td data-label="${label}"[^>]*>([\\s\\S]*?)</td>`, 'g'))].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/[ \t\n\r]+/g, ' ')
      .trim(),
  );

/** The href of the "Page suivante" link (`&amp;` decoded). */
const nextHref = (body: string) =>
  /<a class="button button-secondary" id="next-page" href="([^"]+)">Page suivante<\/a>/.exec(body)?.[1]?.replaceAll('&amp;', '&');

/** The value of the input `id`. */
const inputValue = (body: string, id: string) => new RegExp(`<input id="${id}"[^>]* value="([^"]*)"`).exec(body)?.[1];

describe('GET /staff/organisations', () => {
  it('should list every organization by name, each linking to its page, with the nav entry', async (t) => {
    const { call, staff, soleil, lumiere, autonome } = await setup(t);
    const res = await call(staff, 'GET', '/staff/organisations');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.deepEqual(rowIds(res.body, 'data-org-id'), [lumiere, autonome, soleil]);
    assert.deepEqual(cells(res.body, 'Organisation'), ['Compagnie Lumière', 'Ensemble Autonome', 'Théâtre du Soleil']);
    assert.deepEqual(cells(res.body, 'Clé'), ['CLU002', 'AUT003', 'TDS001']);
    assert.deepEqual(cells(res.body, 'Membres'), ['2 membres', '1 membre', '3 membres']);
    assert.ok(res.body.includes(`<a href="/staff/organisations/${soleil}">Théâtre du Soleil</a>`));
    assert.match(res.body, /<a href="\/staff\/organisations" aria-current="page">Organisations<\/a>/);
    assert.match(res.body, /3 organisations affichées, par nom\./);
  });

  it('should search with case and accents ignored, by name or key', async (t) => {
    const { call, staff, soleil, lumiere } = await setup(t);
    for (const q of ['soleil', 'theatre', 'THEATRE DU SOLEIL', 'Théâtre', 'tds00']) {
      const res = await call(staff, 'GET', `/staff/organisations?q=${encodeURIComponent(q)}`);
      assert.deepEqual(rowIds(res.body, 'data-org-id'), [soleil], q);
    }
    assert.deepEqual(rowIds((await call(staff, 'GET', '/staff/organisations?q=lumiere')).body, 'data-org-id'), [lumiere]);
    assert.equal(inputValue((await call(staff, 'GET', '/staff/organisations?q=lumiere')).body, 'filter-q'), 'lumiere');
    const none = await call(staff, 'GET', '/staff/organisations?q=opera');
    assert.deepEqual(rowIds(none.body, 'data-org-id'), []);
    assert.match(none.body, /Aucune organisation ne correspond à cette recherche\./);
    // The API answers the same search.
    const api = await call(staff, 'GET', `/api/staff/orgs?q=${encodeURIComponent('théatre')}`);
    assert.deepEqual(
      api.json().items.map((o: { name: string }) => o.name),
      ['Théâtre du Soleil'],
    );
    assert.equal(api.json().next_cursor, null);
  });

  it('should page by name with the keyset cursor, in the page and in the API', async (t) => {
    const { call, staff, soleil, lumiere, autonome } = await setup(t);
    const first = await call(staff, 'GET', '/staff/organisations?limit=1');
    assert.deepEqual(rowIds(first.body, 'data-org-id'), [lumiere]);
    const second = await call(staff, 'GET', nextHref(first.body)!);
    assert.deepEqual(rowIds(second.body, 'data-org-id'), [autonome]);
    assert.match(second.body, /<a class="button button-secondary" href="\/staff\/organisations\?limit=1">Première page<\/a>/);
    const third = await call(staff, 'GET', nextHref(second.body)!);
    assert.deepEqual(rowIds(third.body, 'data-org-id'), [soleil]);
    assert.equal(nextHref(third.body), undefined, 'the last page has no next page');

    const apiFirst = (await call(staff, 'GET', '/api/staff/orgs?limit=2')).json();
    assert.deepEqual(
      apiFirst.items.map((o: { id: string }) => o.id),
      [lumiere, autonome],
    );
    const apiNext = (await call(staff, 'GET', `/api/staff/orgs?limit=2&cursor=${apiFirst.next_cursor}`)).json();
    assert.deepEqual(apiNext, { items: [{ id: soleil, name: 'Théâtre du Soleil', structure_api: 'TDS001', member_count: 3 }], next_cursor: null });

    const bad = await call(staff, 'GET', '/staff/organisations?cursor=nope');
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /Curseur de pagination invalide/);
    assert.equal((await call(staff, 'GET', '/api/staff/orgs?cursor=nope')).json().error, 'invalid_cursor');
  });

  it('should answer 403 to a client ADMIN and an AGENT, on both pages', async (t) => {
    const { call, admin, agent, soleil } = await setup(t);
    for (const who of [admin, agent]) {
      for (const url of ['/staff/organisations', `/staff/organisations/${soleil}`]) {
        const res = await call(who, 'GET', url);
        assert.equal(res.statusCode, 403, url);
        assert.equal(res.body, 'Forbidden');
      }
    }
    const page = await call(admin, 'GET', '/contrats');
    assert.doesNotMatch(page.body, /Organisations<\/a>/, 'no nav entry for a client');
  });
});

describe('GET /staff/organisations/{id}', () => {
  it('should show the settings as the API keeps them, and the employees with their IBAN masked', async (t) => {
    const { call, staff, soleil, helene, marc, zoe } = await setup(t);
    const patched = await call(staff, 'PATCH', `/api/staff/orgs/${soleil}`, {
      email_notifs: ['Compta@Soleil.example', 'paie@soleil.example'],
      email_notifs_cc: ['direction@soleil.example'],
      siret: '123 456 789 00012',
      documents_slug: 'theatre-du-soleil',
      address_line: '3 place du Théâtre',
      postcode: '69001',
      city: 'Lyon',
      effectif: 12,
      convention: 'droit_commun',
      categorie_juridique: 'SARL',
      taux_at: '2.3',
      ape_code: '90.01z',
      urssaf: 'Urssaf Rhône-Alpes',
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual([patched.json().ape_code, patched.json().urssaf], ['9001Z', 'Urssaf Rhône-Alpes']);
    const marcEdited = await call(staff, 'PATCH', `/api/staff/orgs/${soleil}/salaries/${marc}`, {
      cadre: true,
      pas_rate: '7.5',
      category: 'technicien',
      address_line: '4 rue des Lilas',
      postcode: '75020',
      city: 'Paris',
      classification: 'Cadre – groupe 4',
    });
    assert.equal(marcEdited.statusCode, 200, marcEdited.body);
    const heleneEdited = await call(staff, 'PATCH', `/api/staff/orgs/${soleil}/salaries/${helene}`, { category: 'artiste', dfs: 'artiste_musicien' });
    assert.equal(heleneEdited.statusCode, 200, heleneEdited.body);
    const res = await call(staff, 'GET', `/staff/organisations/${soleil}`);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<h1>Théâtre du Soleil<\/h1>/);
    assert.equal(inputValue(res.body, 'org-email_notifs'), 'compta@soleil.example, paie@soleil.example');
    assert.equal(inputValue(res.body, 'org-email_notifs_cc'), 'direction@soleil.example');
    assert.equal(inputValue(res.body, 'org-siret'), '12345678900012');
    assert.equal(inputValue(res.body, 'org-documents_slug'), 'theatre-du-soleil');
    assert.equal(inputValue(res.body, 'org-address_line'), '3 place du Théâtre');
    assert.equal(inputValue(res.body, 'org-postcode'), '69001');
    assert.equal(inputValue(res.body, 'org-city'), 'Lyon');
    assert.equal(inputValue(res.body, 'org-country'), 'FR');
    assert.equal(inputValue(res.body, 'org-effectif'), '12');
    // Read back as its field asks for it (two decimals), not "2,3".
    assert.equal(inputValue(res.body, 'org-taux_at'), '2,30');
    assert.equal(inputValue(res.body, 'org-ape_code'), '9001Z');
    assert.equal(inputValue(res.body, 'org-urssaf'), 'Urssaf Rhône-Alpes');
    assert.equal(inputValue(res.body, `emp-${marc}-address_line`), '4 rue des Lilas');
    assert.equal(inputValue(res.body, `emp-${marc}-postcode`), '75020');
    assert.equal(inputValue(res.body, `emp-${marc}-city`), 'Paris');
    assert.equal(inputValue(res.body, `emp-${marc}-classification`), 'Cadre – groupe 4');
    assert.equal(inputValue(res.body, `emp-${helene}-classification`), '');
    // An artist's flat deduction, chosen by its profession.
    assert.match(res.body, /<option value="artiste_musicien" selected>Artiste musicien, choriste, chef d’orchestre<\/option>/);
    assert.match(res.body, new RegExp(`<select id="emp-${marc}-dfs" name="dfs"[^>]*><option value="" selected>Aucune</option>`));
    assert.match(res.body, /<option value="Odentas" selected>Payés par l&#39;opérateur<\/option>/);
    assert.match(res.body, /<label for="org-documents_slug">Identifiant des documents<\/label>/);
    // No field name, nor the operator's brand, in the text a person reads (attributes aside).
    const text = res.body.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, ' ');
    for (const internal of ['documents_slug', 'Odentas', 'virements_salaires', 'taux_at']) assert.ok(!text.includes(internal), internal);
    assert.match(res.body, /<option value="droit_commun" selected>Droit commun<\/option>/);
    assert.match(res.body, /<option value="SARL" selected>SARL<\/option>/);
    assert.match(res.body, /<p id="org-siret-error" class="field-error" hidden><\/p>/);
    assert.match(res.body, /<script type="module" src="\/assets\/staff-organisation.js"><\/script>/);
    assert.match(res.body, /<a href="\/staff\/organisations" aria-current="page">Organisations<\/a>/);

    // By name: Bernard, Dupont, Lefèvre; the IBAN never beyond its last four characters.
    assert.deepEqual(rowIds(res.body, 'data-employee-id'), [zoe, marc, helene]);
    assert.deepEqual(cells(res.body, 'Salarié'), ['Bernard Zoé', 'Dupont Marc', 'Lefèvre Hélène']);
    assert.deepEqual(cells(res.body, 'IBAN'), ['—', '•••• 3000', '•••• 0189']);
    assert.deepEqual(cells(res.body, 'Catégorie'), ['—', 'Technicien', 'Artiste']);
    assert.deepEqual(cells(res.body, 'Cadre'), ['Non', 'Oui', 'Non']);
    assert.deepEqual(cells(res.body, 'Taux PAS'), ['Grille neutre', '7,5\u00a0%', 'Grille neutre']);
    for (const iban of [IBAN.helene, IBAN.marc]) {
      const compact = iban.replace(/\s/g, '');
      assert.ok(!res.body.includes(compact) && !res.body.includes(iban) && !res.body.includes(compact.slice(0, 12)), 'no IBAN in the page');
    }
    assert.equal(inputValue(res.body, `emp-${helene}-iban`), '', 'the IBAN field starts empty');
    assert.equal(inputValue(res.body, `emp-${helene}-bic`), 'AGRIFRPP');
    assert.match(res.body, new RegExp(`<input type="checkbox" id="emp-${marc}-cadre" name="cadre" checked>`));
  });

  it('should answer 404 for an unknown organization or an id that is none', async (t) => {
    const { call, staff } = await setup(t);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await call(staff, 'GET', `/staff/organisations/${id}`);
      assert.equal(res.statusCode, 404);
      assert.match(res.body, /Organisation introuvable/);
    }
  });
});

describe('pointers to the IBAN and the organization page', () => {
  it('should offer an optional IBAN in the new-employee part of the contract form', async (t) => {
    const { call, agent } = await setup(t);
    const res = await call(agent, 'GET', '/contrats/nouveau');
    assert.match(
      res.body,
      /<input id="new-employee-iban" type="text" maxlength="64" autocomplete="off" spellcheck="false" aria-describedby="new-employee-iban-hint new-employee-iban-error">/,
    );
    assert.match(res.body, /<p id="new-employee-iban-error" class="field-error" hidden><\/p>/);
  });

  it("should carry each invoice's organization on its row, for the link to its page", async (t) => {
    const { call, staff, soleil } = await setup(t);
    const created = await call(staff, 'POST', '/api/staff/facturation/bulk-create', {
      invoice_type: 'paie_mensuelle',
      payment_method: 'prelevement',
      issue_date: '2026-03-12',
      invoices: [{ org_id: soleil, lines: [{ label: 'Gestion de la paie', quantity: 1, unit_price: '85.00', vat_rate: '20' }] }],
    });
    const invoice = created.json().created[0] as { id: string; number: string };
    const res = await call(staff, 'GET', '/staff/facturation');
    assert.ok(res.body.includes(`<tr data-invoice-id="${invoice.id}" data-number="${invoice.number}" data-org-id="${soleil}">`));
  });
});
