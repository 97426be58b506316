import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from './helper.ts';

describe('GET /openapi.json', () => {
  it('should describe every API route from the route schemas', async (t) => {
    const { app } = await build(t);
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    assert.match(doc.openapi, /^3\./);
    // The document names the service as it is, not only its access part.
    assert.equal(doc.info.title, 'Espace paie (payroll-access)');
    assert.match(doc.info.description, /^The payroll administration of French performing-arts employers: .*Factur-X invoices\.$/);
    // Relative, so that /docs' "Try it out" calls the address the page came from.
    assert.deepEqual(doc.servers, [{ url: '/' }]);
    const paths = doc.paths as Record<string, Record<string, unknown>>;
    const operations = Object.entries(paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    for (const op of [
      'GET /api/access',
      'POST /api/access',
      'DELETE /api/access/{user_id}',
      'POST /api/access/{user_id}/resend',
      'GET /api/access/events',
      'POST /api/access/nouveau',
      'POST /api/staff/users/invite',
      'GET /api/staff/users',
      'DELETE /api/staff/users/{user_id}',
      'GET /api/staff/cotisations',
      'GET /api/staff/cotisations.csv',
      'GET /api/cotisations.csv',
      'GET /api/factures.csv',
      'GET /api/staff/facturation.csv',
      'GET /api/virements.csv',
      'GET /api/staff/virements.csv',
      'GET /api/payslips.csv',
      'GET /api/staff/payslips.csv',
      'POST /api/staff/cotisations/{id}/notifier',
      'POST /api/staff/cotisations/{id}/paye',
      'PUT /api/staff/active-org',
      'GET /api/staff/orgs',
      'PATCH /api/staff/orgs/{id}/salaries/{employee_id}',
      'POST /auth/session',
      'POST /auth/magic-link',
      'POST /auth/logout',
      'GET /api/me',
    ]) {
      assert.ok(operations.includes(op), `${op} missing from ${operations.join(', ')}`);
    }
    const item = paths['/api/access']!.get as { responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }> };
    const listSchema = item.responses['200']!.content['application/json']!.schema;
    assert.ok('items' in listSchema.properties);
  });

  it('should serve the interactive documentation at /docs', async (t) => {
    const { app } = await build(t);
    const res = await app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /swagger/i);
  });
});
