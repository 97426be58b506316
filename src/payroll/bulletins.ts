/**
 * The bulletins of validated payslips: the validation queues a job per payslip in
 * its own transaction (`bulletinJobs`); the job renders the PDF in the PDF pool and stores it in
 * the transaction that ends the job, then it is served like every payslip PDF (`has_pdf` turns
 * true). A validation from the command line is rendered by the server's worker, and one whose
 * server died mid-render by the next worker to claim the job.
 */
import { applyChange } from '../audit/change.ts';
import type { RunningJob } from '../jobs/worker.ts';
import { lastWorkingDay, periodBounds } from '../format/calendar.ts';
import { moneyFromDb, type Money } from '../money/money.ts';
import { generatingPdf, renderPdf } from '../pdf/render.ts';
import { bulletinDocument } from './bulletin.pdf.ts';
import type { ComputedPayslip, PayslipLine } from './compute.ts';
import type { PayrollContext } from './payroll.service.ts';
import * as repo from './payroll.repository.ts';

const money = (value: string | null): Money => moneyFromDb(value ?? '0');

type BulletinSource = NonNullable<Awaited<ReturnType<typeof repo.findBulletinSource>>>;

/**
 * The bulletin's PDF of a computed payslip as its row stands. Its payment date is the one chosen
 * at validation; a draft's (and a payslip validated before dates were chosen) the default one,
 * the period's last working day.
 */
async function bulletinPdf(ctx: Pick<PayrollContext, 'db'>, source: BulletinSource): Promise<Buffer> {
  const { first, last } = periodBounds(source.period);
  const dates = source.kind === 'CDDU' ? await repo.contractDatesIn(ctx.db, source.contract_id, first, last) : [];
  const original = source.complements_id ? await repo.findOriginal(ctx.db, source.complements_id) : undefined;
  const payslip: ComputedPayslip = {
    gross: money(source.gross),
    employee_contributions: money(source.employee_contributions),
    employer_contributions: money(source.employer_contributions),
    net_before_tax: money(source.net_before_tax),
    net_taxable: money(source.net_taxable),
    net_social: money(source.net_social),
    pas_rate: String(Number(source.pas_rate ?? 0)),
    pas_amount: money(source.pas_amount),
    net_to_pay: money(source.net_to_pay),
    employer_cost: money(source.employer_cost),
    lines: (source.lines ?? []) as unknown as PayslipLine[],
  };
  return renderPdf(
    bulletinDocument({
      employer: {
        name: source.org_name,
        siret: source.siret,
        address_line: source.org_address_line,
        postcode: source.org_postcode,
        city: source.org_city,
        ape_code: source.ape_code,
        urssaf: source.urssaf,
        convention: source.convention,
      },
      employee: {
        first_name: source.first_name,
        last_name: source.last_name,
        address_line: source.address_line,
        postcode: source.postcode,
        city: source.city,
        job_title: source.job_title,
        classification: source.classification,
        category: source.category,
        cadre: source.cadre,
      },
      period: source.period,
      payment_date: source.payment_date ?? lastWorkingDay(source.period),
      draft: source.status === 'brouillon',
      complement: original
        ? { original_payment_date: original.payment_date === null ? null : String(original.payment_date), original_net_to_pay: money(original.net_to_pay) }
        : null,
      contract: {
        number: source.contract_number,
        kind: source.kind === 'CDI' ? 'CDI' : 'CDDU',
        start_date: String(source.start_date),
        end_date: source.end_date === null ? null : String(source.end_date),
        dates: dates.map((d) => ({ date: d.date, nature: d.nature, quantity: String(d.quantity) })),
      },
      payslip,
      intermittent: source.kind === 'CDDU',
    }),
  );
}

const bulletinFilename = (source: BulletinSource) =>
  `bulletin-${source.payslip_kind === 'complementaire' ? 'complementaire-' : ''}${source.period}-${source.last_name}-${source.first_name}.pdf`;

/**
 * A draft's bulletin, rendered on demand for staff to check it before validating,
 * never stored (the draft may be computed again), watermarked "BROUILLON"; null when the
 * payslip is not a draft. Its payment date is the default one, marked as foreseen.
 */
export async function draftBulletin(ctx: Pick<PayrollContext, 'db'>, payslipId: string): Promise<{ filename: string; content: Buffer } | null> {
  const source = await repo.findBulletinSource(ctx.db, payslipId);
  if (source?.status !== 'brouillon') return null;
  const content = await generatingPdf(() => bulletinPdf(ctx, source));
  return { filename: `brouillon-${bulletinFilename(source)}`, content };
}

/**
 * The bulletin job: renders and stores the bulletin of a published computed payslip, and ends
 * the job in the same transaction. Nothing to do for one already stored, a draft again or a
 * payslip gone.
 */
export async function runBulletinJob(ctx: PayrollContext, job: RunningJob): Promise<void> {
  const payslipId = String(job.payload.payslip_id);
  await generatingPdf(async () => {
    const source = await repo.findBulletinSource(ctx.db, payslipId);
    if (!source || source.status === 'brouillon' || source.pdf_id) return;
    const pdf = await bulletinPdf(ctx, source);
    await applyChange(ctx, async (change) => {
      // Attached meanwhile (another worker after a lease ran out): that one is kept.
      if (!(await repo.lockBulletinFree(change.trx, payslipId))) return;
      const fileId = await ctx.files.put(change.trx, {
        content: pdf,
        contentType: 'application/pdf',
        filename: bulletinFilename(source),
        orgId: source.org_id,
      });
      await repo.setBulletin(change.trx, payslipId, fileId);
      await job.done(change.trx);
    });
  });
}
