/** The staff team's own rules: revoking staff, choosing an organization. */
import { actorOf } from '../audit/audit.repository.ts';
import { applyChange, type ChangeContext } from '../audit/change.ts';
import { findUserById } from '../identity/identity.repository.ts';
import type { Caller } from '../identity/identity.service.ts';
import { orgErrors } from '../org/org.errors.ts';
import { findOrganization, saveActiveOrg } from '../org/org.repository.ts';
import { isUuid } from '../org/resolution.ts';
import { staffErrors } from './staff.errors.ts';
import * as repo from './staff.repository.ts';

/** Only a SUPER_STAFF may create a SUPER_STAFF. */
export function levelToCreate(caller: Caller, requested: string | undefined): 'STAFF' | 'SUPER_STAFF' {
  const level = (requested?.trim() || 'STAFF').toUpperCase();
  if (level !== 'STAFF' && level !== 'SUPER_STAFF') throw staffErrors.invalidLevel();
  if (level === 'SUPER_STAFF' && caller.staffLevel !== 'SUPER_STAFF') throw staffErrors.forbiddenLevel();
  return level;
}

/** A SUPER_STAFF account cannot be revoked. */
export async function revokeStaff(ctx: ChangeContext, caller: Caller, userId: string): Promise<void> {
  if (userId === caller.userId) throw staffErrors.cannotRevokeSelf();
  if (!isUuid(userId)) throw staffErrors.staffNotFound();
  await applyChange(ctx, async (change) => {
    const staff = await repo.lockStaffUser(change.trx, userId);
    if (!staff) throw staffErrors.staffNotFound();
    if (staff.level === 'SUPER_STAFF') throw staffErrors.superStaffProtected();
    if (!staff.is_staff) return;
    await repo.revokeStaffUser(change.trx, userId);
    const target = await findUserById(change.trx, userId);
    await change.audit({
      org_id: null,
      action: 'staff_revoked',
      ...actorOf(caller),
      target_user_id: userId,
      target_email: target?.email ?? null,
      old_role: staff.level,
      new_role: null,
    });
  });
}

/** `PUT /api/staff/active-org`: stored in the staff settings, recorded in the audit trail. */
export async function selectActiveOrg(ctx: ChangeContext, caller: Caller, orgId: unknown): Promise<{ id: string; name: string }> {
  if (!isUuid(orgId)) throw orgErrors.orgNotFound();
  return applyChange(ctx, async (change) => {
    const org = await findOrganization(change.trx, orgId.toLowerCase());
    if (!org) throw orgErrors.orgNotFound();
    await saveActiveOrg(change.trx, caller.userId, org.id);
    await change.audit({
      org_id: org.id,
      action: 'active_org_selected',
      ...actorOf(caller),
      target_user_id: caller.userId,
      target_email: caller.email,
      old_role: null,
      new_role: null,
    });
    return { id: org.id, name: org.name };
  });
}
