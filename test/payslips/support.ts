/**
 * The payroll of the payslip and transfer tests: two organizations that delegate their
 * salaries (`Odentas`), one that pays them itself, their members, employees with and without
 * an IBAN, and helpers to publish payslips and make batches.
 */
import assert from 'node:assert/strict';
import { build } from '../helper.ts';
import { createOrg, member, signedIn, type Person } from '../support/fixtures.ts';
import { todayInFrance } from '../../src/format/french.ts';

export const OPERATOR_ENV = { OPERATOR_NAME: 'Odentas Paie', OPERATOR_IBAN: 'FR7630004000031234567890143', OPERATOR_BIC: 'BNPAFRPP' };

/** IBANs valid for ibantools (and the `sepa` library). */
export const IBAN = {
  helene: 'FR76 3000 6000 0112 3456 7890 189',
  marc: 'DE89 3704 0044 0532 0130 00',
  leonie: 'FR14 2004 1010 0505 0001 3M02 606',
  other: 'BE68 5390 0754 7034',
};

/** A date `days` after today in Paris ('YYYY-MM-DD'). */
export function inDays(days: number): string {
  const date = new Date(`${todayInFrance()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export async function setup(t: Parameters<typeof build>[0], env: Record<string, string> = OPERATOR_ENV) {
  const { app, database, config } = await build(t, { env });
  const db = database.db;
  const soleil = await createOrg(db, 'Théâtre du Soleil', 'TDS001');
  const lumiere = await createOrg(db, 'Compagnie Lumière', 'CLU002');
  const autonome = await createOrg(db, 'Ensemble Autonome', 'AUT003');
  await db.updateTable('organizations').set({ virements_salaires: 'Odentas' }).where('id', 'in', [soleil, lumiere]).execute();
  const admin = await member(app, db, soleil, 'admin@soleil.example', 'ADMIN');
  const agent = await member(app, db, soleil, 'agent@soleil.example', 'AGENT');
  const compta = await member(app, db, soleil, 'compta@soleil.example', 'COMPTA');
  const lumiereAgent = await member(app, db, lumiere, 'agent@lumiere.example', 'AGENT');
  const lumiereCompta = await member(app, db, lumiere, 'compta@lumiere.example', 'COMPTA');
  const autonomeAgent = await member(app, db, autonome, 'agent@autonome.example', 'AGENT');
  const staff = await signedIn(app, db, 'staff@ops.example', { staff: 'STAFF' });

  const call = (who: Person, method: Method, url: string, payload?: object, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { cookie: who.cookie, ...headers }, ...(payload ? { payload } : {}) });
  const employee = async (who: Person, first_name: string, last_name: string, iban?: string, bic?: string) => {
    const res = await call(who, 'POST', '/api/salaries', { first_name, last_name, ...(iban ? { iban } : {}), ...(bic ? { bic } : {}) });
    if (res.statusCode !== 201) throw new Error(`employee: ${res.statusCode} ${res.body}`);
    return res.json().id as string;
  };
  const helene = await employee(agent, 'Hélène', 'Lefèvre', IBAN.helene, 'AGRIFRPP');
  const marc = await employee(agent, 'Marc', 'Dupont', IBAN.marc);
  const zoe = await employee(agent, 'Zoé', 'Bernard');
  const leonie = await employee(lumiereAgent, 'Léonie', 'Faure', IBAN.leonie);
  const autonomeEmployee = await employee(autonomeAgent, 'Paul', 'Autonome', IBAN.other);

  /** Publishes a payslip (staff); its id. The gross defaults to 3,000.00, or the net when above (the net never exceeds it). */
  const payslip = async (
    org_id: string,
    employee_id: string,
    period: string,
    net_to_pay: string | number,
    gross: string | number = Number(net_to_pay) > 3000 ? net_to_pay : '3000.00',
  ) => {
    const res = await call(staff, 'POST', '/api/staff/payslips', { org_id, employee_id, period, gross, net_to_pay });
    if (res.statusCode !== 201) throw new Error(`payslip: ${res.statusCode} ${res.body}`);
    return res.json().id as string;
  };
  const batch = (payslip_ids: unknown, execution_date: unknown = inDays(3)) => call(staff, 'POST', '/api/staff/virements', { payslip_ids, execution_date });
  const available = async (query = '') => {
    const res = await call(staff, 'GET', `/api/staff/payslips/available${query}`);
    if (res.statusCode !== 200) throw new Error(`available: ${res.statusCode} ${res.body}`);
    return res.json().items as Array<{ id: string } & Record<string, unknown>>;
  };

  return {
    app,
    db,
    config,
    soleil,
    lumiere,
    autonome,
    admin,
    agent,
    compta,
    lumiereAgent,
    lumiereCompta,
    autonomeAgent,
    staff,
    call,
    employee,
    helene,
    marc,
    zoe,
    leonie,
    autonomeEmployee,
    payslip,
    batch,
    available,
  };
}

/** Marc as a technician with one March 2027 CDDU of 8 hours (250), submitted: computed by the run. */
export async function submittedTechnicianContract(ctx: Awaited<ReturnType<typeof setup>>): Promise<string> {
  await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${ctx.marc}`, { category: 'technicien' });
  const created = await ctx.call(ctx.agent, 'POST', '/api/contrats', {
    employee_id: ctx.marc,
    kind: 'CDDU',
    job_title: 'Régisseur',
    show_title: 'Le Songe',
    idcc: '3090',
    start_date: '2027-03-01',
    end_date: '2027-03-31',
    dates: [{ date: '2027-03-20', nature: 'heures', quantity: 8, amount: '250' }],
  });
  assert.equal((await ctx.call(ctx.agent, 'POST', `/api/contrats/${created.json().id}/submit`)).statusCode, 200);
  return created.json().id as string;
}
