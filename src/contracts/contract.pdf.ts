/**
 * The contract as a French PDF document: title by kind, the parties (employer name
 * and `structure_api`, employee), emploi, objet, IDCC, period, the salaries by date (nature,
 * quantity, amount) or the monthly gross, the total, and the signature blocks. A pure function
 * of the contract: `renderPdf` (src/pdf) lays it out.
 */
import type { ContractKind } from '../db/schema.ts';
import { EMPLOYEE_CATEGORY_LABELS } from '../employees/employee.labels.ts';
import { formatDateFr, formatDecimalFr, formatEuros } from '../format/french.ts';
import { labelOf } from '../format/labels.ts';
import type { Money } from '../money/money.ts';
import { a4Document, dataTable, documentTitle, fieldsBlock, heading, partiesBlock, signatureBlocks, totalsBlock } from '../pdf/blocks.ts';
import type { PdfDocument } from '../pdf/document.ts';
import { DATE_NATURE_LABELS } from './contract.labels.ts';
import type { ContractDate, ContractFields } from './contract.rules.ts';

export const CONTRACT_TITLES: Record<ContractKind, string> = {
  CDDU: "Contrat de travail à durée déterminée d'usage",
  CDD: 'Contrat de travail à durée déterminée',
  CDI: 'Contrat de travail à durée indéterminée',
};

/** Why the contract is of its kind (Code du travail), as the document states it. */
const LEGAL_BASIS: Record<ContractKind, string> = {
  CDDU: "Contrat conclu en application des articles L. 1242-2 3° et D. 1242-1 du Code du travail, pour un emploi du spectacle pour lequel il est d'usage constant de ne pas recourir au contrat à durée indéterminée.",
  CDD: 'Contrat conclu en application de l’article L. 1242-2 du Code du travail, pour la durée indiquée ci-dessous.',
  CDI: 'Contrat conclu pour une durée indéterminée.',
};

/** An avenant as the document states it: its number and day, the period before and after, the dates it added. */
export interface ContractAmendment {
  number: number;
  /** The day it was made ('YYYY-MM-DD', in France). */
  on: string;
  previous: { start_date: string; end_date: string | null };
  start_date: string;
  end_date: string | null;
  dates: readonly ContractDate[];
}

/** What the document shows: the contract's own fields (as `contract.rules.ts` defines them) and its parties. */
export interface ContractDocumentInput extends ContractFields {
  contract_number: string;
  gross_total: Money | null;
  dates: readonly ContractDate[];
  /** Its avenants, oldest first (none: no section). */
  amendments?: readonly ContractAmendment[];
  employer: { name: string; structure_api: string | null; siret: string | null };
  employee: { first_name: string; last_name: string; category: string | null };
  /** The day the document is made ('YYYY-MM-DD'). */
  issuedOn: string;
}

function periodOf(input: Pick<ContractDocumentInput, 'start_date' | 'end_date'>): string {
  return input.end_date === null
    ? `à compter du ${formatDateFr(input.start_date)}, pour une durée indéterminée`
    : `du ${formatDateFr(input.start_date)} au ${formatDateFr(input.end_date)} inclus`;
}

/** "Avenant n° 1 du 27/11/2026 : période portée du … au … inclus (auparavant du … au … inclus). Dates ajoutées : 09/12/2026 (Représentation, 180,00 €), …" */
export function amendmentText(a: ContractAmendment): string {
  const added =
    a.dates.length === 0
      ? 'Aucune date ajoutée.'
      : `Dates ajoutées : ${a.dates.map((d) => `${formatDateFr(d.date)} (${DATE_NATURE_LABELS[d.nature]}, ${formatEuros(d.amount)})`).join(', ')}.`;
  return `Avenant n° ${a.number} du ${formatDateFr(a.on)} : période portée ${periodOf(a)} (auparavant ${periodOf(a.previous)}). ${added}`;
}

export function contractDocument(input: ContractDocumentInput): PdfDocument {
  const title = CONTRACT_TITLES[input.kind];
  const employeeName = `${input.employee.first_name} ${input.employee.last_name}`;
  const remuneration =
    input.dates.length > 0
      ? [
          dataTable(
            [
              { header: 'Date', width: 70 },
              { header: 'Nature', width: '*' },
              { header: 'Quantité', width: 60, alignment: 'right' },
              { header: 'Montant brut', width: 90, alignment: 'right' },
            ],
            input.dates.map((d) => [formatDateFr(d.date), DATE_NATURE_LABELS[d.nature], formatDecimalFr(d.quantity), formatEuros(d.amount)]),
          ),
          totalsBlock([['Total brut', input.gross_total === null ? '' : formatEuros(input.gross_total)]]),
        ]
      : [fieldsBlock([['Salaire mensuel brut', input.monthly_gross === null ? 'à définir' : formatEuros(input.monthly_gross)]])];

  return a4Document({
    title: `${title} ${input.contract_number}`,
    author: input.employer.name,
    pageFooter: `${input.contract_number} · ${input.employer.name} · ${employeeName}`,
    content: [
      ...documentTitle(title, `N° ${input.contract_number}`),
      partiesBlock([
        {
          role: 'Employeur',
          name: input.employer.name,
          lines: [
            input.employer.structure_api ? `Code employeur : ${input.employer.structure_api}` : '',
            input.employer.siret ? `SIRET : ${input.employer.siret}` : '',
          ],
        },
        {
          role: 'Salarié(e)',
          name: employeeName,
          lines: [input.employee.category ? labelOf(EMPLOYEE_CATEGORY_LABELS, input.employee.category) : ''],
        },
      ]),
      { text: LEGAL_BASIS[input.kind], margin: [0, 0, 0, 6] },
      heading('Engagement'),
      fieldsBlock([
        ['Emploi', input.job_title ?? ''],
        ['Objet (spectacle)', input.show_title ?? ''],
        ['Convention collective', input.idcc ? `IDCC ${input.idcc}` : ''],
        ['Période', periodOf(input)],
      ]),
      heading('Rémunération'),
      ...remuneration,
      ...(input.amendments?.length
        ? [heading('Avenants'), ...input.amendments.map((a) => ({ text: amendmentText(a), margin: [0, 0, 0, 6] as [number, number, number, number] }))]
        : []),
      signatureBlocks('……………………', formatDateFr(input.issuedOn), ["L'employeur", 'Le salarié']),
    ],
  });
}
