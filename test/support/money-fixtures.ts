/**
 * The money of the `/paie` and `/factures` tests (page and browser), made as the staff make it,
 * through the staff APIs: payslips with and without their PDF, invoices, a contribution call and
 * a salary transfer batch for "Théâtre du Soleil" (which delegates its salaries), and the same
 * kinds for "Compagnie Lumière", which its members must never see on the other's pages.
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/database.ts';
import { todayInFrance } from '../../src/format/french.ts';
import { createOrg, member, signedIn, type Person } from './fixtures.ts';

/** A small valid-looking PDF (the upload checks its `%PDF-` start). */
export const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(256, 0x20), Buffer.from('\n%%EOF\n')]);
/** A name a page must show as text (written to the table: the API refuses `<` and `>`). */
export const HOSTILE_NAME = '<img src=x onerror=alert(1)>';

/** A date `days` after today in Paris (`YYYY-MM-DD`): a batch executes today or later. */
export function daysFromToday(days: number): string {
  const date = new Date(`${todayInFrance()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';

/**
 * The two organizations and their money. `hostileName`: one more payslip, of an employee whose
 * name holds markup (for the escaping tests; kept out of the screenshots).
 */
export async function moneyOrganizations(app: FastifyInstance, db: Database, options: { hostileName?: boolean } = {}) {
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const lumiere = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  await db.updateTable('organizations').set({ virements_salaires: 'Odentas' }).where('id', 'in', [soleil, lumiere]).execute();
  const agent = await member(app, db, soleil, 'ines.agent@soleil.example', 'AGENT', { metadata: { first_name: 'Inès' } });
  const compta = await member(app, db, soleil, 'compta@soleil.example', 'COMPTA', { metadata: { first_name: 'Marc' } });
  const admin = await member(app, db, soleil, 'admin@soleil.example', 'ADMIN');
  const lumiereCompta = await member(app, db, lumiere, 'compta@lumiere.example', 'COMPTA');
  const lumiereAgent = await member(app, db, lumiere, 'agent@lumiere.example', 'AGENT');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });

  const call = async (who: Person, method: Method, url: string, payload?: object | Buffer, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method, url, headers: { cookie: who.cookie, ...headers }, ...(payload ? { payload } : {}) });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const employee = async (who: Person, first_name: string, last_name: string, iban?: string) =>
    (await call(who, 'POST', '/api/salaries', { first_name, last_name, ...(iban ? { iban } : {}) })).id as string;
  const payslip = async (org_id: string, employee_id: string, period: string, gross: string, net_to_pay: string, pdf = true) => {
    const id = (await call(staff, 'POST', '/api/staff/payslips', { org_id, employee_id, period, gross, net_to_pay })).id as string;
    if (pdf) await call(staff, 'PUT', `/api/staff/payslips/${id}/pdf`, PDF, { 'content-type': 'application/pdf' });
    return id;
  };

  const helene = await employee(agent, 'Hélène', 'Lefèvre', 'FR76 3000 6000 0112 3456 7890 189');
  const paul = await employee(agent, 'Paul', 'Martin-Delacroix', 'DE89 3704 0044 0532 0130 00');
  // The API refuses markup in a name; a row written before that rule (or by hand) may hold some,
  // and the pages must show it as text all the same.
  const hostile = options.hostileName
    ? (await db.insertInto('employees').values({ org_id: soleil, first_name: 'Zoé', last_name: HOSTILE_NAME }).returning('id').executeTakeFirstOrThrow()).id
    : null;
  const leonie = await employee(lumiereAgent, 'Léonie', 'Faure', 'FR14 2004 1010 0505 0001 3M02 606');

  const payslips = {
    heleneMarch: await payslip(soleil, helene, '2027-03', '3000.00', '2345.67'),
    paulMarch: await payslip(soleil, paul, '2027-03', '1234.50', '987.65', false),
    hostileMarch: hostile ? await payslip(soleil, hostile, '2027-03', '500.00', '400.00') : null,
    heleneFebruary: await payslip(soleil, helene, '2027-02', '3000.00', '2301.10'),
    /** Another organization's. */
    leonieMarch: await payslip(lumiere, leonie, '2027-03', '9000.00', '8888.88'),
  };
  const executionDate = daysFromToday(3);
  // A batch is made with its SEPA file: the operator's account first (saved, as staff would).
  await call(staff, 'PATCH', '/api/staff/operator', { iban: 'FR7630004000031234567890143', bic: 'BNPAFRPP' });
  const transfer = await call(staff, 'POST', '/api/staff/virements', {
    payslip_ids: [payslips.heleneFebruary, payslips.paulMarch],
    execution_date: executionDate,
  });

  /** Invoices made in one bulk (`header`: type, payment, dates), one per `[org_id, quantity, unit_price]`. */
  const bulkInvoices = async (header: Record<string, string>, label: string, each: Array<[string, string, string]>) =>
    (
      await call(staff, 'POST', '/api/staff/facturation/bulk-create', {
        ...header,
        invoices: each.map(([org_id, quantity, unit_price]) => ({ org_id, lines: [{ label, quantity, unit_price, vat_rate: '20' }] })),
      })
    ).created as Array<{ id: string; number: string }>;
  const invoices = await bulkInvoices(
    { invoice_type: 'paie_mensuelle', payment_method: 'prelevement', period_label: 'Mars 2026', issue_date: '2026-03-31', due_date: '2026-04-15' },
    'Gestion de la paie, mars 2026',
    [
      [soleil, '12', '85.50'],
      [lumiere, '1', '9999.99'],
    ],
  );
  const opening = await bulkInvoices(
    // Issued after March's: an invoice is never dated before the last one (French invoicing rules).
    { invoice_type: 'frais_ouverture', payment_method: 'virement', issue_date: '2026-04-02', due_date: '2026-05-02' },
    'Ouverture du dossier',
    [[soleil, '1', '150']],
  );

  const contributionCall = await call(staff, 'POST', '/api/staff/cotisations', {
    org_id: soleil,
    period: '2027-03',
    due_date: '2027-04-15',
    lines: [
      { organism: 'URSSAF', amount: '1234.50' },
      { organism: 'AUDIENS', amount: '456.78' },
      { organism: 'CONGES_SPECTACLES', amount: '300' },
    ],
  });
  await call(staff, 'POST', '/api/staff/cotisations', {
    org_id: lumiere,
    period: '2027-03',
    due_date: '2027-04-15',
    lines: [{ organism: 'AFDAS', amount: '7777.77' }],
  });

  return {
    soleil,
    lumiere,
    agent,
    compta,
    admin,
    lumiereCompta,
    lumiereAgent,
    staff,
    call,
    employees: { helene, paul, hostile, leonie },
    payslips,
    transfer,
    executionDate,
    invoices: { march: invoices[0]!, lumiere: invoices[1]!, opening: opening[0]! },
    contributionCall,
  };
}
