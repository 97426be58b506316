/**
 * Bulletins of payslips the engine computes, for the bulletin's tests and for looking at its
 * pages: an intermittent artist with five dates, a cadre technician paid by the hour and the
 * service, a permanent employee on a CDI. January 2027: its last working day is Friday the 29th.
 */
import assert from 'node:assert/strict';
import type { BulletinData } from '../../src/payroll/bulletin.pdf.ts';
import { computePayslip, type ComputedPayslip } from '../../src/payroll/compute.ts';
import type { PayrollModel } from '../../src/payroll/model.ts';
import { monthPay, situationFor, type PayrollContract, type PayrollEmployee, type PayrollOrg } from '../../src/payroll/situation.ts';

export const PERIOD = '2027-01';
const ORG: PayrollOrg = { effectif: 3, convention: 'SVP', categorie_juridique: 'association', taux_at: null };
export const EMPLOYER: BulletinData['employer'] = {
  name: 'Compagnie du Soleil',
  siret: '12345678900017',
  address_line: '12 rue de l’Éclair',
  postcode: '75011',
  city: 'Paris',
  ape_code: '9001Z',
  urssaf: 'Urssaf Île-de-France',
  convention: 'SVP',
};

type DateRow = { date: string; nature: 'representation' | 'repetition' | 'service' | 'heures'; quantity: string; amount: string };

export const ARTIST_DATES: DateRow[] = [
  // As the database gives them (numeric(…,3)): the bulletin prints "1", not "1,000".
  { date: '2027-01-05', nature: 'repetition', quantity: '1.000', amount: '180.00' },
  { date: '2027-01-06', nature: 'repetition', quantity: '1.000', amount: '180.00' },
  { date: '2027-01-08', nature: 'representation', quantity: '1.000', amount: '260.00' },
  { date: '2027-01-09', nature: 'representation', quantity: '1', amount: '260.00' },
  { date: '2027-01-10', nature: 'representation', quantity: '1.000', amount: '260.00' },
];

export const TECHNICIAN_DATES: DateRow[] = [
  { date: '2027-01-12', nature: 'heures', quantity: '8.000', amount: '240.00' },
  { date: '2027-01-13', nature: 'heures', quantity: '7.500', amount: '225.00' },
  { date: '2027-01-14', nature: 'service', quantity: '1.000', amount: '210.00' },
];

function compute(model: PayrollModel, contract: PayrollContract, employee: PayrollEmployee): ComputedPayslip {
  const pay = monthPay(contract, PERIOD);
  assert.ok(!('skip' in pay), 'a payslip this month');
  return computePayslip(model, situationFor(PERIOD, ORG, employee, pay));
}

const noAddress = { address_line: null, postcode: null, city: null };
const dateFields = (dates: DateRow[]) => dates.map(({ date, nature, quantity }) => ({ date, nature, quantity }));

export function artistBulletin(model: PayrollModel, options: { draft?: boolean; dates?: DateRow[]; name?: [string, string] } = {}): BulletinData {
  const dates = options.dates ?? ARTIST_DATES;
  const start = dates[0]!.date;
  const end = dates.at(-1)!.date;
  const payslip = compute(
    model,
    { kind: 'CDDU', start_date: start, end_date: end, monthly_gross: null, dates },
    { category: 'artiste', cadre: false, pas_rate: null },
  );
  const [first_name, last_name] = options.name ?? ['Zoé', 'Lefèvre'];
  return {
    employer: EMPLOYER,
    employee: {
      first_name,
      last_name,
      address_line: '4 rue des Lilas',
      postcode: '75020',
      city: 'Paris',
      job_title: 'Comédienne',
      classification: 'Artiste interprète – groupe 2',
      category: 'artiste',
      cadre: false,
    },
    period: PERIOD,
    payment_date: options.draft ? '2027-01-29' : '2027-02-05',
    draft: options.draft ?? false,
    contract: { number: 'C-2027-000042', kind: 'CDDU', start_date: start, end_date: end, dates: dateFields(dates) },
    payslip,
    intermittent: true,
  };
}

export function technicianBulletin(model: PayrollModel, options: { draft?: boolean } = {}): BulletinData {
  const payslip = compute(
    model,
    { kind: 'CDDU', start_date: '2027-01-12', end_date: '2027-01-14', monthly_gross: null, dates: TECHNICIAN_DATES },
    { category: 'technicien', cadre: true, pas_rate: '4.30' },
  );
  return {
    employer: EMPLOYER,
    employee: {
      first_name: 'Marc',
      last_name: 'Dupont',
      ...noAddress,
      job_title: 'Régisseur général',
      classification: 'Cadre – groupe 4',
      category: 'technicien',
      cadre: true,
    },
    period: PERIOD,
    payment_date: '2027-01-29',
    draft: options.draft ?? false,
    contract: { number: 'C-2027-000051', kind: 'CDDU', start_date: '2027-01-12', end_date: '2027-01-14', dates: dateFields(TECHNICIAN_DATES) },
    payslip,
    intermittent: true,
  };
}

export function cdiBulletin(model: PayrollModel, options: { draft?: boolean } = {}): BulletinData {
  const payslip = compute(
    model,
    { kind: 'CDI', start_date: '2025-09-01', end_date: null, monthly_gross: '2850.00', dates: [] },
    { category: 'permanent', cadre: false, pas_rate: '7.50' },
  );
  return {
    employer: { ...EMPLOYER, ape_code: null, urssaf: null, address_line: null, postcode: null, city: null },
    employee: {
      first_name: 'Léa',
      last_name: 'Martin',
      address_line: '8 avenue Jean Jaurès',
      postcode: '69007',
      city: 'Lyon',
      job_title: 'Administratrice de production',
      classification: 'Niveau 3 – échelon 2',
      category: 'permanent',
      cadre: false,
    },
    period: PERIOD,
    payment_date: '2027-01-29',
    draft: options.draft ?? false,
    contract: { number: 'C-2025-000007', kind: 'CDI', start_date: '2025-09-01', end_date: null, dates: [] },
    payslip,
    intermittent: false,
  };
}
