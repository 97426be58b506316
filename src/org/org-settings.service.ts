/**
 * The organization fields of docs/modules.md, set by staff (`PATCH /api/staff/orgs/{id}`) and by
 * the command line (`org update`): one function for both, one transaction with its audit event.
 */
import { applyChange, type ChangeContext } from '../audit/change.ts';
import { actorOf } from '../audit/audit.repository.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { applyOrgSettings, orgSettingsErrors, type OrgSettingsInput } from './org-settings.rules.ts';
import { orgErrors } from './org.errors.ts';
import type { Database } from '../db/database.ts';
import { findOrganizationPayrollInputs, lockOrganizationSettings, updateOrganizationSettings } from './org.repository.ts';
import { isUuid } from './resolution.ts';

/**
 * What the payroll run needs to know of an organization: `effectif` (integer ≥ 1),
 * `convention` (`SVP` | `droit_commun`), `categorie_juridique`, `taux_at` (`"2.30"`, or null: the
 * model's default). Undefined when the id names no organization.
 */
export function findOrgPayrollInputs(db: Database, orgId: string) {
  return isUuid(orgId) ? findOrganizationPayrollInputs(db, orgId) : Promise.resolve(undefined);
}

/** The caller (null: the command line). */
export async function updateOrgSettings(ctx: ChangeContext, caller: { userId: string; email: string } | null, orgId: string, input: OrgSettingsInput) {
  try {
    return await applyChange(ctx, async (change) => {
      const current = isUuid(orgId) ? await lockOrganizationSettings(change.trx, orgId) : undefined;
      if (!current) throw orgErrors.orgNotFound();
      const next = applyOrgSettings(current, input);
      const updated = await updateOrganizationSettings(change.trx, current.id, next);
      const changed = (Object.keys(next) as (keyof typeof next)[]).filter((key) => JSON.stringify(next[key]) !== JSON.stringify(current[key]));
      await change.event({
        org_id: current.id,
        action: 'organization.updated',
        subject_type: 'organization',
        subject_id: current.id,
        ...actorOf(caller),
        details: { changed },
      });
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'organizations_documents_slug_key')) throw orgSettingsErrors.slugTaken();
    throw error;
  }
}
