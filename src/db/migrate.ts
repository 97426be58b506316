/** Versioned migrations, bundled statically so they run the same from source or a package. */
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './database.ts';
import * as initial from './migrations/2026_11_22_00_00_00_initial.ts';
import * as getMyOrgPlpgsql from './migrations/2026_11_22_01_00_00_get_my_org_plpgsql.ts';
import * as rateLimits from './migrations/2026_11_22_02_00_00_rate_limits.ts';
import * as files from './migrations/2026_11_23_09_00_00_files.ts';
import * as contracts from './migrations/2026_11_23_10_00_00_contracts.ts';
import * as getMyOrgRevoked from './migrations/2026_11_23_11_00_00_get_my_org_revoked.ts';
import * as invitationOrg from './migrations/2026_11_23_11_01_00_invitation_org.ts';
import * as payslips from './migrations/2026_11_23_12_00_00_payslips.ts';
import * as invoices from './migrations/2026_11_23_13_00_00_invoices.ts';
import * as searchFold from './migrations/2026_11_23_14_00_00_search_fold.ts';
import * as dropCreatedBy from './migrations/2026_11_26_00_00_00_drop_created_by.ts';
import * as searchStatistics from './migrations/2026_11_26_01_00_00_search_statistics.ts';
import * as payslipUniqueness from './migrations/2026_11_27_00_00_00_payslip_uniqueness.ts';
import * as contractNoteAuthorStaff from './migrations/2026_11_27_01_00_00_contract_note_author_staff.ts';
import * as invoiceIssueDate from './migrations/2026_11_27_02_00_00_invoice_issue_date.ts';
import * as payrollInputs from './migrations/2026_11_27_10_00_00_payroll_inputs.ts';
import * as payrollRuns from './migrations/2026_11_27_11_00_00_payroll_runs.ts';
import * as facturX from './migrations/2026_11_27_12_00_00_factur_x.ts';
import * as contributionSettlement from './migrations/2026_11_27_13_00_00_contribution_settlement.ts';
import * as mailReplyTo from './migrations/2026_11_27_13_36_00_mail_reply_to.ts';
import * as creditNoteIssueDate from './migrations/2026_11_28_00_00_00_credit_note_issue_date.ts';
import * as employeeDfs from './migrations/2026_12_07_00_00_00_employee_dfs.ts';
import * as bulletinMentions from './migrations/2026_12_07_05_00_00_bulletin_mentions.ts';
import * as jobs from './migrations/2026_12_07_10_10_00_jobs.ts';
import * as operatorSettings from './migrations/2026_12_07_10_20_00_operator_settings.ts';
import * as contributionCallRevisions from './migrations/2026_12_07_10_30_00_contribution_call_revisions.ts';
import * as complementaryPayslips from './migrations/2026_12_07_10_40_00_complementary_payslips.ts';
import * as payrollRunJobs from './migrations/2026_12_07_13_00_00_payroll_run_jobs.ts';

export const MIGRATIONS: Record<string, Migration> = {
  '2026_11_22_00_00_00_initial': initial,
  '2026_11_22_01_00_00_get_my_org_plpgsql': getMyOrgPlpgsql,
  '2026_11_22_02_00_00_rate_limits': rateLimits,
  '2026_11_23_09_00_00_files': files,
  '2026_11_23_10_00_00_contracts': contracts,
  '2026_11_23_11_00_00_get_my_org_revoked': getMyOrgRevoked,
  '2026_11_23_11_01_00_invitation_org': invitationOrg,
  '2026_11_23_12_00_00_payslips': payslips,
  '2026_11_23_13_00_00_invoices': invoices,
  '2026_11_23_14_00_00_search_fold': searchFold,
  '2026_11_26_00_00_00_drop_created_by': dropCreatedBy,
  '2026_11_26_01_00_00_search_statistics': searchStatistics,
  '2026_11_27_00_00_00_payslip_uniqueness': payslipUniqueness,
  '2026_11_27_01_00_00_contract_note_author_staff': contractNoteAuthorStaff,
  '2026_11_27_02_00_00_invoice_issue_date': invoiceIssueDate,
  '2026_11_27_10_00_00_payroll_inputs': payrollInputs,
  '2026_11_27_11_00_00_payroll_runs': payrollRuns,
  '2026_11_27_12_00_00_factur_x': facturX,
  '2026_11_27_13_00_00_contribution_settlement': contributionSettlement,
  '2026_11_27_13_36_00_mail_reply_to': mailReplyTo,
  '2026_11_28_00_00_00_credit_note_issue_date': creditNoteIssueDate,
  '2026_12_07_00_00_00_employee_dfs': employeeDfs,
  '2026_12_07_05_00_00_bulletin_mentions': bulletinMentions,
  '2026_12_07_10_10_00_jobs': jobs,
  '2026_12_07_10_20_00_operator_settings': operatorSettings,
  '2026_12_07_10_30_00_contribution_call_revisions': contributionCallRevisions,
  '2026_12_07_10_40_00_complementary_payslips': complementaryPayslips,
  '2026_12_07_13_00_00_payroll_run_jobs': payrollRunJobs,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export const latestMigration = Object.keys(MIGRATIONS).sort().at(-1)!;

/** Applies pending migrations; returns the names applied, throws on the first failure. */
export async function migrateToLatest(db: Database): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has been applied (used by /readyz). */
export async function isMigrated(db: Database): Promise<boolean> {
  const migrator = new Migrator({ db, provider });
  const all = await migrator.getMigrations();
  return all.every((m) => m.executedAt !== undefined);
}
