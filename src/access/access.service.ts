/**
 * The access rules of docs/access.md: adding, inviting, revoking members and
 * re-sending invitations. Each change, its audit record and its e-mail are written in one
 * transaction; the e-mail is delivered after commit by the mail worker.
 */
import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { readFirstName } from '../http/input.ts';
import { limitPerAddress } from '../http/rate-limit-store.ts';
import { actorOf } from '../audit/audit.repository.ts';
import { applyChange, type Change, type ChangeContext } from '../audit/change.ts';
import { isPlausibleEmail, normalizeEmail } from '../identity/email.ts';
import { identityErrors } from '../identity/identity.errors.ts';
import { findUserById, type Account } from '../identity/identity.repository.ts';
import { activationUrl, firstNameOf, issueOneTimeToken, newOneTimeToken } from '../identity/identity.service.ts';
import { outboxRow, type OutgoingMail } from '../mail/outbox.ts';
import { formatMailDate, type Inviter } from '../mail/templates.ts';
import { roleLabel } from '../org/role.labels.ts';
import { accessUpdatedEmail, activationEmail } from './access.mail.ts';
import * as members from '../org/membership.repository.ts';
import { grantRole, invitedAccount, type RoleGrant } from '../org/membership.service.ts';
import { findOrganization } from '../org/org.repository.ts';
import { orgErrors } from '../org/org.errors.ts';
import { ASSIGNABLE_ROLES, DEFAULT_ROLE, isProtectedRole, MEMBER_ROLES, type MemberRole } from '../org/permissions.ts';
import { isUuid } from '../org/resolution.ts';
import type { RequestScope } from '../org/scope.ts';
import type { AddMemberBody } from '../schemas/access.ts';
import { accessErrors } from './access.errors.ts';
import { insertNewAccountInvitation } from './access.repository.ts';

export interface AccessContext extends ChangeContext {
  config: Config;
  scope: RequestScope;
}

export interface MemberInput extends RoleGrant {
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
 * The access API's rules (docs/access.md) with the role check: e-mail trimmed and lower-cased (required),
 * role upper-cased (default AGENT; SUPER_ADMIN refused; others outside the list refused).
 */
export function parseMemberInput(body: Static<typeof AddMemberBody>, options: { allowSuperAdmin: boolean }): MemberInput {
  const email = normalizeEmail(body.email);
  if (!email) throw identityErrors.missingEmail();
  const role = (typeof body.role === 'string' && body.role.trim() ? body.role.trim() : DEFAULT_ROLE).toUpperCase();
  if (isProtectedRole(role) && !options.allowSuperAdmin) throw accessErrors.forbiddenRole();
  const allowed: readonly string[] = options.allowSuperAdmin ? MEMBER_ROLES : ASSIGNABLE_ROLES;
  if (!allowed.includes(role)) throw accessErrors.invalidRole();
  if (!isPlausibleEmail(email)) throw identityErrors.invalidEmail();
  return { email, role: role as MemberRole, firstName: cleanFirstName(body.first_name) };
}

/**
 * Invitations (first ones and re-sends, from every organization and staff) one address may
 * receive per window, whoever sends them. Counted in the transaction that writes the e-mail,
 * so only e-mails actually sent count.
 */
export const INVITATIONS = { name: 'invitation', max: 5, windowMs: 15 * 60 * 1000 };

/** "Invité par" in the activation e-mail: who, with their status. */
function inviterOf(scope: RequestScope): Inviter {
  const { caller, role } = scope;
  // A member who passed the gate has a role; staff have none.
  return { firstName: caller.firstName, email: caller.email, status: roleLabel(role ?? caller.staffLevel ?? 'STAFF') };
}

/** The organization acted on: as the gate read it with the scope, else read now. */
async function requireOrganization(db: Database, scope: RequestScope): Promise<{ id: string; name: string }> {
  const { orgId, orgName } = scope;
  if (!orgId) throw orgErrors.noActiveOrg();
  if (orgName) return { id: orgId, name: orgName };
  const org = await findOrganization(db, orgId);
  if (!org) throw orgErrors.orgNotFound();
  return org;
}

/** The activation e-mail of an invitation to `org` with `role`, its link carrying `token`. */
function activationMailOf(
  ctx: AccessContext,
  account: Pick<Account, 'email' | 'user_metadata'>,
  org: { name: string },
  role: string,
  token: string,
): OutgoingMail {
  const mail = activationEmail({
    firstName: firstNameOf(account.user_metadata),
    orgName: org.name,
    role,
    inviter: inviterOf(ctx.scope),
    activationUrl: activationUrl(ctx.config.publicUrl, token, 'invite'),
    supportEmail: ctx.config.supportEmail,
  });
  return { kind: 'activation', to: account.email, ...mail };
}

async function queueActivationMail(
  ctx: AccessContext,
  change: Change,
  account: Pick<Account, 'id' | 'email' | 'user_metadata'>,
  org: { id: string; name: string },
  role: string,
): Promise<void> {
  await limitPerAddress(change.trx, INVITATIONS, account.email);
  const token = await issueOneTimeToken(change.trx, account.id, 'invite', org.id);
  await change.mail(activationMailOf(ctx, account, org, role, token));
}

/** A write that failed on the organization's foreign key: it was deleted meanwhile. */
function orgDeleted(error: unknown): boolean {
  return (error as { code?: unknown }).code === '23503';
}

/**
 * The access API's rules (docs/access.md) for an e-mail with no account (the common case of an invitation), in one
 * statement: the account, membership, token, e-mail and audit event (`insertNewAccountInvitation`).
 * The rows are those of the general way (`grantRole`, `queueActivationMail`, the audit event of
 * `addMember`); only the round trips differ. Returns the new account's id, or null when the
 * statement wrote nothing (an existing account, the address's limit reached): the general way
 * then decides.
 */
async function inviteNewAccount(ctx: AccessContext, org: { id: string; name: string }, input: MemberInput): Promise<string | null> {
  const { caller } = ctx.scope;
  const account = { id: randomUUID(), email: input.email, ...invitedAccount(org, input) };
  const token = newOneTimeToken(account.id, 'invite', org.id);
  const mail = activationMailOf(ctx, { email: account.email, user_metadata: account.metadata }, org, input.role, token.token);
  let created: boolean;
  try {
    created = await insertNewAccountInvitation(ctx.db, {
      account,
      membership: { org_id: org.id, role: input.role },
      limit: INVITATIONS,
      token: token.row,
      mail: outboxRow(mail),
      event: {
        org_id: org.id,
        action: 'invited',
        ...actorOf(caller),
        target_user_id: account.id,
        target_email: account.email,
        old_role: null,
        new_role: input.role,
      },
    });
  } catch (error) {
    if (orgDeleted(error)) throw orgErrors.orgNotFound();
    throw error;
  }
  if (!created) return null;
  ctx.mail?.nudge();
  return account.id;
}

/**
 * A change of one organization's memberships. The organization was read just before; if it is
 * deleted meanwhile, the write fails on its foreign key, which is answered as an organization
 * that does not exist, not as a database message.
 */
async function inOrganization<T>(ctx: AccessContext, work: (change: Change) => Promise<T>): Promise<T> {
  try {
    return await applyChange(ctx, work);
  } catch (error) {
    if (orgDeleted(error)) throw orgErrors.orgNotFound();
    throw error;
  }
}

/**
 * The access API's rules (docs/access.md). Returns the documented message: `Invitation envoyée` when the e-mail
 * matched no account, else `Utilisateur ajouté à l'organisation`.
 */
export async function addMember(ctx: AccessContext, input: MemberInput): Promise<{ message: string; userId: string }> {
  const org = await requireOrganization(ctx.db, ctx.scope);
  const invited = await inviteNewAccount(ctx, org, input);
  if (invited) return { message: MESSAGES.invited, userId: invited };
  const { caller } = ctx.scope;
  return inOrganization(ctx, async (change) => {
    const { account, created, previous, action } = await grantRole(change.trx, org, input, (previous, account) => {
      if (previous && isProtectedRole(previous.role)) throw accessErrors.protectedSuperAdmin();
      // Nobody changes their own role (an administrator would demote themselves).
      if (previous && account.id === caller.userId && previous.role !== input.role) throw accessErrors.cannotChangeOwnRole();
    });
    if (created) {
      await queueActivationMail(ctx, change, account, org, input.role);
    } else if (action === 'role_changed') {
      const mail = accessUpdatedEmail({
        firstName: firstNameOf(account.user_metadata),
        orgName: org.name,
        oldRole: previous!.role,
        newRole: input.role,
        updatedBy: caller.email || 'Administrateur',
        updatedAt: formatMailDate(new Date(), ctx.config.mailTimezone),
        accessUrl: `${ctx.config.publicUrl}/vos-acces`,
        supportEmail: ctx.config.supportEmail,
      });
      await change.mail({ kind: 'access_updated', to: account.email, ...mail });
    }
    if (action) {
      await change.audit({
        org_id: org.id,
        action,
        ...actorOf(caller),
        target_user_id: account.id,
        target_email: account.email,
        old_role: previous?.role ?? null,
        new_role: input.role,
      });
    }
    return { message: created ? MESSAGES.invited : MESSAGES.added, userId: account.id };
  });
}

/** `DELETE /api/access/{user_id}`. */
export async function revokeMember(ctx: AccessContext, userId: string): Promise<void> {
  const { caller, orgId } = ctx.scope;
  if (userId === caller.userId) throw accessErrors.cannotRevokeSelf();
  if (!orgId) throw orgErrors.noActiveOrg();
  if (!isUuid(userId)) throw accessErrors.memberNotFound();
  await applyChange(ctx, async (change) => {
    const membership = await members.lockMembership(change.trx, orgId, userId);
    if (!membership) throw accessErrors.memberNotFound();
    if (isProtectedRole(membership.role)) throw accessErrors.protectedSuperAdmin();
    if (membership.revoked) return; // already revoked: nothing changes, nothing to record
    await members.revokeMembership(change.trx, orgId, userId);
    const target = await findUserById(change.trx, userId);
    await change.audit({
      org_id: orgId,
      action: 'revoked',
      ...actorOf(caller),
      target_user_id: userId,
      target_email: target?.email ?? null,
      old_role: membership.role,
      new_role: null,
    });
  });
}

/** `POST /api/access/{user_id}/resend`, a fresh invitation for a pending member. */
export async function resendInvitation(ctx: AccessContext, userId: string): Promise<void> {
  const org = await requireOrganization(ctx.db, ctx.scope);
  if (!isUuid(userId)) throw accessErrors.memberNotFound();
  await applyChange(ctx, async (change) => {
    const membership = await members.lockMembership(change.trx, org.id, userId);
    const account = membership ? await findUserById(change.trx, userId) : undefined;
    if (!membership || !account) throw accessErrors.memberNotFound();
    if (membership.revoked) throw accessErrors.memberRevoked();
    if (account.activated_at) throw accessErrors.alreadyActivated();
    await queueActivationMail(ctx, change, account, org, membership.role);
    await change.audit({
      org_id: org.id,
      action: 'invitation_resent',
      ...actorOf(ctx.scope.caller),
      target_user_id: userId,
      target_email: account.email,
      old_role: membership.role,
      new_role: membership.role,
    });
  });
}

/**
 * `POST /api/access/nouveau` (staff only). Creates or updates the access, any
 * role including SUPER_ADMIN, and always sends the activation e-mail.
 */
export async function createAccess(ctx: AccessContext, input: MemberInput): Promise<{ userId: string; created: boolean }> {
  const org = await requireOrganization(ctx.db, ctx.scope);
  try {
    return await inOrganization(ctx, async (change) => {
      const { account, created, previous, action } = await grantRole(change.trx, org, input);
      await queueActivationMail(ctx, change, account, org, input.role);
      await change.audit({
        org_id: org.id,
        action: action ?? 'invitation_resent',
        ...actorOf(ctx.scope.caller),
        target_user_id: account.id,
        target_email: account.email,
        old_role: previous?.role ?? null,
        new_role: input.role,
      });
      return { userId: account.id, created };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'organization_members_one_super_admin')) throw accessErrors.superAdminExists();
    throw error;
  }
}
