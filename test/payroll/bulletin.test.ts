/**
 * The bulletin clarifié (PAYROLL 5) of payslips the engine computes: what a reader finds in the
 * PDF (unpdf), for a CDDU artist and a CDI. The engine is built once for the file (~1.5 s).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatEuros } from '../../src/format/french.ts';
import { bulletinDocument, type BulletinData } from '../../src/payroll/bulletin.pdf.ts';
import { computePayslip, type ComputedPayslip } from '../../src/payroll/compute.ts';
import { HEADINGS } from '../../src/payroll/contribution-lines.ts';
import { evaluatingModel, type PayrollModel } from '../../src/payroll/model.ts';
import { monthPay, situationFor, type PayrollContract, type PayrollEmployee, type PayrollOrg } from '../../src/payroll/situation.ts';
import { closeRenderers, renderPdf } from '../../src/pdf/render.ts';
import { pdfText } from '../support/documents.ts';

const PERIOD = '2026-03';
const ORG: PayrollOrg = { effectif: 3, convention: 'SVP', categorie_juridique: 'association', taux_at: null };
const EMPLOYER: BulletinData['employer'] = { name: 'Compagnie du Soleil', siret: '12345678900017', address: '12 rue de l’Éclair, 75011 Paris', convention: 'SVP' };
const KEEP = 'Dans votre intérêt et pour vous aider à faire valoir vos droits, conservez ce bulletin de paie sans limitation de durée.';
const CONGES = 'Congés payés : Caisse des Congés Spectacles';

const ARTIST_DATES = [
  // As the database gives them (numeric(…,3)): the bulletin prints "1", not "1,000".
  { date: '2026-03-02', nature: 'repetition', quantity: '1.000', amount: '180.00' },
  { date: '2026-03-06', nature: 'representation', quantity: '1.000', amount: '260.00' },
  { date: '2026-03-07', nature: 'representation', quantity: '1', amount: '260.00' },
] as const;

let model: PayrollModel;
before(() => {
  model = evaluatingModel();
});

function compute(contract: PayrollContract, employee: PayrollEmployee): ComputedPayslip {
  const pay = monthPay(contract, PERIOD);
  assert.ok(!('skip' in pay), 'a payslip this month');
  return computePayslip(model, situationFor(PERIOD, ORG, employee, pay));
}

function artistBulletin(): BulletinData {
  const payslip = compute(
    { kind: 'CDDU', start_date: '2026-03-02', end_date: '2026-03-07', monthly_gross: null, dates: ARTIST_DATES },
    { category: 'artiste', cadre: false, pas_rate: null },
  );
  return {
    employer: EMPLOYER,
    employee: { first_name: 'Zoé', last_name: 'Lefèvre', job_title: 'Comédienne', category: 'artiste', cadre: false },
    period: PERIOD,
    payment_date: '2026-03-31',
    contract: { number: 'C-2026-000042', kind: 'CDDU', dates: ARTIST_DATES.map(({ date, nature, quantity }) => ({ date, nature, quantity })) },
    payslip,
    intermittent: true,
  };
}

function cdiBulletin(): BulletinData {
  const payslip = compute(
    { kind: 'CDI', start_date: '2025-09-01', end_date: null, monthly_gross: '2850.00', dates: [] },
    { category: 'permanent', cadre: true, pas_rate: '7.50' },
  );
  return {
    employer: { ...EMPLOYER, address: null },
    employee: { first_name: 'Marc', last_name: 'Durand', job_title: 'Administrateur de production', category: 'permanent', cadre: true },
    period: PERIOD,
    payment_date: '2026-03-31',
    contract: { number: 'C-2025-000007', kind: 'CDI', dates: [] },
    payslip,
    intermittent: false,
  };
}

/** The headings of `HEADINGS` that the payslip has lines under, in that order. */
const headingsOf = (payslip: ComputedPayslip) => HEADINGS.filter((name) => payslip.lines.some((line) => line.heading === name));

function assertIncludes(text: string, expected: readonly string[]): void {
  for (const wanted of expected) assert.ok(text.includes(wanted), `"${wanted}" in:\n${text}`);
}

/** French amounts read back with one plain space where the PDF has no-break spaces. */
const euros = (amount: Parameters<typeof formatEuros>[0]) => formatEuros(amount).replace(/\s+/g, ' ');

after(() => closeRenderers());

describe('bulletinDocument', () => {
  it("should print a CDDU artist's bulletin: employer, employee, dates, every heading with lines, the totals and the mentions", async () => {
    const data = artistBulletin();
    const { payslip } = data;
    const text = await pdfText(await renderPdf(bulletinDocument(data)));

    assertIncludes(text, [
      'Bulletin de paie', 'mars 2026',
      'Compagnie du Soleil', 'SIRET : 12345678900017', '12 rue de l’Éclair, 75011 Paris',
      'Convention collective : Spectacle vivant privé (IDCC 3090)',
      'Zoé Lefèvre', 'Emploi : Comédienne', 'Catégorie : Artiste', 'Non cadre',
      'PÉRIODE mars 2026', 'Date de paiement : 31/03/2026', 'Contrat N° C-2026-000042', "CDDU (durée déterminée d'usage)",
      'Taux salarial', 'Part salariale', 'Taux patronal', 'Part patronale',
      `Salaire brut ${euros(payslip.gross)}`,
      'Total des cotisations et contributions',
      `Net à payer avant impôt sur le revenu ${euros(payslip.net_before_tax)}`,
      'Impôt sur le revenu prélevé à la source',
      `Net payé ${euros(payslip.net_to_pay)}`,
      `Montant net social ${euros(payslip.net_social)}`,
      `Coût total pour l'employeur ${euros(payslip.employer_cost)}`,
      CONGES,
      KEEP,
    ]);
    assert.equal(payslip.gross, '700.00', 'the three dates of March');
    // The dates table, row by row: date, nature, quantity.
    assert.match(text, /02\/03\/2026 Répétition 1 06\/03\/2026 Représentation 1 07\/03\/2026 Représentation 1/);
    // The two totals side by side, and the withholding's base, rate and amount on one row.
    assertIncludes(text, [
      `Total des cotisations et contributions ${euros(payslip.employee_contributions)} ${euros(payslip.employer_contributions)}`,
      `Impôt sur le revenu prélevé à la source ${euros(payslip.net_taxable)} 0 % ${euros(payslip.pas_amount)}`,
    ]);

    // Every heading that has lines, in HEADINGS' order, each followed by its first line.
    const headings = headingsOf(payslip);
    assert.ok(headings.length >= 5, `headings: ${headings.join(', ')}`);
    let from = 0;
    for (const name of headings) {
      const at = text.indexOf(name, from);
      assert.ok(at >= 0, `"${name}" after position ${from} in:\n${text}`);
      from = at + name.length;
    }
    for (const line of payslip.lines) assert.ok(text.includes(line.label), `line "${line.label}"`);
    for (const name of HEADINGS.filter((h) => !headings.includes(h))) {
      assert.ok(!text.includes(name), `"${name}" has no line: it is left out`);
    }
  });

  it("should print a CDI's bulletin: no dates table, the withholding rate, and no Congés Spectacles", async () => {
    const data = cdiBulletin();
    const { payslip } = data;
    const text = await pdfText(await renderPdf(bulletinDocument(data)));

    assertIncludes(text, [
      'Bulletin de paie', 'mars 2026', 'SIRET : 12345678900017',
      'Marc Durand', 'Catégorie : Personnel permanent', 'Cadre',
      'C-2025-000007', 'CDI (durée indéterminée)',
      `Salaire brut ${euros(payslip.gross)}`,
      `Net à payer avant impôt sur le revenu ${euros(payslip.net_before_tax)}`,
      `Impôt sur le revenu prélevé à la source ${euros(payslip.net_taxable)} 7,5 % ${euros(payslip.pas_amount)}`,
      `Net payé ${euros(payslip.net_to_pay)}`,
      `Montant net social ${euros(payslip.net_social)}`,
      `Coût total pour l'employeur ${euros(payslip.employer_cost)}`,
      KEEP,
    ]);
    assert.equal(payslip.gross, '2850.00');
    for (const name of headingsOf(payslip)) assert.ok(text.includes(name), `"${name}"`);
    assert.ok(!text.includes('Congés Spectacles'), 'a CDI is no intermittent');
    assert.ok(!text.includes('Non cadre'));
    assert.ok(!text.includes('Date travaillée'), 'no dates table');
    assert.match(text, /Page 1 \/ 1/, 'a CDI keeps to one page');
    assert.ok(!text.includes('12 rue de l’Éclair'), 'an unknown address is left out');
  });

  it('should show a rate French-style and leave a cell empty when there is no rate or no amount', () => {
    const data = cdiBulletin();
    const doc = JSON.stringify(bulletinDocument(data));
    const line = data.payslip.lines.find((l) => l.employee_rate !== null && l.employee_amount !== '0.00');
    assert.ok(line, 'a line with an employee rate');
    assert.ok(doc.includes(JSON.stringify(`${line.employee_rate!.replace('.', ',')}\u00a0%`)));
    assert.ok(!doc.includes(JSON.stringify({ text: '0,00\u00a0€' }).slice(1, -1)), 'no 0,00 € cell');
    // A line without an employee share (employer only) has empty employee cells.
    const employerOnly = data.payslip.lines.find((l) => l.employee_amount === '0.00');
    assert.ok(employerOnly, 'an employer-only line');
    const row = (bulletinDocument(data).content as unknown[]).flatMap((block) => {
      const body = (block as { table?: { body: Array<Array<{ text?: string }>> } }).table?.body ?? [];
      return body.filter((cells) => cells[0]?.text === employerOnly.label).map((cells) => cells.map((cell) => cell.text));
    })[0];
    assert.deepEqual(row?.slice(2, 4), ['', '']);
  });
});
