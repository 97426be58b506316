/**
 * The bulletins of validated payslips (PAYROLL 5): rendered by the PDF pool after the
 * validation's commit, stored, then served like every payslip PDF (`has_pdf` turns true). A
 * bulletin missing when asked for (the server stopped before rendering it) is rendered then.
 */
import { applyChange } from '../audit/change.ts';
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
      complement: original ? { original_payment_date: original.payment_date === null ? null : String(original.payment_date), original_net_to_pay: money(original.net_to_pay) } : null,
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

const bulletinFilename = (source: BulletinSource) => `bulletin-${source.payslip_kind === 'complementaire' ? 'complementaire-' : ''}${source.period}-${source.last_name}-${source.first_name}.pdf`;

/**
 * A draft's bulletin, rendered on demand for staff to check it before validating (PAYROLL 8),
 * never stored (the draft may be computed again), watermarked "BROUILLON"; null when the
 * payslip is not a draft. Its payment date is the default one, marked as foreseen.
 */
export async function draftBulletin(ctx: Pick<PayrollContext, 'db'>, payslipId: string): Promise<{ filename: string; content: Buffer } | null> {
  const source = await repo.findBulletinSource(ctx.db, payslipId);
  if (!source || source.status !== 'brouillon') return null;
  const content = await generatingPdf(() => bulletinPdf(ctx, source));
  return { filename: `brouillon-${bulletinFilename(source)}`, content };
}

/** Renders and stores the bulletin of a published computed payslip; its file id (null: not one). */
export async function ensureBulletin(ctx: PayrollContext, payslipId: string): Promise<string | null> {
  const source = await repo.findBulletinSource(ctx.db, payslipId);
  if (!source || source.status === 'brouillon') return null;
  if (source.pdf_id) return source.pdf_id;
  return generatingPdf(() => renderAndStoreBulletin(ctx, payslipId, source));
}

async function renderAndStoreBulletin(ctx: PayrollContext, payslipId: string, source: BulletinSource): Promise<string | null> {
  const pdf = await bulletinPdf(ctx, source);
  return applyChange(ctx, async (change) => {
    const fileId = await ctx.files.put(change.trx, {
      content: pdf,
      contentType: 'application/pdf',
      filename: bulletinFilename(source),
      orgId: source.org_id,
    });
    // Another request stored it meanwhile: this one is rolled back, that one kept.
    if (!(await repo.setBulletin(change.trx, payslipId, fileId))) throw new BulletinStoredMeanwhile();
    return fileId;
  }).catch(async (error: unknown) => {
    if (!(error instanceof BulletinStoredMeanwhile)) throw error;
    return (await repo.findBulletinSource(ctx.db, payslipId))?.pdf_id ?? null;
  });
}

class BulletinStoredMeanwhile extends Error {}

/** After a validation's commit: each bulletin in turn (the PDF pool renders them off the event loop). */
export async function renderBulletins(ctx: PayrollContext, payslipIds: readonly string[]): Promise<void> {
  for (const id of payslipIds) await ensureBulletin(ctx, id);
}
