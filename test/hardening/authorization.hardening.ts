/**
 * The authorization matrix: every route × every kind of caller × every way of naming an
 * organization (docs/access.md's hints, body `org_id`). The expected status of each cell comes from
 * one rules table below; a non-staff caller outside the target organization must never
 * receive one byte of its data.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { build } from '../helper.ts';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { count } from './counts.ts';
import { applyChange } from '../../src/audit/change.ts';
import { insertNewContract } from '../../src/contracts/contracts.service.ts';
import { insertNewEmployee } from '../../src/employees/employees.service.ts';
import { insertNewPayslip } from '../../src/payslips/payslips.service.ts';
import { insertNewTransfer } from '../../src/transfers/transfers.service.ts';
import { todayInFrance } from '../../src/format/french.ts';
import { insertInvoiceBulk } from '../../src/invoices/invoices.service.ts';
import { insertNewContributionCall } from '../../src/contributions/contributions.service.ts';
import { orgScope } from '../../src/org/scope.ts';

const TARGET = { name: 'Cible SARL', key: 'CIBLE' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

type CallerKind = 'none' | 'ADMIN' | 'SUPER_ADMIN' | 'AGENT' | 'COMPTA' | 'revoked ADMIN' | 'ADMIN of another org' | 'STAFF' | 'SUPER_STAFF';
const CALLERS: CallerKind[] = ['none', 'ADMIN', 'SUPER_ADMIN', 'AGENT', 'COMPTA', 'revoked ADMIN', 'ADMIN of another org', 'STAFF', 'SUPER_STAFF'];

type Naming =
  | 'nothing'
  | 'cookie active_org_id'
  | 'cookie active_org_key'
  | 'cookie active_org_name_b64'
  | 'header x-active-org-id'
  | 'header x-company-name'
  | 'header x-company-name-b64'
  | 'body org_id';
const NAMINGS: Naming[] = [
  'nothing',
  'cookie active_org_id',
  'cookie active_org_key',
  'cookie active_org_name_b64',
  'header x-active-org-id',
  'header x-company-name',
  'header x-company-name-b64',
  'body org_id',
];

const isStaff = (c: CallerKind) => c === 'STAFF' || c === 'SUPER_STAFF';
const MANAGERS_OF_TARGET: CallerKind[] = ['ADMIN', 'SUPER_ADMIN'];
const MEMBERS_OF_TARGET: CallerKind[] = ['ADMIN', 'SUPER_ADMIN', 'AGENT', 'COMPTA'];

/** Which organization a request acts on.2 rule 2), by caller and naming. */
function actedOn(caller: CallerKind, naming: Naming, readsBody: boolean): 'target' | 'other' | null {
  if (isStaff(caller)) return naming === 'nothing' || (naming === 'body org_id' && !readsBody) ? null : 'target';
  // get_my_org; hints ignored. A revoked member's organization still resolves: 403.
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
  /** The body sent (the access API's invitation when absent and `readsBody`). */
  payload?: (fixtures: Fixtures) => object | Buffer;
  /** The one table: expected status for a cell. */
  expect(caller: CallerKind, org: 'target' | 'other' | null): number;
}

/** Objects of the target organization a module route names (made afresh for each cell). */
interface Fixtures {
  org: string;
  employee: string;
  /** A draft. */
  contract: string;
  /** A signed contract, with its signed PDF. */
  signed: string;
  /** A payslip with its PDF, in no batch (available: the target delegates its salaries). */
  payslip: string;
  /** A batch (`genere`) of another payslip. */
  batch: string;
  /** An invoice of the target. */
  invoice: string;
  /** A contribution call of the target. */
  call: string;
}

const orgScoped =
  (onAllowed: (org: 'target' | 'other') => number, onNoOrgForStaff: number): RouteRule['expect'] =>
  (caller, org) => {
    if (caller === 'none') return 401;
    if (org === null) return isStaff(caller) ? onNoOrgForStaff : 400;
    return mayManage(caller, org) ? onAllowed(org) : 403;
  };
const staffOnly: RouteRule['expect'] = (caller) => (caller === 'none' ? 401 : isStaff(caller) ? 200 : 403);

const CONTRACT_SET: CallerKind[] = ['ADMIN', 'SUPER_ADMIN', 'AGENT'];
const MONEY_SET: CallerKind[] = ['ADMIN', 'SUPER_ADMIN', 'COMPTA'];
const READ_SET: CallerKind[] = MEMBERS_OF_TARGET;

/**
 * A module route: the organization by the resolution of docs/access.md only (never the body; staff without
 * a hint fall back to their saved choice, which they have none of here: 400), the gate's role
 * set, then `onAllowed` by the organization acted on. The other organization's ADMIN is in
 * every set, and must find nothing of the target's: 404, as for an unknown id.
 */
const moduleGate =
  (roles: CallerKind[], onAllowed: (org: 'target' | 'other') => number): RouteRule['expect'] =>
  (caller, org) => {
    if (caller === 'none') return 401;
    if (org === null) return 400;
    if (isStaff(caller) || org === 'other') return onAllowed(org);
    return roles.includes(caller) ? onAllowed(org) : 403;
  };
const staffOnlyWith =
  (status: number): RouteRule['expect'] =>
  (caller) =>
    caller === 'none' ? 401 : isStaff(caller) ? status : 403;
const targetsOnly = (ok: number) => (org: 'target' | 'other') => (org === 'target' ? ok : 404);
const PDF = Buffer.from('%PDF-1.4\n% signed\n%%EOF\n');

const INVOICE_LINES = [{ label: 'Traitement de la paie', quantity: 1, unit_price: '90.00', vat_rate: '20.00' }];

/** The payroll modules' routes, and a money-gated probe. */
const MODULE_RULES: RouteRule[] = [
  { name: 'GET /api/salaries', readsBody: false, expect: moduleGate(READ_SET, () => 200) },
  {
    name: 'POST /api/salaries',
    readsBody: false,
    payload: () => ({ first_name: 'Nouveau', last_name: 'Salarié' }),
    expect: moduleGate(CONTRACT_SET, () => 201),
  },
  { name: 'PATCH /api/salaries/:employee', readsBody: false, payload: () => ({ last_name: 'Renommé' }), expect: moduleGate(CONTRACT_SET, targetsOnly(200)) },
  { name: 'GET /api/contrats', readsBody: false, expect: moduleGate(CONTRACT_SET, () => 200) },
  // The target's employee: from the other organization, an unknown employee (400).
  {
    name: 'POST /api/contrats',
    readsBody: false,
    payload: (f) => ({ employee_id: f.employee, kind: 'CDD', start_date: '2027-01-01', end_date: '2027-01-31' }),
    expect: moduleGate(CONTRACT_SET, (org) => (org === 'target' ? 201 : 400)),
  },
  { name: 'GET /api/contrats/:contract', readsBody: false, expect: moduleGate(CONTRACT_SET, targetsOnly(200)) },
  { name: 'PATCH /api/contrats/:contract', readsBody: false, payload: () => ({ job_title: 'Régisseur' }), expect: moduleGate(CONTRACT_SET, targetsOnly(200)) },
  { name: 'POST /api/contrats/:contract/submit', readsBody: false, expect: moduleGate(CONTRACT_SET, targetsOnly(200)) },
  { name: 'POST /api/contrats/:contract/cancel', readsBody: false, expect: moduleGate(CONTRACT_SET, targetsOnly(200)) },
  { name: 'POST /api/contrats/:contract/notes', readsBody: false, payload: () => ({ text: 'Une note' }), expect: moduleGate(CONTRACT_SET, targetsOnly(201)) },
  {
    name: 'POST /api/contrats/:contract/avenants',
    readsBody: false,
    payload: () => ({ end_date: '2027-02-14', dates: [{ date: '2027-02-09', nature: 'service', quantity: 1, amount: '100' }] }),
    expect: moduleGate(CONTRACT_SET, targetsOnly(200)),
  },
  { name: 'GET /api/contrats/:contract/notes', readsBody: false, expect: moduleGate(CONTRACT_SET, targetsOnly(200)) },
  { name: 'GET /api/contrats/:signed/pdf-url', readsBody: false, expect: moduleGate(CONTRACT_SET, targetsOnly(200)) },
  {
    name: 'POST /api/generate-contract-pdf',
    readsBody: false,
    payload: (f) => ({ contract_id: f.contract }),
    expect: moduleGate(CONTRACT_SET, targetsOnly(200)),
  },
  { name: 'GET /api/test-money-gate', readsBody: false, expect: moduleGate(MONEY_SET, () => 200) },
  { name: 'GET /api/staff/contrats', readsBody: false, expect: staffOnlyWith(200) },
  {
    name: 'PATCH /api/staff/contrats/:contract/salaires-par-date',
    readsBody: false,
    payload: () => ({ dates: [{ date: '2027-01-05', nature: 'service', quantity: 1, amount: '100' }] }),
    expect: staffOnlyWith(200),
  },
  { name: 'PUT /api/staff/contrats/:contract/signed-pdf', readsBody: false, payload: () => PDF, expect: staffOnlyWith(200) },
  { name: 'DELETE /api/staff/contrats/:signed/delete-signed-pdf', readsBody: false, expect: staffOnlyWith(200) },
  { name: 'PATCH /api/staff/orgs/:target', readsBody: false, payload: () => ({ virements_salaires: 'Odentas' }), expect: staffOnlyWith(200) },
  {
    name: 'PATCH /api/staff/orgs/:target/salaries/:employee',
    readsBody: false,
    payload: () => ({ cadre: true, pas_rate: '7.50' }),
    expect: staffOnlyWith(200),
  },
  // Payslips (read set), salary transfers (money set), their staff routes.
  { name: 'GET /api/payslips', readsBody: false, expect: moduleGate(READ_SET, () => 200) },
  { name: 'GET /api/payslips/:payslip/pdf-url', readsBody: false, expect: moduleGate(READ_SET, targetsOnly(200)) },
  { name: 'GET /api/payslips/:payslip', readsBody: false, expect: moduleGate(READ_SET, targetsOnly(200)) },
  { name: 'GET /api/staff/payslips/:payslip', readsBody: false, expect: staffOnlyWith(200) },
  // The run (its job is not started here) and the validation (no draft: 409).
  { name: 'POST /api/staff/paie/calcul', readsBody: false, payload: (f) => ({ org_id: f.org, period: '2027-03' }), expect: staffOnlyWith(202) },
  { name: 'POST /api/staff/paie/valider', readsBody: false, payload: (f) => ({ org_id: f.org, period: '2027-03' }), expect: staffOnlyWith(409) },
  // The fixture's payslip is published, not a draft: 404 for staff, refused before for everyone else.
  { name: 'GET /api/staff/paie/brouillons/:payslip/bulletin.pdf', readsBody: false, expect: staffOnlyWith(404) },
  { name: 'GET /api/virements', readsBody: false, expect: moduleGate(MONEY_SET, () => 200) },
  {
    name: 'POST /api/staff/payslips',
    readsBody: false,
    payload: (f) => ({ org_id: f.org, employee_id: f.employee, period: '2027-03', gross: '2000', net_to_pay: '1500' }),
    expect: staffOnlyWith(201),
  },
  { name: 'PUT /api/staff/payslips/:payslip/pdf', readsBody: false, payload: () => PDF, expect: staffOnlyWith(200) },
  { name: 'GET /api/staff/payslips/available', readsBody: false, expect: staffOnlyWith(200) },
  { name: 'GET /api/staff/virements', readsBody: false, expect: staffOnlyWith(200) },
  {
    name: 'POST /api/staff/virements',
    readsBody: false,
    payload: (f) => ({ payslip_ids: [f.payslip], execution_date: todayInFrance() }),
    expect: staffOnlyWith(201),
  },
  { name: 'GET /api/staff/virements/:batch', readsBody: false, expect: staffOnlyWith(200) },
  { name: 'GET /api/staff/virements/:batch/sepa.xml', readsBody: false, expect: staffOnlyWith(200) },
  { name: 'POST /api/staff/virements/:batch/executed', readsBody: false, expect: staffOnlyWith(200) },
  { name: 'POST /api/staff/virements/:batch/cancel', readsBody: false, expect: staffOnlyWith(200) },
  // Invoices and contribution calls.
  { name: 'GET /api/factures', readsBody: false, expect: moduleGate(MONEY_SET, () => 200) },
  { name: 'GET /api/factures/:invoice/pdf-url', readsBody: false, expect: moduleGate(MONEY_SET, targetsOnly(200)) },
  { name: 'GET /api/cotisations', readsBody: false, expect: moduleGate(MONEY_SET, () => 200) },
  { name: 'GET /api/staff/facturation', readsBody: false, expect: staffOnlyWith(200) },
  { name: 'GET /api/staff/facturation/:invoice', readsBody: false, expect: staffOnlyWith(200) },
  { name: 'GET /api/staff/facturation/:invoice/pdf-url', readsBody: false, expect: staffOnlyWith(200) },
  {
    name: 'POST /api/staff/facturation/bulk-create',
    readsBody: false,
    payload: (f) => ({ invoice_type: 'paie_mensuelle', payment_method: 'prelevement', invoices: [{ org_id: f.org, lines: INVOICE_LINES }] }),
    expect: staffOnlyWith(201),
  },
  { name: 'POST /api/staff/facturation/bulk-notify', readsBody: false, payload: (f) => ({ invoice_ids: [f.invoice] }), expect: staffOnlyWith(200) },
  {
    name: 'POST /api/staff/cotisations',
    readsBody: false,
    payload: (f) => ({ org_id: f.org, period: '2026-11', due_date: '2026-12-15', lines: [{ organism: 'URSSAF', amount: '100' }] }),
    expect: staffOnlyWith(201),
  },
  // The staff's contribution calls (the target has no notification address: 409).
  { name: 'GET /api/staff/cotisations', readsBody: false, expect: staffOnlyWith(200) },
  { name: 'POST /api/staff/cotisations/:call/notifier', readsBody: false, expect: staffOnlyWith(409) },
  { name: 'POST /api/staff/cotisations/:call/paye', readsBody: false, payload: () => ({}), expect: staffOnlyWith(200) },
  // The CSV exports; the payslips' is the money set's, not the read set's.
  { name: 'GET /api/factures.csv', readsBody: false, expect: moduleGate(MONEY_SET, () => 200) },
  { name: 'GET /api/cotisations.csv', readsBody: false, expect: moduleGate(MONEY_SET, () => 200) },
  { name: 'GET /api/virements.csv', readsBody: false, expect: moduleGate(MONEY_SET, () => 200) },
  { name: 'GET /api/payslips.csv?period=2027-01', readsBody: false, expect: moduleGate(MONEY_SET, () => 200) },
  { name: 'GET /api/staff/facturation.csv', readsBody: false, expect: staffOnlyWith(200) },
  { name: 'GET /api/staff/cotisations.csv', readsBody: false, expect: staffOnlyWith(200) },
  // The durable jobs: the failed ones and their retry (none failed here: 404 for an unknown one).
  { name: 'GET /api/staff/jobs?status=failed', readsBody: false, expect: staffOnlyWith(200) },
  { name: 'POST /api/staff/jobs/999999999/retry', readsBody: false, expect: staffOnlyWith(404) },
  { name: 'GET /api/staff/virements.csv', readsBody: false, expect: staffOnlyWith(200) },
  { name: 'GET /api/staff/payslips.csv?period=2027-01', readsBody: false, expect: staffOnlyWith(200) },
  // The operator's identity and bank account: staff only, whatever the organization named.
  { name: 'GET /api/staff/operator', readsBody: false, expect: staffOnlyWith(200) },
  { name: 'PATCH /api/staff/operator', readsBody: false, payload: () => ({ name: 'Odentas Paie' }), expect: staffOnlyWith(200) },
];

/** A route gated on `money`, as the money modules will declare theirs. */
function moneyProbe(fastify: FastifyInstance): void {
  fastify.get('/api/test-money-gate', { config: { gate: 'money' } }, async (request) => ({ org: orgScope(request).orgId.length }));
}

/** The cell's fresh target objects, made as the modules make them. */
async function makeFixtures(app: FastifyInstance, orgId: string, agent: Person, cell: number): Promise<Fixtures> {
  return applyChange({ db: app.db }, async (change) => {
    const actor = { caller: { userId: agent.userId, email: agent.email }, orgId };
    const employee = await insertNewEmployee(change, actor, { first_name: 'Confidentiel', last_name: `Salarié${cell}`, iban: 'FR7630006000011234567890189' });
    const draft = { employee_id: employee.id, kind: 'CDD', show_title: 'Spectacle Confidentiel', start_date: '2027-01-01', end_date: '2027-01-31' };
    const contract = await insertNewContract(change, actor, draft);
    const signed = await insertNewContract(change, actor, draft);
    const fileId = await app.files.put(change.trx, { content: PDF, contentType: 'application/pdf', filename: 'signe.pdf', orgId });
    await change.trx.updateTable('contracts').set({ signed_pdf_id: fileId, signed_at: new Date(), status: 'signe' }).where('id', '=', signed).execute();
    const payslipOf = { org_id: orgId, employee_id: employee.id, period: '2027-01', gross: '2000', net_to_pay: '1500' };
    const payslip = await insertNewPayslip(change, actor.caller, payslipOf);
    const payslipPdf = await app.files.put(change.trx, { content: PDF, contentType: 'application/pdf', filename: 'bulletin.pdf', orgId });
    await change.trx.updateTable('payslips').set({ pdf_id: payslipPdf }).where('id', '=', payslip).execute();
    // One payslip an employee and month: the one a batch holds is February's.
    const paid = await insertNewPayslip(change, actor.caller, { ...payslipOf, period: '2027-02' });
    const batch = await insertNewTransfer(change, actor.caller, [paid], todayInFrance(), { config: app.config, files: app.files });
    const [invoice] = await insertInvoiceBulk(change, null, {
      invoice_type: 'paie_mensuelle',
      payment_method: 'virement',
      period_label: 'Confidentiel',
      invoices: [{ org_id: orgId, lines: INVOICE_LINES }],
    });
    // Its documents as its job stores them (the job itself is tested in test/jobs).
    const invoicePdf = await app.files.put(change.trx, { content: PDF, contentType: 'application/pdf', filename: 'facture.pdf', orgId });
    const invoiceXml = await app.files.put(change.trx, { content: Buffer.from('<x/>'), contentType: 'application/xml', filename: 'factur-x.xml', orgId });
    await change.trx.updateTable('invoices').set({ pdf_id: invoicePdf, xml_id: invoiceXml }).where('id', '=', invoice!.id).execute();
    const call = await insertNewContributionCall(change, null, {
      org_id: orgId,
      period: '2027-01',
      due_date: '2027-02-15',
      lines: [{ organism: 'URSSAF', amount: '100' }],
    });
    return { org: orgId, employee: employee.id, contract, signed, payslip, batch, invoice: invoice!.id, call: call.id };
  });
}

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
  { name: 'DELETE /api/staff/active-org', readsBody: false, expect: staffOnly },
  { name: 'GET /api/me', readsBody: false, expect: (caller) => (caller === 'none' ? 401 : 200) },
  ...MODULE_RULES,
];

describe('authorization matrix', () => {
  it('should answer every cell as the rules table says, and leak nothing across organizations', async (t) => {
    const operator = { OPERATOR_IBAN: 'FR7630004000031234567890143', OPERATOR_BIC: 'BNPAFRPP' };
    const { app, database } = await build(t, { routes: moneyProbe, env: operator });
    const db = database.db;
    const target = await createOrg(db, TARGET.name, TARGET.key);
    // The target delegates its salaries: its payslips are payable by transfer.
    await db.updateTable('organizations').set({ virements_salaires: 'Odentas' }).where('id', '=', target).execute();
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
    const agentOfTarget = people.get('AGENT')!;

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
          const method = rule.name.split(' ')[0] as 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT';
          const fixtures =
            /:(employee|contract|signed|payslip|batch|invoice|call)\b/.test(url) || rule.payload ? await makeFixtures(app, target, agentOfTarget, cell) : null;
          if (fixtures) {
            url = url.replace(':employee', fixtures.employee).replace(':contract', fixtures.contract).replace(':signed', fixtures.signed);
            url = url
              .replace(':payslip', fixtures.payslip)
              .replace(':batch', fixtures.batch)
              .replace(':invoice', fixtures.invoice)
              .replace(':call', fixtures.call);
          }
          url = url.replace(':target', target);
          if (url.includes(':victim')) {
            const victim = await member(app, db, target, `victim${cell}@cible.example`, 'AGENT');
            url = url.replace(':victim', victim.userId);
          }
          if (url.includes(':pending')) {
            const pending = await db
              .insertInto('auth.users')
              .values({ email: `pending${cell}@cible.example` })
              .returning('id')
              .executeTakeFirstOrThrow();
            await db.insertInto('organization_members').values({ org_id: target, user_id: pending.id, role: 'AGENT' }).execute();
            url = url.replace(':pending', pending.id);
          }
          const payload = rule.readsBody
            ? { email: `new${cell}@invite.example`, role: 'AGENT', ...(naming === 'body org_id' ? { org_id: target } : {}) }
            : undefined;
          const body = rule.payload && fixtures ? rule.payload(fixtures) : payload;
          if (Buffer.isBuffer(body)) headers['content-type'] = 'application/pdf';
          const res = await app.inject({ method, url, headers, ...(body ? { payload: body } : {}) });

          const org = actedOn(callerKind, naming, rule.readsBody);
          const expected = rule.expect(callerKind, org);
          const label = `${rule.name} as ${callerKind} naming ${naming}`;
          if (res.statusCode !== expected) failures.push(`${label}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 120)}`);

          const outsider = callerKind === 'ADMIN of another org' || (callerKind === 'revoked ADMIN' && rule.name !== 'GET /api/me');
          if (outsider) {
            const objects = fixtures
              ? [fixtures.employee, fixtures.contract, fixtures.signed, fixtures.payslip, fixtures.batch, fixtures.invoice, fixtures.call]
              : [];
            for (const needle of [target, 'cible.example', TARGET.name, TARGET.key, secret.userId, 'Confidentiel', ...objects]) {
              if (res.body.includes(needle)) failures.push(`${label}: leaked "${needle}"`);
            }
          }
          if (payload && !rule.payload && res.statusCode === 200) {
            const placed = await db
              .selectFrom('organization_members as m')
              .innerJoin('auth.users as u', 'u.id', 'm.user_id')
              .select('m.org_id')
              .where('u.email', '=', payload.email)
              .execute();
            const where = org === 'target' ? target : other;
            if (placed.length !== 1 || placed[0]!.org_id !== where) failures.push(`${label}: member placed in ${JSON.stringify(placed)}`);
          }
        }
      }
    }
    count('cases', cell);
    assert.deepEqual(failures, [], `${failures.length} of ${cell} cells wrong`);
    // The victims of refused revocations are still active.
    const stillActive = await db
      .selectFrom('organization_members as m')
      .innerJoin('auth.users as u', 'u.id', 'm.user_id')
      .select(['u.email', 'm.revoked'])
      .where('u.email', 'like', 'victim%')
      .execute();
    assert.ok(stillActive.some((v) => !v.revoked) && stillActive.some((v) => v.revoked));
  });
});
