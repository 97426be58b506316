/**
 * Staff accounts: creation by the command line (`staff create`) and
 * by `POST /api/staff/users/invite`. A new staff account is activated at once and gets the
 * activation e-mail, written to the outbox in the same transaction.
 */
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { StaffLevel } from '../db/schema.ts';
import { actorOf } from '../audit/audit.repository.ts';
import { applyChange, type ChangeContext } from '../audit/change.ts';
import { accessErrors } from '../access/access.errors.ts';
import { INVITATIONS } from '../access/access.service.ts';
import { readFirstName } from '../http/input.ts';
import { limitPerAddress } from '../http/rate-limit-store.ts';
import { isPlausibleEmail, normalizeEmail } from '../identity/email.ts';
import { identityErrors } from '../identity/identity.errors.ts';
import { markActivated, upsertAuthPreferences } from '../identity/identity.repository.ts';
import { activationUrl, ensureAccount, firstNameOf, issueOneTimeToken } from '../identity/identity.service.ts';
import { roleLabel } from '../org/role.labels.ts';
import { staffWelcomeEmail } from './staff.mail.ts';
import * as repo from './staff.repository.ts';

export const STAFF_LEVELS = ['STAFF', 'SUPER_STAFF'] as const;

export function isStaffLevel(value: string): value is StaffLevel {
  return (STAFF_LEVELS as readonly string[]).includes(value);
}

export interface CreateStaffUserInput {
  /** Trimmed and lower-cased here; must look like an address. */
  email: string;
  /** Stored as `first_name` only when the account is created. */
  firstName?: string | null;
  level: StaffLevel;
  /**
   * The staff member who asked for it (shown in the e-mail, recorded in the audit trail);
   * null for the command line.
   */
  invitedBy: { email: string; userId?: string; firstName?: string | null; staffLevel?: string | null } | null;
}

/**
 * Creates the staff account, or makes an existing account staff again (a revoked staff
 * member is brought back). The account is marked activated, signs in by link only, and is
 * sent the activation e-mail with a fresh invitation link. Who may create a SUPER_STAFF is
 * the caller's business; an active SUPER_STAFF is never demoted by being created again.
 *
 * @returns the account id, and `created` true when the account did not exist before.
 */
export async function createStaffUser(
  db: Database,
  config: Config,
  input: CreateStaffUserInput,
  mail?: ChangeContext['mail'],
): Promise<{ userId: string; created: boolean }> {
  const email = normalizeEmail(input.email);
  if (!email) throw identityErrors.missingEmail();
  if (!isPlausibleEmail(email)) throw identityErrors.invalidEmail();
  const firstName = readFirstName(input.firstName);
  if (firstName === null) throw accessErrors.invalidFirstName();

  return applyChange({ db, mail }, async ({ trx, audit, mail: queueMail }) => {
    const { account, created } = await ensureAccount(trx, email, { first_name: firstName || null });
    const previous = await repo.lockStaffUser(trx, account.id);
    const wasActive = previous?.is_staff === true;
    const level: StaffLevel = wasActive && previous.level === 'SUPER_STAFF' ? 'SUPER_STAFF' : input.level;

    await repo.upsertStaffUser(trx, account.id, level);
    await markActivated(trx, account.id);
    await upsertAuthPreferences(trx, account.id, { allow_magic_link: true, allow_password: false });

    await limitPerAddress(trx, INVITATIONS, account.email);
    const token = await issueOneTimeToken(trx, account.id, 'invite');
    const by = input.invitedBy;
    const mail = staffWelcomeEmail({
      firstName: firstNameOf(account.user_metadata) ?? (firstName || null),
      level,
      addedBy: by ? { firstName: by.firstName ?? null, email: by.email, status: roleLabel(by.staffLevel ?? 'STAFF') } : null,
      signInUrl: activationUrl(config.publicUrl, token, 'invite'),
      supportEmail: config.supportEmail,
    });
    await queueMail({ kind: 'activation', to: account.email, ...mail });

    await audit({
      org_id: null,
      action: 'staff_invited',
      ...actorOf(input.invitedBy),
      target_user_id: account.id,
      target_email: account.email,
      old_role: wasActive ? previous.level : null,
      new_role: level,
    });
    return { userId: account.id, created };
  });
}
