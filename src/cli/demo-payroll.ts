/**
 * seed-demo's payroll data: employees and contracts of every kind and status, so that a new
 * user sees a living grid, then payslips and salary transfer batches with their SEPA files. Made through the
 * modules' own services (the same checks, numbers and audit events as the API), in the seed's
 * transaction, as the organization's agent.
 */
import type { Change } from '../audit/change.ts';
import type { Database } from '../db/database.ts';
import { applyStatusChange, insertNewContract, type ContractInput } from '../contracts/contracts.service.ts';
import { statusAfterCancel, statusAfterSubmit } from '../contracts/contract.rules.ts';
import { insertNewEmployee } from '../employees/employees.service.ts';
import type { EmployeeFieldsInput } from '../employees/employee.rules.ts';
import { insertNewPayslip } from '../payslips/payslips.service.ts';
import { insertNewTransfer, markExecutedInChange, type SepaContext } from '../transfers/transfers.service.ts';
import { todayInFrance } from '../format/french.ts';
import { addDays } from '../format/calendar.ts';

interface DemoContract extends ContractInput {
  /** Index in the organization's employees. */
  employee: number;
  /** The status to leave it in. */
  afterwards?: 'submit' | 'cancel' | 'submit-cancel';
}

interface DemoPayslip {
  /** Index in the organization's employees. */
  employee: number;
  /** Indexes in the organization's contracts. */
  contracts?: number[];
  period: string;
  gross: string;
  net_to_pay: string;
}

export interface DemoPayroll {
  /** `virements_salaires` = `Odentas`: the operator pays the salaries by transfer. */
  delegatesSalaries?: boolean;
  employees: EmployeeFieldsInput[];
  contracts: DemoContract[];
  payslips?: DemoPayslip[];
  /** Indexes in `payslips` paid by one batch executed the day of the seed (`execute`, with its SEPA file). */
  transfer?: number[];
  /** Indexes in `payslips` of a batch to be executed a week from the seed (`genere`). */
  pendingTransfer?: number[];
  /** A month seed-demo computes from the contracts and validates (docs/payroll.md). */
  computedPeriod?: string;
}

/** A CDDU's salaries by date: rehearsals then performances, at one fee each. */
function season(days: string[], performances: string[], rehearsalFee: string, performanceFee: string) {
  return [
    ...days.map((date) => ({ date, nature: 'repetition', quantity: 1, amount: rehearsalFee })),
    ...performances.map((date) => ({ date, nature: 'representation', quantity: 1, amount: performanceFee })),
  ];
}

export const DEMO_PAYROLL: Record<string, DemoPayroll> = {
  TDS001: {
    delegatesSalaries: true,
    employees: [
      {
        first_name: 'Hélène',
        last_name: 'Lefèvre',
        email: 'helene.lefevre@demo.local',
        category: 'artiste',
        iban: 'FR76 3000 6000 0112 3456 7890 189',
        bic: 'AGRIFRPP',
      },
      { first_name: 'Marc', last_name: 'Dupont', email: 'marc.dupont@demo.local', category: 'technicien', iban: 'DE89 3704 0044 0532 0130 00' },
      { first_name: 'Zoé', last_name: 'Bernard', email: 'zoe.bernard@demo.local', category: 'permanent' },
      { first_name: 'Jérôme', last_name: 'Müller', category: 'artiste' },
    ],
    contracts: [
      {
        employee: 0,
        kind: 'CDDU',
        job_title: 'Comédienne',
        show_title: "Le Songe d'une nuit d'été",
        idcc: '3090',
        start_date: '2026-12-01',
        end_date: '2026-12-20',
        dates: season(['2026-12-01', '2026-12-02', '2026-12-03'], ['2026-12-17', '2026-12-18', '2026-12-19', '2026-12-20'], '120.00', '231.20'),
        afterwards: 'submit',
      },
      {
        employee: 1,
        kind: 'CDDU',
        job_title: 'Régisseur lumière',
        show_title: "Le Songe d'une nuit d'été",
        idcc: '3090',
        start_date: '2026-12-14',
        end_date: '2026-12-20',
        dates: ['2026-12-14', '2026-12-15', '2026-12-16', '2026-12-17'].map((date) => ({ date, nature: 'heures', quantity: 8, amount: '165.50' })),
      },
      {
        employee: 3,
        kind: 'CDDU',
        job_title: 'Comédien',
        show_title: 'Cyrano de Bergerac',
        idcc: '3090',
        start_date: '2026-11-02',
        end_date: '2026-11-15',
        dates: season(['2026-11-02', '2026-11-03'], ['2026-11-14', '2026-11-15'], '115.00', '240.00'),
        afterwards: 'submit-cancel',
      },
      {
        employee: 1,
        kind: 'CDDU',
        job_title: 'Régisseur plateau',
        show_title: 'Cyrano de Bergerac',
        idcc: '3090',
        start_date: '2026-11-10',
        end_date: '2026-11-15',
        dates: [{ date: '2026-11-10', nature: 'heures', quantity: '7.5', amount: '142.50' }],
        afterwards: 'submit',
      },
      {
        employee: 2,
        kind: 'CDD',
        job_title: 'Chargée de production',
        idcc: '3090',
        start_date: '2026-09-01',
        end_date: '2027-02-28',
        monthly_gross: '2150.00',
        afterwards: 'submit',
      },
      { employee: 2, kind: 'CDI', job_title: 'Administratrice', idcc: '3090', start_date: '2027-03-01', monthly_gross: '2600.00' },
      // January's tour, computed and validated by seed-demo: real bulletins.
      {
        employee: 0,
        kind: 'CDDU',
        job_title: 'Comédienne',
        show_title: "Le Songe d'une nuit d'été (tournée)",
        idcc: '3090',
        start_date: '2027-01-05',
        end_date: '2027-01-16',
        dates: season(['2027-01-05', '2027-01-06'], ['2027-01-15', '2027-01-16'], '120.00', '231.20'),
        afterwards: 'submit',
      },
      {
        employee: 1,
        kind: 'CDDU',
        job_title: 'Régisseur lumière',
        show_title: "Le Songe d'une nuit d'été (tournée)",
        idcc: '3090',
        start_date: '2027-01-14',
        end_date: '2027-01-16',
        dates: ['2027-01-14', '2027-01-15', '2027-01-16'].map((date) => ({ date, nature: 'heures', quantity: 8, amount: '165.50' })),
        afterwards: 'submit',
      },
    ],
    computedPeriod: '2027-01',
    // Hélène's December is paid (an executed batch); Marc's November waits in a batch for next
    // week; his December is available for the next one; Zoé has no IBAN.
    payslips: [
      { employee: 0, contracts: [0], period: '2026-12', gross: '1284.80', net_to_pay: '1002.14' },
      { employee: 1, contracts: [1], period: '2026-12', gross: '662.00', net_to_pay: '516.36' },
      { employee: 2, contracts: [4], period: '2026-12', gross: '2150.00', net_to_pay: '1677.00' },
      { employee: 1, contracts: [3], period: '2026-11', gross: '142.50', net_to_pay: '111.15' },
    ],
    transfer: [0],
    pendingTransfer: [3],
  },
  CLU002: {
    employees: [
      { first_name: 'Léonie', last_name: 'Faure', category: 'artiste', iban: 'FR14 2004 1010 0505 0001 3M02 606' },
      { first_name: 'Noël', last_name: 'Girard', category: 'technicien' },
    ],
    contracts: [
      {
        employee: 0,
        kind: 'CDDU',
        job_title: 'Danseuse',
        show_title: 'Éclats de lumière',
        idcc: '1285',
        start_date: '2027-01-10',
        end_date: '2027-01-24',
        dates: season(['2027-01-10', '2027-01-11'], ['2027-01-23', '2027-01-24'], '110.00', '210.00'),
      },
      {
        employee: 1,
        kind: 'CDD',
        job_title: 'Régisseur général',
        idcc: '1285',
        start_date: '2027-01-03',
        end_date: '2027-01-31',
        monthly_gross: '2300.00',
        afterwards: 'cancel',
      },
    ],
    // The company pays its salaries itself: this payslip is not for a transfer.
    payslips: [{ employee: 0, contracts: [0], period: '2027-01', gross: '880.00', net_to_pay: '686.40' }],
  },
};

/**
 * The organization's demo employees and contracts, unless it already has employees (running
 * seed-demo again changes nothing). `agent` is who they are recorded as made by. Answers how
 * many the organization has.
 */
export async function seedPayroll(change: Change, sepa: SepaContext, orgId: string, agent: { userId: string; email: string }, demo: DemoPayroll) {
  const existing = await change.trx.selectFrom('employees').select('id').where('org_id', '=', orgId).limit(1).executeTakeFirst();
  if (!existing) await createPayroll(change, sepa, orgId, agent, demo);
  return payrollCounts(change.trx, orgId);
}

/** How many employees, contracts, payslips and transfers the organization has. */
export async function payrollCounts(db: Database, orgId: string) {
  const count = async (table: 'employees' | 'contracts' | 'payslips' | 'transfers') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('org_id', '=', orgId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { employees: await count('employees'), contracts: await count('contracts'), payslips: await count('payslips'), transfers: await count('transfers') };
}

async function createPayroll(change: Change, sepa: SepaContext, orgId: string, agent: { userId: string; email: string }, demo: DemoPayroll) {
  const actor = { caller: agent, orgId };
  const employees = [];
  for (const employee of demo.employees) employees.push(await insertNewEmployee(change, actor, employee));
  const contracts: string[] = [];
  for (const { employee, afterwards, ...contract } of demo.contracts) {
    const id = await insertNewContract(change, actor, { ...contract, employee_id: employees[employee]!.id });
    contracts.push(id);
    if (afterwards === 'submit' || afterwards === 'submit-cancel') await applyStatusChange(change, actor, id, statusAfterSubmit, 'contract.submitted');
    if (afterwards === 'cancel' || afterwards === 'submit-cancel') await applyStatusChange(change, actor, id, statusAfterCancel, 'contract.cancelled');
  }
  if (demo.delegatesSalaries) await change.trx.updateTable('organizations').set({ virements_salaires: 'Odentas' }).where('id', '=', orgId).execute();
  const payslips: string[] = [];
  for (const { employee, contracts: paid = [], ...payslip } of demo.payslips ?? []) {
    payslips.push(
      await insertNewPayslip(change, agent, { ...payslip, org_id: orgId, employee_id: employees[employee]!.id, contract_ids: paid.map((i) => contracts[i]!) }),
    );
  }
  const today = todayInFrance();
  if (demo.transfer?.length) {
    const paid = await insertNewTransfer(
      change,
      agent,
      demo.transfer.map((i) => payslips[i]!),
      today,
      sepa,
    );
    await markExecutedInChange(change, sepa, agent, paid);
  }
  if (demo.pendingTransfer?.length)
    await insertNewTransfer(
      change,
      agent,
      demo.pendingTransfer.map((i) => payslips[i]!),
      addDays(today, 7),
      sepa,
    );
}
