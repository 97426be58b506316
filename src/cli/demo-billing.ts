/**
 * seed-demo's billing data: each demo organization gets notification addresses
 * (when it has none), monthly payroll invoices (October notified, November not yet), and a
 * contribution call. Made through the modules' own services (the same numbers, checks, audit
 * events and e-mails as the API), in the seed's transaction.
 */
import type { Change } from '../audit/change.ts';
import type { Database } from '../db/database.ts';
import type { Config } from '../config.ts';
import { insertNewContributionCall } from '../contributions/contributions.service.ts';
import { insertInvoiceBulk, notifyInvoiceBulk } from '../invoices/invoices.service.ts';
import { addDays } from '../format/calendar.ts';
import { todayInFrance } from '../format/french.ts';
import { lockOrganizationSettings, updateOrganizationSettings } from '../org/org.repository.ts';

/** The monthly payroll invoice of a demo organization: payslips at 15.50 and the monthly fee. */
function payrollLines(payslips: number) {
  return [
    { label: 'Traitement de la paie (bulletins)', quantity: payslips, unit_price: '15.50', vat_rate: '20.00' },
    { label: 'Abonnement mensuel', quantity: 1, unit_price: '49.00', vat_rate: '20.00' },
  ];
}

/**
 * The organization's demo invoices and contribution call, unless it already has invoices
 * (running seed-demo again changes nothing). `slug` makes its demo addresses. Answers counts.
 */
export async function seedBilling(change: Change, config: Config, orgId: string, slug: string, payslips: number) {
  const existing = await change.trx.selectFrom('invoices').select('id').where('org_id', '=', orgId).limit(1).executeTakeFirst();
  if (!existing) {
    const settings = (await lockOrganizationSettings(change.trx, orgId))!;
    if (settings.email_notifs.length === 0) {
      await updateOrganizationSettings(change.trx, orgId, {
        ...settings,
        email_notifs: [`compta@${slug}.demo.local`],
        email_notifs_cc: settings.email_notifs_cc.length > 0 ? settings.email_notifs_cc : [`direction@${slug}.demo.local`],
      });
    }
    // Issued today: the series is chronological (an invoice is never dated before the last one,
    // of any organization), and the seed runs one organization after another, any day.
    const today = todayInFrance();
    const monthly = (period_label: string, issue_date: string, due_date: string) =>
      insertInvoiceBulk(change, null, {
        invoice_type: 'paie_mensuelle',
        payment_method: 'prelevement',
        period_label,
        issue_date,
        due_date,
        invoices: [{ org_id: orgId, lines: payrollLines(payslips) }],
      });
    const [october] = await monthly('octobre 2026', today, addDays(today, 10));
    await monthly('novembre 2026', today, addDays(today, 30));
    await notifyInvoiceBulk(change, config, null, [october!.id], false);
    await insertNewContributionCall(change, null, {
      org_id: orgId,
      period: '2026-11',
      due_date: '2026-12-15',
      lines: [
        { organism: 'URSSAF', amount: '1842.60' },
        { organism: 'AUDIENS', amount: '412.35' },
        { organism: 'CONGES_SPECTACLES', amount: '356.00' },
        { organism: 'FRANCE_TRAVAIL', amount: '98.40' },
        { organism: 'AFDAS', amount: '27.10' },
      ],
    });
  }
  return billingCounts(change.trx, orgId);
}

/** How many invoices (and notified ones) and contribution calls the organization has. */
export async function billingCounts(db: Database, orgId: string) {
  const invoices = await db
    .selectFrom('invoices')
    .select((eb) => [eb.fn.countAll<string>().as('all'), eb.fn.countAll<string>().filterWhere('notified', '=', true).as('notified')])
    .where('org_id', '=', orgId)
    .executeTakeFirstOrThrow();
  const calls = await db
    .selectFrom('contribution_calls')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('org_id', '=', orgId)
    .executeTakeFirstOrThrow();
  return { invoices: Number(invoices.all), notified: Number(invoices.notified), contribution_calls: Number(calls.n) };
}
