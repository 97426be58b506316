import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appPerSuite, build } from '../helper.ts';
import { createOrg, member } from '../support/fixtures.ts';
import { docsCsp } from '../../src/pages/security.ts';

/** The CSP as a map of directive → sources. */
function csp(header: unknown): Record<string, string> {
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...sources] = d.split(/\s+/);
        return [name!, sources.join(' ')];
      }),
  );
}

// One app for the file: its tests read headers and pages, and the two that write make their own
// organization and people. The plain-http one builds its own with another PUBLIC_URL.
const suite = appPerSuite();

describe('security headers', () => {
  it('should forbid inline scripts, inline handlers, inline styles and framing on the pages', async () => {
    const { app } = suite();
    for (const url of ['/login', '/activate']) {
      const res = await app.inject({ method: 'GET', url });
      const policy = csp(res.headers['content-security-policy']);
      assert.equal(policy['default-src'], "'self'", url);
      assert.equal(policy['script-src'], "'self'", url);
      assert.equal(policy['script-src-attr'], "'none'", url);
      assert.equal(policy['style-src'], "'self'", url);
      assert.equal(policy['frame-ancestors'], "'none'", url);
      assert.equal(policy['object-src'], "'none'", url);
      assert.equal(res.headers['x-frame-options'], 'DENY', url);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
      assert.equal(res.headers['referrer-policy'], 'no-referrer', url);
      // No inline script or handler in the markup the policy would then block.
      assert.doesNotMatch(res.body, /<script(?![^>]*\bsrc=)[^>]*>/, url);
      assert.doesNotMatch(res.body, /\son[a-z]+=/i, url);
      assert.doesNotMatch(res.body, /<style|style="/, url);
    }
  });

  it('should send the same headers with the API answers', async () => {
    const { app } = suite();
    const res = await app.inject({ method: 'GET', url: '/api/me' });
    assert.equal(res.statusCode, 401);
    assert.equal(csp(res.headers['content-security-policy'])['frame-ancestors'], "'none'");
    assert.equal(res.headers['x-frame-options'], 'DENY');
  });

  it('should upgrade insecure requests and send HSTS only when PUBLIC_URL is https', async (t) => {
    const https = suite();
    const secure = await https.app.inject({ method: 'GET', url: '/login' });
    assert.ok('upgrade-insecure-requests' in csp(secure.headers['content-security-policy']));
    assert.match(String(secure.headers['strict-transport-security']), /max-age=31536000/);
    const http = await build(t, { env: { PUBLIC_URL: 'http://127.0.0.1:3000' } });
    const plain = await http.app.inject({ method: 'GET', url: '/login' });
    assert.ok(!('upgrade-insecure-requests' in csp(plain.headers['content-security-policy'])));
    assert.equal(plain.headers['strict-transport-security'], undefined);
  });

  it('should keep /docs working: its scripts from the site only, its inline styles allowed', async () => {
    const { app } = suite();
    const page = await app.inject({ method: 'GET', url: '/docs' });
    assert.equal(page.statusCode, 200);
    const policy = csp(page.headers['content-security-policy']);
    assert.equal(policy['script-src'], "'self'");
    assert.equal(policy['style-src'], "'self' 'unsafe-inline'");
    assert.equal(policy['frame-ancestors'], "'none'");
    for (const src of page.body.matchAll(/<script src="([^"]+)"/g)) {
      const script = await app.inject({ method: 'GET', url: src[1]!.replace(/^\.\//, '/docs/') });
      assert.equal(script.statusCode, 200, src[1]);
    }
    assert.equal(docsCsp("default-src 'self';style-src 'self';img-src 'self'"), "default-src 'self';style-src 'self' 'unsafe-inline';img-src 'self'");
  });

  it('should keep the pages out of the OpenAPI document', async () => {
    const { app } = suite();
    const paths = Object.keys((await app.inject({ method: 'GET', url: '/openapi.json' })).json().paths);
    assert.ok(paths.includes('/api/access'));
    for (const page of ['/', '/login', '/activate', '/vos-acces', '/assets/{name}']) assert.ok(!paths.includes(page), page);
  });
});

describe('GET /assets/:name', () => {
  it('should serve the scripts and the stylesheet with their type and a validator', async () => {
    const { app } = suite();
    const css = await app.inject({ method: 'GET', url: '/assets/style.css' });
    assert.equal(css.statusCode, 200);
    assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
    assert.equal(css.headers['cache-control'], 'no-cache');
    const again = await app.inject({ method: 'GET', url: '/assets/style.css', headers: { 'if-none-match': String(css.headers.etag) } });
    assert.equal(again.statusCode, 304);
    for (const name of ['api.js', 'login.js', 'activate.js', 'vos-acces.js', 'org-switcher.js', 'email-form.js']) {
      const js = await app.inject({ method: 'GET', url: `/assets/${name}` });
      assert.equal(js.statusCode, 200, name);
      assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8', name);
    }
  });

  it('should answer 404 for any other name, a path included', async () => {
    const { app } = suite();
    for (const url of ['/assets/nope.js', '/assets/..%2Fpages.routes.ts', '/assets/%2E%2E%2F%2E%2E%2Fapp.ts', '/assets/']) {
      assert.equal((await app.inject({ method: 'GET', url })).statusCode, 404, url);
    }
  });
});

describe('cross-site requests', () => {
  it("should refuse a POST sent from another site's page with 403 cross_site_request, and let the pages' own calls through", async () => {
    const { app, database } = suite();
    const db = database.db;
    const orgId = await createOrg(db, 'Compagnie Lumière');
    const admin = await member(app, db, orgId, 'admin@example.com', 'ADMIN');
    const payload = { email: 'evil@example.com', role: 'ADMIN' };
    for (const headers of [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site', origin: 'https://sub.paie.example.com' },
      { origin: 'https://evil.example' },
    ]) {
      const res = await app.inject({ method: 'POST', url: '/api/access', headers: { cookie: admin.cookie, ...headers }, payload });
      assert.equal(res.statusCode, 403, JSON.stringify(headers));
      assert.deepEqual(res.json(), { error: 'cross_site_request', message: 'Requête refusée : elle ne vient pas de ce site.' });
    }
    assert.equal(await db.selectFrom('auth.users').select('id').where('email', '=', 'evil@example.com').executeTakeFirst(), undefined);

    // What the pages send: a same-origin fetch.
    const own = await app.inject({
      method: 'POST',
      url: '/api/access',
      payload,
      headers: { cookie: admin.cookie, 'sec-fetch-site': 'same-origin', origin: 'https://paie.example.com' },
    });
    assert.equal(own.statusCode, 200);
    assert.equal(own.json().message, 'Invitation envoyée');
  });

  it('should answer every unsafe route of the API a cross-site request with 403 in the error shape, never a body that is not JSON', async () => {
    const { app, database } = suite();
    const orgId = await createOrg(database.db, 'Compagnie Lumière');
    const staff = await member(app, database.db, orgId, 'staff@ops.example', 'ADMIN');
    const paths = (app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths;
    let tried = 0;
    for (const [path, operations] of Object.entries(paths)) {
      for (const method of Object.keys(operations).filter((m) => ['post', 'put', 'patch', 'delete'].includes(m))) {
        const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        const res = await app.inject({
          method: method.toUpperCase() as 'POST',
          url,
          headers: { cookie: staff.cookie, 'sec-fetch-site': 'cross-site' },
          payload: {},
        });
        assert.equal(res.statusCode, 403, `${method} ${path}`);
        assert.deepEqual(
          res.json(),
          { error: 'cross_site_request', message: 'Requête refusée : elle ne vient pas de ce site.' },
          `${method} ${path}: ${res.body}`,
        );
        tried++;
      }
    }
    assert.ok(tried > 20, `${tried} routes tried`);
  });
});
