/** A small French contract-like document built from the shared blocks (tests, measurements). */
import { formatDateFr, formatEuros } from '../../src/format/french.ts';
import { moneyFromDb, sumMoney } from '../../src/money/money.ts';
import { a4Document, dataTable, documentTitle, fieldsBlock, heading, partiesBlock, signatureBlocks, totalsBlock } from '../../src/pdf/blocks.ts';
import type { PdfDocument } from '../../src/pdf/document.ts';

export const SAMPLE_DATES = [
  ['2027-03-10', 'Répétition', '1', '234.50'],
  ['2027-03-12', 'Représentation', '1', '1000.00'],
] as const;

export function sampleDocument(): PdfDocument {
  const total = sumMoney(SAMPLE_DATES.map(([, , , amount]) => moneyFromDb(amount)));
  return a4Document({
    title: 'Contrat C-2027-000012',
    author: 'Théâtre du Soleil',
    pageFooter: 'Payroll, opérateur de paie — contrat C-2027-000012',
    content: [
      ...documentTitle('Contrat de travail à durée déterminée d’usage', 'N° C-2027-000012'),
      partiesBlock([
        { role: 'Employeur', name: 'Théâtre du Soleil', lines: ['Code employeur : TDS001', '12 rue de l’Éclair, 75011 Paris'] },
        { role: 'Salarié', name: 'Zoé Lefèvre', lines: ['née le 02/05/1990'] },
      ]),
      fieldsBlock([
        ['Emploi', 'Comédienne'],
        ['Objet', '« Les Fourberies de Scapin » — création'],
        ['IDCC', '1285'],
        ['Période', `du ${formatDateFr('2027-03-10')} au ${formatDateFr('2027-03-12')}`],
        ['Vide', ''],
      ]),
      heading('Salaires par date'),
      dataTable(
        [
          { header: 'Date', width: 80 },
          { header: 'Nature', width: '*' },
          { header: 'Quantité', width: 60, alignment: 'right' },
          { header: 'Montant', width: 90, alignment: 'right' },
        ],
        SAMPLE_DATES.map(([date, nature, quantity, amount]) => [formatDateFr(date), nature, quantity, formatEuros(moneyFromDb(amount))]),
      ),
      totalsBlock([['Total brut', formatEuros(total)]]),
      ...signatureBlocks('Paris', formatDateFr('2027-03-01'), ['L’employeur', 'La salariée']),
    ],
  });
}
