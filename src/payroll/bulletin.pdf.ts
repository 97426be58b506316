/**
 * The payslip as a French PDF, the "bulletin clarifié" (Code du travail, R3243-1), in its order:
 * the employer (name, address, SIRET, APE code, URSSAF, collective agreement and IDCC), the
 * employee (name, address, emploi, classification, category, cadre or not), the period, the
 * payment date, the work paid (cachets, services, hours), the contract and its dates; the gross,
 * the contributions under the headings of `HEADINGS` (only those with lines, each printed once)
 * with their bases, rates and both shares; then, kept on one page, the totals, the withholding
 * tax (base, rate, amount), the net paid, the net social amount, the employer's cost, the Congés
 * Spectacles mention for an intermittent and the sentence every bulletin ends with. A draft's
 * bulletin carries "BROUILLON" across every page.
 * A pure function of the computed payslip: the figures are printed as `computePayslip` made
 * them (they already add up to the cent), never recomputed here. `renderPdf` lays it out.
 */
import type { Content, ContentTable, TableCell } from 'pdfmake/interfaces.js';
import { CONTRACT_KIND_LABELS, DATE_NATURE_LABELS } from '../contracts/contract.labels.ts';
import { periodBounds } from '../format/calendar.ts';
import { EMPLOYEE_CATEGORY_LABELS } from '../employees/employee.labels.ts';
import { formatDateFr, formatDecimalFr, formatEuros, formatPeriodFr, NBSP, ofFr } from '../format/french.ts';
import type { Money } from '../money/money.ts';
import { a4Document, dataTable, type Column, partiesBlock } from '../pdf/blocks.ts';
import type { PdfDocument } from '../pdf/document.ts';
import type { ComputedPayslip, PayslipLine } from './compute.ts';
import { HEADINGS } from './contribution-lines.ts';
import {
  COMPLEMENT_TITLE,
  CONGES_SPECTACLES_MENTION,
  DRAFT_WATERMARK,
  complementLine,
  KEEP_THIS_BULLETIN,
  WORK_UNITS,
  cadreLabel,
  conventionLine,
} from './payroll.labels.ts';
import type { Convention, EmployeeCategory } from './situation.ts';

type DateNature = 'representation' | 'repetition' | 'service' | 'heures';

export interface PostalAddress {
  address_line: string | null;
  postcode: string | null;
  city: string | null;
}

export interface BulletinData {
  employer: PostalAddress & { name: string; siret: string | null; ape_code: string | null; urssaf: string | null; convention: Convention };
  employee: PostalAddress & {
    first_name: string;
    last_name: string;
    job_title: string | null;
    classification: string | null;
    category: EmployeeCategory | null;
    cadre: boolean;
  };
  /** `YYYY-MM`. */
  period: string;
  /** `YYYY-MM-DD`: the day chosen at validation; a draft's is the default it would get. */
  payment_date: string;
  /** A draft (not validated): watermarked, its payment date only foreseen. */
  draft: boolean;
  /** A complementary payslip: titled so, naming the original it completes. */
  complement?: { original_payment_date: string | null; original_net_to_pay: Money } | null;
  /** `dates`: a CDDU's dates in the period (none for a CDI). */
  contract: {
    number: string;
    kind: 'CDDU' | 'CDI';
    start_date: string;
    end_date: string | null;
    dates: Array<{ date: string; nature: DateNature; quantity: string }>;
  };
  payslip: ComputedPayslip;
  /** A CDDU (intermittent du spectacle): the bulletin carries the Congés Spectacles mention. */
  intermittent: boolean;
}

const ZERO = '0.00';

/** A rate as a payslip writes it, two decimals at least: `"6.9"` → `"6,90 %"`, `"0.315"` → `"0,315 %"`. */
export function formatBulletinRate(rate: string): string {
  const [whole = '0', decimals = ''] = formatDecimalFr(rate).split(',');
  return `${whole},${decimals.padEnd(2, '0')}${NBSP}%`;
}

/** An amount, or an empty cell for 0.00 (a share the line does not have). */
const amountCell = (amount: Money): string => (amount === ZERO ? '' : formatEuros(amount));

/** The rate the line carries; empty when it has none, or a nil rate for a nil share. */
const rateCell = (rate: string | null, amount: Money): string => (rate === null || (amount === ZERO && Number(rate) === 0) ? '' : formatBulletinRate(rate));

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
  { header: 'Taux salarial', width: 40, alignment: 'right' },
  { header: 'Part salariale', width: 52, alignment: 'right' },
  { header: 'Taux patronal', width: 40, alignment: 'right' },
  { header: 'Part patronale', width: 52, alignment: 'right' },
];

/**
 * One table (`dataTable`): the gross, then each heading of `HEADINGS` that has lines followed by
 * its lines. A heading whose one line bears its own name (AT/MP: one contribution, named as its
 * heading) is one row, the heading with the line's figures: printed twice, it read as two
 * contributions. Heading rows are bold and span the table when they carry no figure.
 */
function contributionsTable(payslip: ComputedPayslip): ContentTable {
  const rows: string[][] = [['Salaire brut', formatEuros(payslip.gross), '', '', '', '']];
  const spanning = new Set<number>();
  const bold = new Set<number>([0]);
  for (const name of HEADINGS) {
    const lines = payslip.lines.filter((line) => line.heading === name);
    if (lines.length === 0) continue;
    if (lines.length === 1 && lines[0]!.label === name) {
      bold.add(rows.length);
      rows.push(lineRow(lines[0]!));
      continue;
    }
    spanning.add(rows.length);
    rows.push([name, '', '', '', '', '']);
    rows.push(...lines.map(lineRow));
  }
  const table = dataTable(CONTRIBUTION_COLUMNS, rows);
  embolden(table, CONTRIBUTION_COLUMNS, rows, [...bold]);
  // Body row 0 is the header: row i of `rows` is body row i + 1.
  const body = table.table.body as TableCell[][];
  for (const i of spanning) {
    body[i + 1] = [{ text: rows[i]![0]!, bold: true, colSpan: CONTRIBUTION_COLUMNS.length }, ...CONTRIBUTION_COLUMNS.slice(1).map(() => '')];
  }
  // Smaller and tighter than the house's 10 pt: thirty-odd rows, and the bulletin fits a page.
  return { ...table, layout: 'payrollCompact', fontSize: 8, lineHeight: 1 };
}

/** The two contribution totals, in the columns of the contributions table. */
function totalTable(payslip: ComputedPayslip): Content {
  return {
    layout: 'payrollCompact',
    fontSize: 8,
    lineHeight: 1,
    table: {
      widths: CONTRIBUTION_COLUMNS.map((column) => column.width),
      body: [
        [
          { text: 'Total des cotisations et contributions', bold: true },
          '',
          '',
          { text: formatEuros(payslip.employee_contributions), bold: true, alignment: 'right' },
          '',
          { text: formatEuros(payslip.employer_contributions), bold: true, alignment: 'right' },
        ],
      ],
    },
  };
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
    ['Impôt sur le revenu prélevé à la source', formatEuros(payslip.net_taxable), formatBulletinRate(payslip.pas_rate), formatEuros(payslip.pas_amount)],
    ['Net payé', '', '', formatEuros(payslip.net_to_pay)],
    ['Montant net social', '', '', formatEuros(payslip.net_social)],
    ["Coût total pour l'employeur", '', '', formatEuros(payslip.employer_cost)],
  ];
  const table = dataTable(NET_COLUMNS, rows);
  embolden(table, NET_COLUMNS, rows, [0, 2]);
  const body = table.table.body as TableCell[][];
  // The net paid stands out: the one figure the employee looks for.
  body[3] = rows[2]!.map((text, c) => ({ text, bold: true, fontSize: 10, fillColor: '#eef1f4', alignment: NET_COLUMNS[c]?.alignment ?? 'left' }));
  return { ...table, layout: 'payrollCompact', fontSize: 8.5, lineHeight: 1 };
}

/** Sets rows of a `dataTable` in bold (row i of `rows` is body row i + 1, after the header). */
function embolden(table: ContentTable, columns: readonly Column[], rows: readonly string[][], indexes: readonly number[]): void {
  const body = table.table.body as TableCell[][];
  for (const i of indexes) {
    body[i + 1] = rows[i]!.map((text, c) => ({ text, bold: true, alignment: columns[c]?.alignment ?? 'left' }));
  }
}

/** A postal address as two lines (street; postcode and city), the parts known. */
function addressLines(address: PostalAddress): string[] {
  return [address.address_line ?? '', [address.postcode, address.city].filter(Boolean).join(' ')];
}

/** Thousandths, exactly: quantities are `numeric(…,3)` ("1.000", "7.5"). */
function thousandths(quantity: string): number {
  const [whole = '0', decimals = ''] = quantity.split('.');
  return Number(whole) * 1000 + Number(decimals.padEnd(3, '0').slice(0, 3));
}

/** "5 cachets, 15,5 heures": the dates' quantities summed by unit, in the order units first appear. */
export function workPaid(dates: BulletinData['contract']['dates']): string {
  const totals = new Map<string, { plural: string; total: number }>();
  for (const d of dates) {
    const [one, many] = WORK_UNITS[d.nature];
    const unit = totals.get(one) ?? { plural: many, total: 0 };
    unit.total += thousandths(d.quantity);
    totals.set(one, unit);
  }
  const decimal = (total: number) => `${Math.trunc(total / 1000)}.${String(total % 1000).padStart(3, '0')}`;
  return [...totals].map(([one, { plural, total }]) => `${formatDecimalFr(decimal(total))} ${total <= 1000 ? one : plural}`).join(', ');
}

/** A CDDU's dates ("du … au …"); a CDI's entry date, and its leaving date when it ends. */
function contractDates(contract: BulletinData['contract'], label: (name: string, value: string) => Content): Content[] {
  const { start_date: start, end_date: end } = contract;
  if (contract.kind === 'CDDU') return [label('Dates du contrat', `du ${formatDateFr(start)} au ${formatDateFr(end ?? start)}`)];
  return [label('Date d’entrée', formatDateFr(start)), ...(end ? [label('Date de sortie', formatDateFr(end))] : [])];
}

export function bulletinDocument(data: BulletinData): PdfDocument {
  const { employer, employee, contract, payslip } = data;
  const employeeName = `${employee.first_name} ${employee.last_name}`;
  const period = formatPeriodFr(data.period);
  const bounds = periodBounds(data.period);
  const periodDates = `du ${formatDateFr(bounds.first)} au ${formatDateFr(bounds.last)}`;
  const cddu = contract.kind === 'CDDU';

  const dates: Content | null =
    cddu && contract.dates.length > 0
      ? {
          ...dataTable(
            [
              { header: 'Date travaillée', width: 'auto' },
              { header: 'Nature', width: '*' },
              { header: 'Quantité', width: 'auto', alignment: 'right' },
            ],
            contract.dates.map((d) => [formatDateFr(d.date), DATE_NATURE_LABELS[d.nature], formatDecimalFr(d.quantity)]),
          ),
          layout: 'payrollCompact',
          fontSize: 8,
          lineHeight: 1,
        }
      : null;

  const label = (name: string, value: string): Content => ({ text: [{ text: `${name} : `, bold: true }, value], margin: [0, 0, 0, 2] });
  const heading = data.complement ? COMPLEMENT_TITLE : 'Bulletin de paie';
  return {
    ...a4Document({
      title: `${heading} ${period} · ${employeeName}`,
      author: employer.name,
      pageFooter: `${heading} ${ofFr(period)} · ${employer.name} · ${employeeName}`,
      content: [
        { text: heading, style: 'title', margin: [0, 0, 0, data.complement ? 4 : 10] },
        ...(data.complement ? [{ text: complementLine(period, data.complement), fontSize: 9, margin: [0, 0, 0, 10] } as Content] : []),
        {
          fontSize: 9,
          lineHeight: 1.3,
          stack: [
            partiesBlock([
              {
                role: 'Employeur',
                name: employer.name,
                lines: [
                  ...addressLines(employer),
                  employer.siret ? `SIRET : ${employer.siret}` : '',
                  employer.ape_code ? `Code APE : ${employer.ape_code}` : '',
                  employer.urssaf ? `URSSAF : ${employer.urssaf}` : '',
                  conventionLine(employer.convention),
                ],
              },
              {
                role: 'Salarié(e)',
                name: employeeName,
                lines: [
                  ...addressLines(employee),
                  employee.job_title ? `Emploi : ${employee.job_title}` : '',
                  employee.classification ? `Classification : ${employee.classification}` : '',
                  [employee.category ? `Catégorie : ${EMPLOYEE_CATEGORY_LABELS[employee.category]}` : '', cadreLabel(employee.cadre)]
                    .filter(Boolean)
                    .join(' · '),
                ],
              },
            ]),
          ],
        },
        {
          // The period, the payment, the work and the contract; a CDDU's dates beside them.
          columnGap: 20,
          margin: [0, 0, 0, 8],
          fontSize: 9,
          columns: [
            {
              width: '*',
              stack: [
                label('Période', `${period} (${periodDates})`),
                label('Date de paiement', data.draft ? `${formatDateFr(data.payment_date)} (prévue, fixée à la validation)` : formatDateFr(data.payment_date)),
                ...(cddu && contract.dates.length > 0 ? [label('Travail rémunéré', workPaid(contract.dates))] : []),
                label('Contrat', `N° ${contract.number}, ${CONTRACT_KIND_LABELS[contract.kind]}`),
                ...contractDates(contract, label),
              ],
            },
            dates ? { width: 220, stack: [dates] } : { width: 220, text: '' },
          ],
        },
        contributionsTable(payslip),
        {
          // The totals, the nets, the withholding, the costs and the mentions kept together: a long
          // CDDU carries them to the next page whole, never split.
          unbreakable: true,
          margin: [0, 6, 0, 0],
          stack: [
            totalTable(payslip),
            { ...netTable(payslip), margin: [0, 8, 0, 0] },
            ...(data.intermittent ? [{ text: CONGES_SPECTACLES_MENTION, fontSize: 9, margin: [0, 6, 0, 0] } as Content] : []),
            { text: KEEP_THIS_BULLETIN, style: 'small', margin: [0, 8, 0, 0] },
          ],
        },
      ],
    }),
    // The house's top margin, less: the bulletin keeps to one page.
    pageMargins: [50, 36, 50, 56],
    ...(data.draft ? { watermark: { text: DRAFT_WATERMARK, color: '#b42318', opacity: 0.12, bold: true, fontSize: 110, angle: -45 } } : {}),
  };
}
