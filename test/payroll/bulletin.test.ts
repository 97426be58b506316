/**
 * The bulletin clarifié (Code du travail, R3243-1) of payslips the engine computes: what a reader
 * finds in the PDF (unpdf), in the order of the model, for an intermittent artist, a cadre
 * technician and a CDI; "BROUILLON" on a draft's pages only; the totals on one page; names in
 * Japanese and Arabic drawn. Then through the API: the payment date chosen at validation (or its
 * default) printed on the stored bulletin, and the dates refused. The engine is built once (~1.5 s).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatEuros } from '../../src/format/french.ts';
import { lastWorkingDay } from '../../src/format/calendar.ts';
import { bulletinDocument, formatBulletinRate, workPaid } from '../../src/payroll/bulletin.pdf.ts';
import type { ComputedPayslip } from '../../src/payroll/compute.ts';
import { HEADINGS } from '../../src/payroll/contribution-lines.ts';
import { evaluatingModel, type PayrollModel } from '../../src/payroll/model.ts';
import { closeRenderers, renderPdf } from '../../src/pdf/render.ts';
import { pdfText } from '../support/documents.ts';
import { setup } from '../payslips/support.ts';
import { ARTIST_DATES, artistBulletin, cdiBulletin, technicianBulletin } from './bulletin-fixtures.ts';

const KEEP = 'Dans votre intérêt et pour vous aider à faire valoir vos droits, conservez ce bulletin de paie sans limitation de durée.';
const CONGES = 'Congés payés : Caisse des Congés Spectacles';
const TOTALS = [
  'Total des cotisations et contributions',
  'Net à payer avant impôt sur le revenu',
  'Impôt sur le revenu prélevé à la source',
  'Net payé',
  'Montant net social',
  "Coût total pour l'employeur",
];

let model: PayrollModel;
before(() => {
  model = evaluatingModel();
});
after(() => closeRenderers());

/** The headings of `HEADINGS` that the payslip has lines under, in that order. */
const headingsOf = (payslip: ComputedPayslip) => HEADINGS.filter((name) => payslip.lines.some((line) => line.heading === name));

/** French amounts read back with one plain space where the PDF has no-break spaces. */
const euros = (amount: Parameters<typeof formatEuros>[0]) => formatEuros(amount).replace(/\s+/g, ' ');

/** Each of `expected` found in `text`, each after the one before. */
function assertInOrder(text: string, expected: readonly string[]): void {
  let from = 0;
  for (const wanted of expected) {
    const at = text.indexOf(wanted, from);
    assert.ok(at >= 0, `"${wanted}" after position ${from} in:\n${text.slice(from)}\n--- whole:\n${text}`);
    from = at + wanted.length;
  }
}

const occurrences = (text: string, word: string) => text.split(word).length - 1;

/** The PDF's text page by page. */
async function pages(data: Parameters<typeof bulletinDocument>[0]): Promise<string[]> {
  return (await pdfText(await renderPdf(bulletinDocument(data)))).split('\n');
}

describe('bulletinDocument', () => {
  it("should print an intermittent artist's bulletin with every mention of the bulletin clarifié, in its order", async () => {
    const data = artistBulletin(model);
    const { payslip } = data;
    const text = (await pages(data)).join('\n');
    assert.equal(payslip.gross, '1140.00', 'the five dates of January');
    assertInOrder(text, [
      'Bulletin de paie',
      'EMPLOYEUR',
      'Compagnie du Soleil',
      '12 rue de l’Éclair',
      '75011 Paris',
      'SIRET : 12345678900017',
      'Code APE : 9001Z',
      'URSSAF : Urssaf Île-de-France',
      'Convention collective : Entreprises du secteur privé du spectacle vivant (IDCC 3090)',
      'SALARIÉ(E)',
      'Zoé Lefèvre',
      '4 rue des Lilas',
      '75020 Paris',
      'Emploi : Comédienne',
      'Classification : Artiste interprète – groupe 2',
      'Catégorie : Artiste · Non cadre',
      'Période : janvier 2027 (du 01/01/2027 au 31/01/2027)',
      'Date de paiement : 05/02/2027',
      'Travail rémunéré : 5 cachets',
      "Contrat : N° C-2027-000042, CDDU (durée déterminée d'usage)",
      'Dates du contrat : du 05/01/2027 au 10/01/2027',
      '05/01/2027 Répétition 1 06/01/2027 Répétition 1 08/01/2027 Représentation 1 09/01/2027 Représentation 1 10/01/2027 Représentation 1',
      'Taux salarial',
      'Part salariale',
      'Taux patronal',
      'Part patronale',
      `Salaire brut ${euros(payslip.gross)}`,
      ...headingsOf(payslip),
      `Total des cotisations et contributions ${euros(payslip.employee_contributions)} ${euros(payslip.employer_contributions)}`,
      `Net à payer avant impôt sur le revenu ${euros(payslip.net_before_tax)}`,
      `Impôt sur le revenu prélevé à la source ${euros(payslip.net_taxable)} 0,00 % ${euros(payslip.pas_amount)}`,
      `Net payé ${euros(payslip.net_to_pay)}`,
      `Montant net social ${euros(payslip.net_social)}`,
      `Coût total pour l'employeur ${euros(payslip.employer_cost)}`,
      CONGES,
      KEEP,
    ]);
    for (const line of payslip.lines) assert.ok(text.includes(line.label), `line "${line.label}"`);
    for (const name of HEADINGS.filter((h) => !headingsOf(payslip).includes(h))) assert.ok(!text.includes(name), `"${name}" has no line: left out`);
    assert.ok(!text.includes('BROUILLON'), 'a published bulletin is no draft');
    assert.match(text, /Page 1 \/ 1/, 'five dates keep to one page');
  });

  it('should print each heading once, AT/MP included (its one line bears its name: one row)', async () => {
    for (const data of [artistBulletin(model), technicianBulletin(model), cdiBulletin(model)]) {
      const text = (await pages(data)).join('\n');
      const headings = headingsOf(data.payslip);
      assert.ok(headings.includes('Accidents du travail – maladies professionnelles'));
      for (const name of headings) assert.equal(occurrences(text, name), 1, `"${name}" once`);
      // The AT/MP row carries its base, rate and amount.
      const atmp = data.payslip.lines.find((line) => line.heading === 'Accidents du travail – maladies professionnelles')!;
      assert.ok(
        text.includes(
          `Accidents du travail – maladies professionnelles ${euros(atmp.base)} ${formatBulletinRate(atmp.employer_rate!).replace(/\s+/g, ' ')} ${euros(atmp.employer_amount)}`,
        ),
      );
    }
  });

  it("should print a cadre technician's hours and services, and a CDI's entry date without dates nor Congés Spectacles", async () => {
    const technician = (await pages(technicianBulletin(model))).join('\n');
    assertInOrder(technician, [
      'Marc Dupont',
      'Emploi : Régisseur général',
      'Classification : Cadre – groupe 4',
      'Catégorie : Technicien · Cadre',
      'Date de paiement : 29/01/2027',
      'Travail rémunéré : 15,5 heures, 1 service',
      'Contrat : N° C-2027-000051',
      '12/01/2027 Heures 8 13/01/2027 Heures 7,5 14/01/2027 Service 1',
      CONGES,
    ]);
    assert.ok(!technician.includes('Non cadre'));

    const data = cdiBulletin(model);
    const cdi = (await pages(data)).join('\n');
    assertInOrder(cdi, [
      'Compagnie du Soleil',
      'SIRET : 12345678900017',
      'Convention collective',
      'Léa Martin',
      '8 avenue Jean Jaurès',
      '69007 Lyon',
      'Classification : Niveau 3 – échelon 2',
      'Catégorie : Personnel permanent · Non cadre',
      'Date de paiement : 29/01/2027',
      'Contrat : N° C-2025-000007, CDI (durée indéterminée)',
      'Date d’entrée : 01/09/2025',
      `Impôt sur le revenu prélevé à la source ${euros(data.payslip.net_taxable)} 7,50 % ${euros(data.payslip.pas_amount)}`,
      KEEP,
    ]);
    for (const absent of ['Congés Spectacles', 'Date travaillée', 'Travail rémunéré', 'Code APE', 'URSSAF :', '12 rue de l’Éclair'])
      assert.ok(!cdi.includes(absent), absent);
    assert.match(cdi, /Page 1 \/ 1/);
  });

  it('should print the rates the lines carry French-style, two decimals at least', async () => {
    assert.deepEqual(
      ['6.9', '0.315', '7', '13', '1.12'].map((rate) => formatBulletinRate(rate).replace('\u00a0', ' ')),
      ['6,90 %', '0,315 %', '7,00 %', '13,00 %', '1,12 %'],
    );
    const data = cdiBulletin(model);
    const text = (await pages(data)).join('\n');
    const rated = data.payslip.lines.filter((line) => line.employee_rate !== null && line.employee_amount !== '0.00');
    assert.ok(rated.length >= 3, 'lines with an employee rate');
    for (const line of rated) {
      assert.ok(
        text.includes(`${line.label} ${euros(line.base)} ${formatBulletinRate(line.employee_rate!).replace(/\s+/g, ' ')} ${euros(line.employee_amount)}`),
        line.label,
      );
    }
  });

  it('should mark every page of a draft BROUILLON, with its payment date foreseen, and never a published one', async () => {
    const draft = await pages(artistBulletin(model, { draft: true }));
    assert.equal(draft.length, 1);
    assert.ok(draft.every((page) => page.includes('BROUILLON')));
    assert.ok(draft[0]!.includes('Date de paiement : 29/01/2027 (prévue, fixée à la validation)'));
    // Thirty dates: two pages, each marked.
    const dates = Array.from({ length: 30 }, (_, i) => ({ ...ARTIST_DATES[i % 2]!, date: `2027-01-${String(i + 1).padStart(2, '0')}` }));
    const long = await pages(artistBulletin(model, { draft: true, dates }));
    assert.equal(long.length, 2);
    assert.ok(
      long.every((page) => occurrences(page, 'BROUILLON') === 1),
      'one watermark a page',
    );
    for (const data of [artistBulletin(model), technicianBulletin(model), cdiBulletin(model)]) {
      assert.ok((await pages(data)).every((page) => !page.includes('BROUILLON')));
    }
  });

  it('should keep the totals, the nets, the costs and the closing sentence on one page when the dates push them over', async () => {
    for (const count of [18, 24, 30]) {
      const dates = Array.from({ length: count }, (_, i) => ({ ...ARTIST_DATES[i % 2]!, date: `2027-01-${String(i + 1).padStart(2, '0')}` }));
      const text = await pages(artistBulletin(model, { dates }));
      const page = text.findIndex((p) => p.includes('Total des cotisations et contributions'));
      assert.ok(page >= 0);
      for (const wanted of [...TOTALS, CONGES, KEEP])
        assert.ok(text[page]!.includes(wanted), `${count} dates: "${wanted}" on the page of the totals (${page + 1} of ${text.length})`);
    }
  });

  it('should draw a Japanese name (its glyphs embedded from Noto Sans CJK) and an Arabic one', async () => {
    const data = artistBulletin(model, { name: ['太郎', '山田'] });
    const pdf = await renderPdf(bulletinDocument(data));
    const text = await pdfText(pdf);
    // Read back through the embedded font's ToUnicode map: the glyphs are there, not boxes.
    assert.ok(text.includes('太郎 山田'), text);
    assert.match(pdf.toString('latin1'), /\/BaseFont \/[A-Z]{6}\+NotoSansHans-(Bold|Regular)/);
    const arabic = artistBulletin(model, { name: ['عبد الله', 'بن سلمان'] });
    const arabicPdf = await renderPdf(bulletinDocument(arabic));
    assert.match(arabicPdf.toString('latin1'), /\/BaseFont \/[A-Z]{6}\+NotoNaskhArabic-Bold/);
  });

  it('should count the work by unit: cachets, services, hours', () => {
    assert.equal(workPaid(ARTIST_DATES), '5 cachets');
    assert.equal(workPaid([{ date: '2027-01-02', nature: 'representation', quantity: '1.000' }]), '1 cachet');
    assert.equal(
      workPaid([
        { date: '2027-01-02', nature: 'heures', quantity: '3.250' },
        { date: '2027-01-03', nature: 'service', quantity: '2' },
        { date: '2027-01-04', nature: 'heures', quantity: '4.5' },
      ]),
      '7,75 heures, 2 services',
    );
  });
});

describe('POST /api/staff/paie/valider: the payment date', () => {
  const PERIOD = '2027-01';

  /** Hélène, an artist on a CDDU with two dates in January 2027, computed into a draft. */
  async function draftOfJanuary(t: Parameters<typeof setup>[0]) {
    const ctx = await setup(t);
    await ctx.call(ctx.staff, 'PATCH', `/api/staff/orgs/${ctx.soleil}`, {
      address_line: '3 place du Théâtre',
      postcode: '69001',
      city: 'Lyon',
      ape_code: '90.01Z',
      urssaf: 'Urssaf Rhône-Alpes',
      siret: '12345678900017',
    });
    const edited = await ctx.call(ctx.agent, 'PATCH', `/api/salaries/${ctx.helene}`, {
      category: 'artiste',
      address_line: '4 rue des Lilas',
      postcode: '75020',
      city: 'Paris',
      classification: 'Artiste interprète – groupe 2',
    });
    assert.equal(edited.statusCode, 200, edited.body);
    const created = await ctx.call(ctx.agent, 'POST', '/api/contrats', {
      employee_id: ctx.helene,
      kind: 'CDDU',
      job_title: 'Comédienne',
      show_title: 'Le Songe',
      idcc: '3090',
      start_date: '2027-01-04',
      end_date: '2027-01-31',
      dates: [
        { date: '2027-01-05', nature: 'repetition', quantity: 1, amount: '300' },
        { date: '2027-01-09', nature: 'representation', quantity: 1, amount: '400' },
      ],
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal((await ctx.call(ctx.agent, 'POST', `/api/contrats/${created.json().id}/submit`)).statusCode, 200);
    const started = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/calcul', { org_id: ctx.soleil, period: PERIOD });
    assert.equal(started.statusCode, 202, started.body);
    await ctx.app.payroll.worker.runDue();
    const run = (await ctx.call(ctx.staff, 'GET', `/api/staff/paie/runs/${started.json().run_id}`)).json();
    assert.equal(run.status, 'termine', JSON.stringify(run));
    assert.equal(run.payslips.length, 1);
    return { ...ctx, draft: run.payslips[0].id as string };
  }

  /** The stored bulletin's text, through its signed link. */
  async function storedBulletin(ctx: Awaited<ReturnType<typeof draftOfJanuary>>, id: string): Promise<string> {
    // Rendered by the job the validation queued.
    assert.equal(await ctx.app.jobs.worker.runDue(), 1);
    const link = await ctx.call(ctx.admin, 'GET', `/api/payslips/${id}/pdf-url`);
    assert.equal(link.statusCode, 200, link.body);
    const url = new URL(link.json().url);
    const file = await ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    assert.equal(file.statusCode, 200);
    return pdfText(file.rawPayload);
  }

  it('should default to the last Monday to Friday of the month, stored and printed, the draft showing it foreseen', async (t) => {
    assert.deepEqual(['2027-01', '2027-02', '2026-05', '2027-07'].map(lastWorkingDay), ['2027-01-29', '2027-02-26', '2026-05-29', '2027-07-30']);
    const ctx = await draftOfJanuary(t);
    const draftPdf = await ctx.call(ctx.staff, 'GET', `/api/staff/paie/brouillons/${ctx.draft}/bulletin.pdf`);
    assert.equal(draftPdf.statusCode, 200);
    const draftText = await pdfText(draftPdf.rawPayload);
    assertInOrder(draftText, [
      'Théâtre du Soleil',
      '3 place du Théâtre',
      '69001 Lyon',
      'Code APE : 9001Z',
      'URSSAF : Urssaf Rhône-Alpes',
      'Hélène Lefèvre',
      '4 rue des Lilas',
      'Classification : Artiste interprète – groupe 2',
      'Date de paiement : 29/01/2027 (prévue, fixée à la validation)',
      'Travail rémunéré : 2 cachets',
    ]);
    assert.ok(draftText.includes('BROUILLON'));

    const res = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period: PERIOD });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().payment_date, '2027-01-29');
    const row = await ctx.db.selectFrom('payslips').select('payment_date').where('id', '=', ctx.draft).executeTakeFirstOrThrow();
    assert.equal(row.payment_date, '2027-01-29');
    const text = await storedBulletin(ctx, ctx.draft);
    assert.ok(text.includes('Date de paiement : 29/01/2027'), text);
    assert.ok(!text.includes('(prévue') && !text.includes('BROUILLON'), 'a published bulletin');
  });

  it('should print the payment date chosen, never the day of the computation', async (t) => {
    const ctx = await draftOfJanuary(t);
    const res = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period: PERIOD, payment_date: '2027-02-05' });
    assert.equal(res.statusCode, 200, res.body);
    const text = await storedBulletin(ctx, ctx.draft);
    assert.ok(text.includes('Date de paiement : 05/02/2027'), text);
    const event = await ctx.db
      .selectFrom('module_events')
      .select('details')
      .where('subject_id', '=', ctx.draft)
      .where('action', '=', 'payslip.published')
      .executeTakeFirstOrThrow();
    assert.equal((event.details as { payment_date: string }).payment_date, '2027-02-05');
  });

  it('should refuse with 400 invalid_payment_date a date before the period, after its next two months, or not a date, publishing nothing', async (t) => {
    const ctx = await draftOfJanuary(t);
    for (const payment_date of ['2026-12-31', '2027-04-01', '2027-02-30', '29/01/2027', 'demain', 20270129, true]) {
      const res = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period: PERIOD, payment_date });
      assert.equal(res.statusCode, 400, `${JSON.stringify(payment_date)}: ${res.body}`);
      assert.equal(res.json().error, 'invalid_payment_date');
      assert.match(res.json().message, /date de paiement/i);
    }
    const bounds = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period: PERIOD, payment_date: '2026-12-31' });
    assert.equal(
      bounds.json().message,
      'La date de paiement doit tomber entre le 01/01/2027 et le 31/03/2027 : dans la période ou les deux mois qui la suivent.',
    );
    const row = await ctx.db.selectFrom('payslips').select(['status', 'payment_date']).where('id', '=', ctx.draft).executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'brouillon', payment_date: null });
    // The bounds themselves are accepted.
    const last = await ctx.call(ctx.staff, 'POST', '/api/staff/paie/valider', { org_id: ctx.soleil, period: PERIOD, payment_date: '2027-03-31' });
    assert.equal(last.statusCode, 200, last.body);
  });
});
