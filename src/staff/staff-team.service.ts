/** The staff team's own rules (SPEC 2.3, CONTRACT 5): revoking staff, choosing an organization. */
import type { Database } from '../db/database.ts';
import { AppError } from '../http/errors.ts';
import { recordAccessEvent } from '../access/audit.repository.ts';
import { findOrganization } from '../access/membership.repository.ts';
import { isUuid } from '../access/org-resolution.ts';
import { findUserById } from '../identity/identity.repository.ts';
import type { Caller } from '../identity/identity.service.ts';
import * as repo from './staff.repository.ts';

export const staffTeamErrors = {
  forbiddenLevel: () => new AppError(403, 'forbidden_role', "Seul un SUPER_STAFF peut créer un compte SUPER_STAFF"),
  invalidLevel: () => new AppError(400, 'invalid_level', 'Niveau inconnu : choisissez STAFF ou SUPER_STAFF'),
  superStaffProtected: () => new AppError(403, 'forbidden_role', "Un compte SUPER_STAFF ne peut pas être révoqué"),
  cannotRevokeSelf: () => new AppError(400, 'cannot_revoke_self', 'Vous ne pouvez pas révoquer votre propre accès'),
  staffNotFound: () => new AppError(404, 'not_found', "Membre de l'équipe introuvable"),
  orgNotFound: () => new AppError(404, 'not_found', 'Organisation introuvable'),
  invalidQuery: () => new AppError(400, 'invalid_q', 'La recherche contient des caractères non autorisés'),
};

/** SPEC 2.3: only a SUPER_STAFF may create a SUPER_STAFF. */
export function levelToCreate(caller: Caller, requested: string | undefined): 'STAFF' | 'SUPER_STAFF' {
  const level = (requested?.trim() || 'STAFF').toUpperCase();
  if (level !== 'STAFF' && level !== 'SUPER_STAFF') throw staffTeamErrors.invalidLevel();
  if (level === 'SUPER_STAFF' && caller.staffLevel !== 'SUPER_STAFF') throw staffTeamErrors.forbiddenLevel();
  return level;
}

/** SPEC 2.3: a SUPER_STAFF account cannot be revoked. */
export async function revokeStaff(db: Database, caller: Caller, userId: string): Promise<void> {
  if (userId === caller.userId) throw staffTeamErrors.cannotRevokeSelf();
  if (!isUuid(userId)) throw staffTeamErrors.staffNotFound();
  await db.transaction().execute(async (trx) => {
    const staff = await repo.lockStaffUser(trx, userId);
    if (!staff) throw staffTeamErrors.staffNotFound();
    if (staff.level === 'SUPER_STAFF') throw staffTeamErrors.superStaffProtected();
    if (!staff.is_staff) return;
    await repo.revokeStaffUser(trx, userId);
    const target = await findUserById(trx, userId);
    await recordAccessEvent(trx, {
      org_id: null, action: 'staff_revoked', actor_user_id: caller.userId, actor_email: caller.email,
      target_user_id: userId, target_email: target?.email ?? null, old_role: staff.level, new_role: null,
    });
  });
}

/** `PUT /api/staff/active-org`: stored in the staff settings, recorded in the audit trail. */
export async function selectActiveOrg(db: Database, caller: Caller, orgId: unknown): Promise<{ id: string; name: string }> {
  if (!isUuid(orgId)) throw staffTeamErrors.orgNotFound();
  return db.transaction().execute(async (trx) => {
    const org = await findOrganization(trx, orgId.toLowerCase());
    if (!org) throw staffTeamErrors.orgNotFound();
    await repo.saveActiveOrg(trx, caller.userId, org.id);
    await recordAccessEvent(trx, {
      org_id: org.id, action: 'active_org_selected', actor_user_id: caller.userId, actor_email: caller.email,
      target_user_id: caller.userId, target_email: caller.email, old_role: null, new_role: null,
    });
    return { id: org.id, name: org.name };
  });
}
