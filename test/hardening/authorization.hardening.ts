/**
 * The authorization matrix: every route × every kind of caller × every way of naming an
 * organization (SPEC 4.3 hints, body `org_id`). The expected status of each cell comes from
 * one rules table below; a non-staff caller outside the target organization must never
 * receive one byte of its data.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { count } from './counts.ts';

const TARGET = { name: 'Cible SARL', key: 'CIBLE' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

type CallerKind = 'none' | 'ADMIN' | 'SUPER_ADMIN' | 'AGENT' | 'COMPTA' | 'revoked ADMIN' | 'ADMIN of another org' | 'STAFF' | 'SUPER_STAFF';
const CALLERS: CallerKind[] = ['none', 'ADMIN', 'SUPER_ADMIN', 'AGENT', 'COMPTA', 'revoked ADMIN', 'ADMIN of another org', 'STAFF', 'SUPER_STAFF'];

type Naming = 'nothing' | 'cookie active_org_id' | 'cookie active_org_key' | 'cookie active_org_name_b64' | 'header x-active-org-id' | 'header x-company-name' | 'header x-company-name-b64' | 'body org_id';
const NAMINGS: Naming[] = ['nothing', 'cookie active_org_id', 'cookie active_org_key', 'cookie active_org_name_b64', 'header x-active-org-id', 'header x-company-name', 'header x-company-name-b64', 'body org_id'];

const isStaff = (c: CallerKind) => c === 'STAFF' || c === 'SUPER_STAFF';
const MANAGERS_OF_TARGET: CallerKind[] = ['ADMIN', 'SUPER_ADMIN'];
const MEMBERS_OF_TARGET: CallerKind[] = ['ADMIN', 'SUPER_ADMIN', 'AGENT', 'COMPTA'];

/** Which organization a request acts on (SPEC 4.3 and 4.2 rule 2), by caller and naming. */
function actedOn(caller: CallerKind, naming: Naming, readsBody: boolean): 'target' | 'other' | null {
  if (isStaff(caller)) return naming === 'nothing' || (naming === 'body org_id' && !readsBody) ? null : 'target';
  // get_my_org; hints ignored. A revoked member's organization still resolves (CONTRACT 4): 403.
  if (MEMBERS_OF_TARGET.includes(caller) || caller === 'revoked ADMIN') return 'target';
  return 'other'; // the ADMIN of another org
}

function mayManage(caller: CallerKind, org: 'target' | 'other'): boolean {
  if (isStaff(caller)) return true;
  if (org === 'other') return caller === 'ADMIN of another org';
  return MANAGERS_OF_TARGET.includes(caller);
}

interface RouteRule {
  name: string;
  readsBody: boolean;
  /** The one table: expected status for a cell. */
  expect(caller: CallerKind, org: 'target' | 'other' | null): number;
}

const orgScoped = (onAllowed: (org: 'target' | 'other') => number, onNoOrgForStaff: number): RouteRule['expect'] => (caller, org) => {
  if (caller === 'none') return 401;
  if (org === null) return isStaff(caller) ? onNoOrgForStaff : 400;
  return mayManage(caller, org) ? onAllowed(org) : 403;
};
const staffOnly: RouteRule['expect'] = (caller) => (caller === 'none' ? 401 : isStaff(caller) ? 200 : 403);

const RULES: RouteRule[] = [
  { name: 'GET /api/access', readsBody: false, expect: orgScoped(() => 200, 200) },
  { name: 'POST /api/access', readsBody: true, expect: orgScoped(() => 200, 400) },
  // The victim and the pending member belong to the target: from the other org they are nobody.
  { name: 'DELETE /api/access/:victim', readsBody: false, expect: orgScoped((org) => (org === 'target' ? 200 : 404), 400) },
  { name: 'POST /api/access/:pending/resend', readsBody: false, expect: orgScoped((org) => (org === 'target' ? 200 : 404), 400) },
  { name: 'GET /api/access/events', readsBody: false, expect: orgScoped(() => 200, 200) },
  {
    name: 'POST /api/access/nouveau',
    readsBody: true,
    expect: (caller, org) => (caller === 'none' ? 401 : !isStaff(caller) ? 403 : org === null ? 400 : 200),
  },
  { name: 'GET /api/staff/orgs', readsBody: false, expect: staffOnly },
  { name: 'GET /api/staff/users', readsBody: false, expect: staffOnly },
  { name: 'GET /api/me', readsBody: false, expect: (caller) => (caller === 'none' ? 401 : 200) },
];

describe('authorization matrix', () => {
  it('should answer every cell as the rules table says, and leak nothing across organizations', async (t) => {
    const { app, database } = await build(t);
    const db = database.db;
    const target = await createOrg(db, TARGET.name, TARGET.key);
    const other = await createOrg(db, 'Autre SAS', 'AUTRE');
    const people = new Map<CallerKind, Person | null>([['none', null]]);
    people.set('ADMIN', await member(app, db, target, 'admin@cible.example', 'ADMIN'));
    people.set('SUPER_ADMIN', await member(app, db, target, 'boss@cible.example', 'SUPER_ADMIN'));
    people.set('AGENT', await member(app, db, target, 'agent@cible.example', 'AGENT'));
    people.set('COMPTA', await member(app, db, target, 'compta@cible.example', 'COMPTA'));
    people.set('revoked ADMIN', await member(app, db, target, 'former@cible.example', 'ADMIN', { revoked: true }));
    people.set('ADMIN of another org', await member(app, db, other, 'admin@autre.example', 'ADMIN'));
    people.set('STAFF', await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' }));
    people.set('SUPER_STAFF', await signedIn(app, db, 'super@ops.example', { staff: 'SUPER_STAFF' }));
    const secret = await member(app, db, target, 'secret@cible.example', 'COMPTA', { metadata: { first_name: 'Confidentiel' } });

    let cell = 0;
    const failures: string[] = [];
    for (const rule of RULES) {
      for (const callerKind of CALLERS) {
        for (const naming of NAMINGS) {
          if (naming === 'body org_id' && !rule.readsBody) continue;
          cell++;
          const person = people.get(callerKind) ?? null;
          const cookies: string[] = person ? [person.cookie] : [];
          const headers: Record<string, string> = {};
          if (naming === 'cookie active_org_id') cookies.push(`active_org_id=${target}`);
          if (naming === 'cookie active_org_key') cookies.push(`active_org_key=${TARGET.key}`);
          if (naming === 'cookie active_org_name_b64') cookies.push(`active_org_name_b64=${b64(TARGET.name)}`);
          if (naming === 'header x-active-org-id') headers['x-active-org-id'] = target;
          if (naming === 'header x-company-name') headers['x-company-name'] = TARGET.name;
          if (naming === 'header x-company-name-b64') headers['x-company-name-b64'] = b64(TARGET.name);
          if (cookies.length) headers.cookie = cookies.join('; ');

          let url = rule.name.split(' ')[1]!;
          const method = rule.name.split(' ')[0] as 'GET' | 'POST' | 'DELETE';
          if (url.includes(':victim')) {
            const victim = await member(app, db, target, `victim${cell}@cible.example`, 'AGENT');
            url = url.replace(':victim', victim.userId);
          }
          if (url.includes(':pending')) {
            const pending = await db.insertInto('auth.users').values({ email: `pending${cell}@cible.example` }).returning('id').executeTakeFirstOrThrow();
            await db.insertInto('organization_members').values({ org_id: target, user_id: pending.id, role: 'AGENT' }).execute();
            url = url.replace(':pending', pending.id);
          }
          const payload = rule.readsBody
            ? { email: `new${cell}@invite.example`, role: 'AGENT', ...(naming === 'body org_id' ? { org_id: target } : {}) }
            : undefined;
          const res = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

          const org = actedOn(callerKind, naming, rule.readsBody);
          const expected = rule.expect(callerKind, org);
          const label = `${rule.name} as ${callerKind} naming ${naming}`;
          if (res.statusCode !== expected) failures.push(`${label}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 120)}`);

          const outsider = callerKind === 'ADMIN of another org' || (callerKind === 'revoked ADMIN' && rule.name !== 'GET /api/me');
          if (outsider) {
            for (const needle of [target, 'cible.example', TARGET.name, TARGET.key, secret.userId, 'Confidentiel']) {
              if (res.body.includes(needle)) failures.push(`${label}: leaked "${needle}"`);
            }
          }
          if (payload && res.statusCode === 200) {
            const placed = await db.selectFrom('organization_members as m').innerJoin('auth.users as u', 'u.id', 'm.user_id')
              .select('m.org_id').where('u.email', '=', payload.email).execute();
            const where = org === 'target' ? target : other;
            if (placed.length !== 1 || placed[0]!.org_id !== where) failures.push(`${label}: member placed in ${JSON.stringify(placed)}`);
          }
        }
      }
    }
    count('cases', cell);
    assert.deepEqual(failures, [], `${failures.length} of ${cell} cells wrong`);
    // The victims of refused revocations are still active.
    const stillActive = await db.selectFrom('organization_members as m').innerJoin('auth.users as u', 'u.id', 'm.user_id')
      .select(['u.email', 'm.revoked']).where('u.email', 'like', 'victim%').execute();
    assert.ok(stillActive.some((v) => !v.revoked) && stillActive.some((v) => v.revoked));
  });
});
