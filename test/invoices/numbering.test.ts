/**
 * Invoice numbers under concurrency (French invoicing rules): concurrent bulk
 * creations, on two instances of the service, one of them failing mid-way on an unknown
 * organization, leave exactly the numbers 1..total: no gap, no duplicate, each bulk's numbers
 * continuous and in request order. PostgreSQL only: PGlite is one session, so nothing races.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build, usingPostgres } from '../helper.ts';
import { createOrg, signedIn } from '../support/fixtures.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('invoice numbering under concurrency', () => {
  it('should give continuous numbers with no gap and no duplicate to concurrent bulk creations', {
    skip: usingPostgres ? false : 'needs PostgreSQL (TEST_DATABASE_URL): PGlite runs one session, nothing races',
  }, async (t) => {
    const first = await build(t);
    const second = await build(t, { database: first.database });
    const db = first.database.db;
    const orgs = await Promise.all(['Alpha', 'Beta', 'Gamma', 'Delta'].map((name, i) => createOrg(db, name, `ORG${i}`)));
    const staff = await signedIn(first.app, db, 'staff@ops.example', { staff: 'STAFF' });
    const line = { label: 'Traitement de la paie', quantity: 1, unit_price: '25.00', vat_rate: '20.00' };
    const sizes = [400, 250, 600, 120, 350, 80, 500, 300];
    const failing = 3; // this bulk names an unknown organization half-way through
    const requests = sizes.map((size, r) => {
      const invoices = Array.from({ length: size }, (_, i) => ({
        org_id: r === failing && i === size / 2 ? UNKNOWN : orgs[(r + i) % orgs.length]!,
        lines: [line],
      }));
      const app = r % 2 === 0 ? first.app : second.app;
      return app.inject({
        method: 'POST',
        url: '/api/staff/facturation/bulk-create',
        headers: { cookie: staff.cookie },
        payload: { invoice_type: 'paie_mensuelle', payment_method: 'prelevement', issue_date: '2026-01-31', invoices },
      });
    });
    const responses = await Promise.all(requests);

    const all: number[] = [];
    responses.forEach((res, r) => {
      if (r === failing) {
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error, 'org_not_found');
        return;
      }
      assert.equal(res.statusCode, 201, res.body.slice(0, 200));
      const sequence = res.json().created.map((c: { number: string }) => Number(c.number.slice('F-2026-'.length)));
      assert.equal(sequence.length, sizes[r]);
      // One bulk's numbers: continuous, in request order.
      for (const [i, n] of sequence.entries()) assert.equal(n, sequence[0] + i);
      all.push(...sequence);
    });
    const total = sizes.reduce((sum, size, r) => (r === failing ? sum : sum + size), 0);
    assert.deepEqual(
      all.sort((a, b) => a - b),
      Array.from({ length: total }, (_, i) => i + 1),
    );
    const stored = await db.selectFrom('invoices').select('number').orderBy('number').execute();
    assert.equal(stored.length, total);
    assert.deepEqual(
      stored.map((s) => s.number),
      Array.from({ length: total }, (_, i) => `F-2026-${String(i + 1).padStart(6, '0')}`),
    );
    const series = await db.selectFrom('number_series').select('last_value').where('series', '=', 'invoice').where('year', '=', 2026).executeTakeFirstOrThrow();
    assert.equal(series.last_value, total);
  });
});
