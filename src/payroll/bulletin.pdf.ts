/**
 * The payslip as a French PDF, the "bulletin clarifié" (PAYROLL 5): employer, employee, period,
 * payment date and contract, a CDDU's dates, the gross, the contributions under the headings of
 * `HEADINGS` (only those with lines) with their bases, rates and both shares, the totals, the
 * withholding tax (base, rate, amount), the net paid, the net social amount, the employer's cost,
 * the Congés Spectacles mention for an intermittent and the sentence every bulletin ends with.
 * A pure function of the computed payslip: the figures are printed as `computePayslip` made
 * them (they already add up to the cent), never recomputed here. `renderPdf` lays it out.
 */
import type { ContentTable, TableCell } from 'pdfmake/interfaces.js';
import { CONTRACT_KIND_LABELS, DATE_NATURE_LABELS } from '../contracts/contract.labels.ts';
import { formatDateFr, formatDecimalFr, formatEuros, formatPeriodFr, formatRateFr, ofFr } from '../format/french.ts';
import type { Money } from '../money/money.ts';
import { a4Document, dataTable, type Column, documentTitle, partiesBlock } from '../pdf/blocks.ts';
import type { PdfDocument } from '../pdf/document.ts';
import type { ComputedPayslip, PayslipLine } from './compute.ts';
import { HEADINGS } from './contribution-lines.ts';
import {
  CONGES_SPECTACLES_MENTION, CONVENTION_LABELS, EMPLOYEE_CATEGORY_LABELS, KEEP_THIS_BULLETIN, cadreLabel,
} from './payroll.labels.ts';
import type { Convention, EmployeeCategory } from './situation.ts';

export interface BulletinData {
  employer: { name: string; siret: string | null; address: string | null; convention: Convention };
  employee: { first_name: string; last_name: string; job_title: string | null; category: EmployeeCategory | null; cadre: boolean };
  /** `YYYY-MM`. */
  period: string;
  /** `YYYY-MM-DD`. */
  payment_date: string;
  /** `dates`: a CDDU's dates in the period (none for a CDI). */
  contract: {
    number: string;
    kind: 'CDDU' | 'CDI';
    dates: Array<{ date: string; nature: 'representation' | 'repetition' | 'service' | 'heures'; quantity: string }>;
  };
  payslip: ComputedPayslip;
  /** A CDDU (intermittent du spectacle): the bulletin carries the Congés Spectacles mention. */
  intermittent: boolean;
}

const ZERO = '0.00';

/** An amount, or an empty cell for 0.00 (a share the line does not have). */
const amountCell = (amount: Money): string => (amount === ZERO ? '' : formatEuros(amount));

/** A rate, or an empty cell when the model gives none or its share is 0.00. */
const rateCell = (rate: string | null, amount: Money): string => (rate === null || amount === ZERO ? '' : formatRateFr(rate));

function lineRow(line: PayslipLine): string[] {
  return [
    line.label,
    amountCell(line.base),
    rateCell(line.employee_rate, line.employee_amount),
    amountCell(line.employee_amount),
    rateCell(line.employer_rate, line.employer_amount),
    amountCell(line.employer_amount),
  ];
}

const CONTRIBUTION_COLUMNS: readonly Column[] = [
  { header: 'Désignation', width: '*' },
  { header: 'Base', width: 56, alignment: 'right' },
  { header: 'Taux salarial', width: 38, alignment: 'right' },
  { header: 'Part salariale', width: 52, alignment: 'right' },
  { header: 'Taux patronal', width: 38, alignment: 'right' },
  { header: 'Part patronale', width: 52, alignment: 'right' },
];

/**
 * One table (`dataTable`): the gross, then each heading of `HEADINGS` that has lines followed by
 * its lines, then the two totals. The gross, headings and totals rows are set apart after the
 * fact: a heading row spans the table, the gross and the totals are bold.
 */
function contributionsTable(payslip: ComputedPayslip): ContentTable {
  const rows: string[][] = [['Salaire brut', formatEuros(payslip.gross), '', '', '', '']];
  const headingRows = new Set<number>();
  for (const name of HEADINGS) {
    const lines = payslip.lines.filter((line) => line.heading === name);
    if (lines.length === 0) continue;
    headingRows.add(rows.length);
    rows.push([name, '', '', '', '', '']);
    rows.push(...lines.map(lineRow));
  }
  const totalRow = rows.length;
  rows.push([
    'Total des cotisations et contributions',
    '',
    '',
    formatEuros(payslip.employee_contributions),
    '',
    formatEuros(payslip.employer_contributions),
  ]);

  const table = dataTable(CONTRIBUTION_COLUMNS, rows);
  // Body row 0 is the header: row i of `rows` is body row i + 1.
  const body = table.table.body as TableCell[][];
  for (const i of headingRows) {
    body[i + 1] = [{ text: rows[i]![0]!, bold: true, colSpan: CONTRIBUTION_COLUMNS.length }, ...CONTRIBUTION_COLUMNS.slice(1).map(() => '')];
  }
  embolden(table, CONTRIBUTION_COLUMNS, rows, [0, totalRow]);
  // Smaller and tighter than the house's 10 pt: thirty-odd rows, and the bulletin fits a page.
  return { ...table, fontSize: 8, lineHeight: 1 };
}

const NET_COLUMNS: readonly Column[] = [
  { header: 'Net et impôt sur le revenu', width: '*' },
  { header: 'Base', width: 70, alignment: 'right' },
  { header: 'Taux', width: 45, alignment: 'right' },
  { header: 'Montant', width: 80, alignment: 'right' },
];

/** The nets in the order of the bulletin clarifié, the withholding with its base and rate, the employer's cost. */
function netTable(payslip: ComputedPayslip): ContentTable {
  const rows = [
    ['Net à payer avant impôt sur le revenu', '', '', formatEuros(payslip.net_before_tax)],
    ['Impôt sur le revenu prélevé à la source', formatEuros(payslip.net_taxable), formatRateFr(payslip.pas_rate), formatEuros(payslip.pas_amount)],
    ['Net payé', '', '', formatEuros(payslip.net_to_pay)],
    ['Montant net social', '', '', formatEuros(payslip.net_social)],
    ["Coût total pour l'employeur", '', '', formatEuros(payslip.employer_cost)],
  ];
  const table = dataTable(NET_COLUMNS, rows);
  embolden(table, NET_COLUMNS, rows, [0, 2]);
  return { ...table, fontSize: 9, lineHeight: 1 };
}

/** Sets rows of a `dataTable` in bold (row i of `rows` is body row i + 1, after the header). */
function embolden(table: ContentTable, columns: readonly Column[], rows: readonly string[][], indexes: readonly number[]): void {
  const body = table.table.body as TableCell[][];
  for (const i of indexes) {
    body[i + 1] = rows[i]!.map((text, c) => ({ text, bold: true, alignment: columns[c]?.alignment ?? 'left' }));
  }
}

export function bulletinDocument(data: BulletinData): PdfDocument {
  const { employer, employee, contract, payslip } = data;
  const employeeName = `${employee.first_name} ${employee.last_name}`;
  const period = formatPeriodFr(data.period);

  const dates =
    contract.kind === 'CDDU' && contract.dates.length > 0
      ? [
          {
            ...dataTable(
              [
                { header: 'Date travaillée', width: 80 },
                { header: 'Nature', width: '*' },
                { header: 'Quantité', width: 60, alignment: 'right' },
              ],
              contract.dates.map((d) => [formatDateFr(d.date), DATE_NATURE_LABELS[d.nature], formatDecimalFr(d.quantity)]),
            ),
            fontSize: 8,
            lineHeight: 1,
            margin: [0, 0, 0, 12] as [number, number, number, number],
          },
        ]
      : [];

  return a4Document({
    title: `Bulletin de paie ${period} · ${employeeName}`,
    author: employer.name,
    pageFooter: `Bulletin de paie ${ofFr(period)} · ${employer.name} · ${employeeName}`,
    content: [
      ...documentTitle('Bulletin de paie', period),
      // The period, its payment and the contract as a third column beside the parties: with the
      // dates and thirty-odd rows of contributions, the bulletin keeps to one page.
      partiesBlock([
        {
          role: 'Employeur',
          name: employer.name,
          lines: [
            employer.address ?? '',
            employer.siret ? `SIRET : ${employer.siret}` : '',
            `Convention collective : ${CONVENTION_LABELS[employer.convention]}`,
          ],
        },
        {
          role: 'Salarié(e)',
          name: employeeName,
          lines: [
            employee.job_title ? `Emploi : ${employee.job_title}` : '',
            employee.category ? `Catégorie : ${EMPLOYEE_CATEGORY_LABELS[employee.category]}` : '',
            cadreLabel(employee.cadre),
          ],
        },
        {
          role: 'Période',
          name: period,
          lines: [
            `Date de paiement : ${formatDateFr(data.payment_date)}`,
            `Contrat N° ${contract.number}`,
            CONTRACT_KIND_LABELS[contract.kind],
          ],
        },
      ]),
      ...dates,
      contributionsTable(payslip),
      {
        // The nets, the withholding, the costs and the mentions kept together: a long CDDU
        // carries them to the next page whole, never split.
        unbreakable: true,
        margin: [0, 10, 0, 0],
        stack: [
          netTable(payslip),
          ...(data.intermittent ? [{ text: CONGES_SPECTACLES_MENTION, fontSize: 9, margin: [0, 6, 0, 0] as [number, number, number, number] }] : []),
          { text: KEEP_THIS_BULLETIN, style: 'small', margin: [0, 10, 0, 0] },
        ],
      },
    ],
  });
}

