/**
 * The access rules of SPEC 4.2 and CONTRACT 5: adding, inviting, revoking members and
 * re-sending invitations. Each change, its audit record and its e-mail are written in one
 * transaction; the e-mail is delivered after commit by the mail worker.
 */
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { MemberRole } from '../db/schema.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { readFirstName } from '../http/input.ts';
import { limitPerAddress } from '../http/rate-limit-store.ts';
import { isPlausibleEmail, normalizeEmail } from '../identity/email.ts';
import { findUserByEmail, findUserById, upsertAuthPreferences, type Account } from '../identity/identity.repository.ts';
import { activationUrl, ensureAccount, firstNameOf, issueOneTimeToken, type Caller } from '../identity/identity.service.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { accessUpdatedEmail, activationEmail, formatMailDate, roleLabel } from '../mail/templates.ts';
import { ASSIGNABLE_ROLES, MEMBER_ROLES } from './access-check.ts';
import { accessErrors } from './access.errors.ts';
import { recordAccessEvent } from './audit.repository.ts';
import * as members from './membership.repository.ts';
import type { OrgScope } from './org-scope.ts';
import { isUuid } from './org-resolution.ts';

export interface AccessContext {
  db: Database;
  config: Config;
  scope: OrgScope;
}

export interface AddMemberBody {
  email?: string;
  role?: string;
  first_name?: string;
}

export interface MemberInput {
  email: string;
  role: MemberRole;
  firstName: string;
}

export const MESSAGES = {
  invited: 'Invitation envoyée',
  added: "Utilisateur ajouté à l'organisation",
  revoked: 'Accès révoqué',
  resent: 'Invitation renvoyée',
} as const;

function cleanFirstName(raw: unknown): string {
  const firstName = readFirstName(raw);
  if (firstName === null) throw accessErrors.invalidFirstName();
  return firstName;
}

/**
 * SPEC 4.2 rule 4 with CONTRACT 5's role check: e-mail trimmed and lower-cased (required),
 * role upper-cased (default AGENT; SUPER_ADMIN refused; others outside the list refused).
 */
export function parseMemberInput(body: AddMemberBody, options: { allowSuperAdmin: boolean }): MemberInput {
  const email = normalizeEmail(body.email);
  if (!email) throw accessErrors.missingEmail();
  const role = (typeof body.role === 'string' && body.role.trim() ? body.role.trim() : 'AGENT').toUpperCase();
  if (role === 'SUPER_ADMIN' && !options.allowSuperAdmin) throw accessErrors.forbiddenRole();
  const allowed: readonly string[] = options.allowSuperAdmin ? MEMBER_ROLES : ASSIGNABLE_ROLES;
  if (!allowed.includes(role)) throw accessErrors.invalidRole();
  if (!isPlausibleEmail(email)) throw accessErrors.invalidEmail();
  return { email, role: role as MemberRole, firstName: cleanFirstName(body.first_name) };
}

/**
 * Invitations (first ones and re-sends, from every organization and staff) one address may
 * receive per window, whoever sends them. Counted in the transaction that writes the e-mail,
 * so only e-mails actually sent count.
 */
export const INVITATIONS = { name: 'invitation', max: 5, windowMs: 15 * 60 * 1000 };

/** "Invité par" in the activation e-mail: who, with their status. */
function inviterOf(scope: OrgScope): { name: string; status: string } {
  const { caller } = scope;
  const name = caller.firstName ? `${caller.firstName} (${caller.email})` : caller.email;
  const status = caller.isStaff ? roleLabel(caller.staffLevel ?? 'STAFF') : roleLabel(scope.callerRole ?? 'ADMIN');
  return { name, status };
}

async function requireOrganization(db: Database, orgId: string | null) {
  if (!orgId) throw accessErrors.noActiveOrg();
  const org = await members.findOrganization(db, orgId);
  if (!org) throw accessErrors.orgNotFound();
  return org;
}

async function queueActivationMail(
  ctx: AccessContext,
  trx: Database,
  account: Pick<Account, 'id' | 'email' | 'user_metadata'>,
  org: { id: string; name: string },
  role: string,
): Promise<void> {
  await limitPerAddress(trx, INVITATIONS, account.email);
  const token = await issueOneTimeToken(trx, account.id, 'invite', org.id);
  const mail = activationEmail({
    firstName: firstNameOf(account.user_metadata),
    orgName: org.name,
    role,
    inviter: inviterOf(ctx.scope),
    activationUrl: activationUrl(ctx.config.publicUrl, token, 'invite'),
    supportEmail: ctx.config.supportEmail,
  });
  await enqueueMail(trx, { kind: 'activation', to: account.email, ...mail });
}

function actorOf(caller: Caller) {
  return { actor_user_id: caller.userId, actor_email: caller.email };
}

/**
 * Runs a change of one organization's memberships in a transaction. The organization was
 * read just before; if it is deleted meanwhile, the write fails on its foreign key, which
 * is answered as an organization that does not exist, not as a database message.
 */
async function inOrganization<T>(db: Database, change: (trx: Database) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(change);
  } catch (error) {
    if ((error as { code?: unknown }).code === '23503') throw accessErrors.orgNotFound();
    throw error;
  }
}

/**
 * SPEC 4.2 rules 5-7. Returns the SPEC's message: `Invitation envoyée` when the e-mail
 * matched no account, else `Utilisateur ajouté à l'organisation`.
 */
export async function addMember(ctx: AccessContext, input: MemberInput): Promise<{ message: string; userId: string }> {
  const org = await requireOrganization(ctx.db, ctx.scope.orgId);
  const { caller } = ctx.scope;
  return inOrganization(ctx.db, async (trx) => {
    let account: Account | undefined = await findUserByEmail(trx, input.email);
    if (!account) {
      const invitation = await ensureAccount(trx, input.email, {
        first_name: input.firstName || null,
        role: input.role,
        org_id: org.id,
        org_name: org.name,
      });
      account = invitation.account;
      if (invitation.created) {
        await members.insertMembershipIfAbsent(trx, org.id, account.id, input.role);
        await upsertAuthPreferences(trx, account.id, { allow_magic_link: true, allow_password: false });
        await queueActivationMail(ctx, trx, account, org, input.role);
        await recordAccessEvent(trx, {
          org_id: org.id, action: 'invited', ...actorOf(caller),
          target_user_id: account.id, target_email: account.email, old_role: null, new_role: input.role,
        });
        return { message: MESSAGES.invited, userId: account.id };
      }
      // Another request created the account meanwhile: it is an existing account now.
    }

    const inserted = await members.insertMembershipIfAbsent(trx, org.id, account.id, input.role);
    const previous = inserted ? undefined : await members.lockMembership(trx, org.id, account.id);
    if (previous?.role === 'SUPER_ADMIN') throw accessErrors.protectedSuperAdmin();
    // CONTRACT 5: nobody changes their own role (an administrator would demote themselves).
    if (previous && account.id === caller.userId && previous.role !== input.role) throw accessErrors.cannotChangeOwnRole();
    if (previous) await members.updateMembershipRole(trx, org.id, account.id, input.role);

    const roleChanged = previous !== undefined && previous.role !== input.role;
    if (roleChanged) {
      const mail = accessUpdatedEmail({
        firstName: firstNameOf(account.user_metadata),
        orgName: org.name,
        oldRole: previous.role,
        newRole: input.role,
        updatedBy: caller.email || 'Administrateur',
        updatedAt: formatMailDate(new Date(), ctx.config.mailTimezone),
        accessUrl: `${ctx.config.publicUrl}/vos-acces`,
        supportEmail: ctx.config.supportEmail,
      });
      await enqueueMail(trx, { kind: 'access_updated', to: account.email, ...mail });
    }
    const action = !previous ? 'added' : previous.revoked ? 'reactivated' : roleChanged ? 'role_changed' : null;
    if (action) {
      await recordAccessEvent(trx, {
        org_id: org.id, action, ...actorOf(caller),
        target_user_id: account.id, target_email: account.email,
        old_role: previous?.role ?? null, new_role: input.role,
      });
    }
    return { message: MESSAGES.added, userId: account.id };
  });
}

/** CONTRACT 5: `DELETE /api/access/{user_id}`. */
export async function revokeMember(ctx: AccessContext, userId: string): Promise<void> {
  const { caller, orgId } = ctx.scope;
  if (userId === caller.userId) throw accessErrors.cannotRevokeSelf();
  if (!orgId) throw accessErrors.noActiveOrg();
  if (!isUuid(userId)) throw accessErrors.memberNotFound();
  await ctx.db.transaction().execute(async (trx) => {
    const membership = await members.lockMembership(trx, orgId, userId);
    if (!membership) throw accessErrors.memberNotFound();
    if (membership.role === 'SUPER_ADMIN') throw accessErrors.protectedSuperAdmin();
    if (membership.revoked) return; // already revoked: nothing changes, nothing to record
    await members.revokeMembership(trx, orgId, userId);
    const target = await findUserById(trx, userId);
    await recordAccessEvent(trx, {
      org_id: orgId, action: 'revoked', ...actorOf(caller),
      target_user_id: userId, target_email: target?.email ?? null, old_role: membership.role, new_role: null,
    });
  });
}

/** CONTRACT 5: `POST /api/access/{user_id}/resend`, a fresh invitation for a pending member. */
export async function resendInvitation(ctx: AccessContext, userId: string): Promise<void> {
  const org = await requireOrganization(ctx.db, ctx.scope.orgId);
  if (!isUuid(userId)) throw accessErrors.memberNotFound();
  await ctx.db.transaction().execute(async (trx) => {
    const membership = await members.lockMembership(trx, org.id, userId);
    const account = membership ? await findUserById(trx, userId) : undefined;
    if (!membership || !account) throw accessErrors.memberNotFound();
    if (membership.revoked) throw accessErrors.memberRevoked();
    if (account.activated_at) throw accessErrors.alreadyActivated();
    await queueActivationMail(ctx, trx, account, org, membership.role);
    await recordAccessEvent(trx, {
      org_id: org.id, action: 'invitation_resent', ...actorOf(ctx.scope.caller),
      target_user_id: userId, target_email: account.email, old_role: membership.role, new_role: membership.role,
    });
  });
}

/**
 * CONTRACT 5: `POST /api/access/nouveau` (staff only). Creates or updates the access, any
 * role including SUPER_ADMIN, and always sends the activation e-mail.
 */
export async function createAccess(ctx: AccessContext, input: MemberInput): Promise<{ userId: string; created: boolean }> {
  const org = await requireOrganization(ctx.db, ctx.scope.orgId);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const { account, created } = await ensureAccount(trx, input.email, {
        first_name: input.firstName || null,
        role: input.role,
        org_id: org.id,
        org_name: org.name,
      });
      const previous = await members.setMembershipRole(trx, org.id, account.id, input.role);
      if (created) await upsertAuthPreferences(trx, account.id, { allow_magic_link: true, allow_password: false });
      await queueActivationMail(ctx, trx, account, org, input.role);
      const action = created ? 'invited' : !previous ? 'added' : previous.revoked ? 'reactivated' : previous.role !== input.role ? 'role_changed' : 'invitation_resent';
      await recordAccessEvent(trx, {
        org_id: org.id, action, ...actorOf(ctx.scope.caller),
        target_user_id: account.id, target_email: account.email, old_role: previous?.role ?? null, new_role: input.role,
      });
      return { userId: account.id, created };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'organization_members_one_super_admin')) throw accessErrors.superAdminExists();
    throw error;
  }
}
