/** French words of the pages: roles (shared with the e-mails), statuses, audit actions. */
import { roleLabel } from '../org/role.labels.ts';
import { dateTimeFormat } from '../format/french.ts';

export { roleLabel };

export type MemberStatus = 'active' | 'pending' | 'revoked';

/** A member whose account is not activated yet shows "Invitation envoyée". */
export function memberStatus(item: { revoked: boolean; activated: boolean }): MemberStatus {
  if (item.revoked) return 'revoked';
  return item.activated ? 'active' : 'pending';
}

export const STATUS_LABELS: Record<MemberStatus, string> = {
  active: 'Actif',
  pending: 'Invitation envoyée',
  revoked: 'Révoqué',
};

const ACTION_LABELS: Record<string, string> = {
  invited: 'Invitation',
  added: 'Ajout',
  role_changed: 'Changement de rôle',
  reactivated: 'Réactivation',
  revoked: 'Révocation',
  invitation_resent: 'Invitation renvoyée',
  active_org_selected: "Organisation choisie par l'équipe",
  staff_invited: "Ajout à l'équipe",
  staff_revoked: "Retrait de l'équipe",
};

/**
 * An audit action in French; an unknown action is shown as it is. The command line creates
 * accounts without sending any e-mail (`member add`): that is an addition, not an invitation.
 */
export function actionLabel(action: string, byCommandLine = false): string {
  if (byCommandLine && action === 'invited') return 'Ajout, sans e-mail (compte créé)';
  return Object.hasOwn(ACTION_LABELS, action) ? ACTION_LABELS[action]! : action;
}

/** Dates on the pages: `fr-FR`, short, in the service's time zone. */
export function formatPageDate(date: Date | string, timeZone: string): string {
  return dateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone }).format(new Date(date));
}
