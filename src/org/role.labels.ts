/** The French words of member roles and staff levels, in pages and e-mails alike. */
const ROLE_LABELS: Record<string, string> = {
  ADMIN: 'Administrateur',
  SUPER_ADMIN: 'Administrateur principal',
  AGENT: 'Agent',
  COMPTA: 'Comptabilité',
  STAFF: 'Membre (équipe interne)',
  SUPER_STAFF: 'Super-administrateur (équipe interne)',
};

/**
 * The French label of a member role or staff level; an unknown value is shown as it is.
 * @example roleLabel('COMPTA') // 'Comptabilité'
 */
export function roleLabel(role: string): string {
  return Object.hasOwn(ROLE_LABELS, role) ? ROLE_LABELS[role]! : role;
}
