/**
 * The navigation bar: the pages a caller may open, decided by the same gates as
 * their API (`can()` of `src/org/permissions.ts`), so that the bar never offers a page that
 * would answer 403. A page route declares its gate like an API route (`config: { gate }`); this
 * table only says where each page is and which gate opens it.
 */
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import type { Caller } from '../identity/identity.service.ts';
import { can, type Gate } from '../org/permissions.ts';
import { activeOrgOf, readMembership, type MembershipFact } from '../org/scope.ts';
import { html, type SafeHtml } from '../format/html.ts';

export interface NavEntry {
  href: string;
  label: string;
  /** The gate of the page (and of the API it shows). */
  gate: Gate;
  /** Other pages the entry stands for, highlighted as its own (staff's entry for a client page). */
  also?: readonly string[];
  /** Left out of staff's bar: their own entry of the same name stands for this page (`also`). */
  membersOnly?: boolean;
}

/**
 * Every page of the bar, in its order. Staff see one entry per task, each name once: their
 * "Contrats", "Paie" and "Facturation" also stand for the organization's own pages of those
 * names, which they open from there (a contract's page links to its organization's list).
 */
export const NAV: readonly NavEntry[] = [
  { href: '/contrats', label: 'Contrats', gate: 'contract', membersOnly: true },
  { href: '/paie', label: 'Paie', gate: 'read', membersOnly: true },
  { href: '/factures', label: 'Factures', gate: 'money', membersOnly: true },
  { href: '/staff/organisations', label: 'Organisations', gate: 'staff' },
  { href: '/staff/contrats', label: 'Contrats', gate: 'staff', also: ['/contrats'] },
  { href: '/staff/paie', label: 'Paie', gate: 'staff', also: ['/paie'] },
  { href: '/staff/virements', label: 'Virements', gate: 'staff' },
  { href: '/staff/cotisations', label: 'Cotisations', gate: 'staff' },
  { href: '/staff/facturation', label: 'Facturation', gate: 'staff', also: ['/factures'] },
  { href: '/staff/travaux', label: 'Travaux en échec', gate: 'staff' },
  { href: '/vos-acces', label: 'Accès', gate: 'signedIn' },
  { href: '/staff/equipe', label: 'Équipe interne', gate: 'staff' },
  { href: '/staff/operateur', label: 'Opérateur', gate: 'staff' },
];

/** The entries a caller with this membership (in the page's organization) may open. */
export function navFor(caller: Caller | null, membership: MembershipFact): NavEntry[] {
  return NAV.filter((entry) => !(caller?.isStaff && entry.membersOnly) && can(caller, membership, entry.gate) === 'allowed');
}

/**
 * The page a caller works in, first of these that their bar offers: where `/` and the sign-in
 * lead, and the way back from a refused page. Staff start from the organizations (the module
 * pages need one chosen); a member from their role's page (AGENT and ADMIN: the contracts;
 * COMPTA: the invoices); a member without a role in the organization, from their accesses.
 */
export const HOME_PAGES = ['/staff/organisations', '/contrats', '/factures', '/paie', '/vos-acces'] as const;

export function homeOf(entries: readonly NavEntry[]): string {
  return HOME_PAGES.find((href) => entries.some((e) => e.href === href)) ?? '/vos-acces';
}

/** The membership as `can()` takes it, from a gated page's scope (the gate has already read it). */
export function membershipOfScope(request: FastifyRequest): MembershipFact {
  const role = request.scope?.role ?? null;
  return role === null ? undefined : { role, revoked: false };
}

/** For a page without an organization gate (`/vos-acces`): the membership in the organization that docs/access.md's resolution gives. */
export async function membershipOfRequest(db: Database, request: FastifyRequest): Promise<MembershipFact> {
  const caller = request.caller;
  if (!caller || caller.isStaff) return undefined;
  const { orgId } = await activeOrgOf(db, request, 'staffSettings');
  return orgId ? readMembership(db, orgId, caller.userId) : undefined;
}

/** Whether `path` is the page `href` or one under it. */
const isUnder = (path: string, href: string) => path === href || path.startsWith(`${href}/`);

/** The one entry the path is in (its own page first, then the pages it stands for), or none. */
export function currentEntry(entries: readonly NavEntry[], currentPath: string): NavEntry | undefined {
  return entries.find((e) => isUnder(currentPath, e.href)) ?? entries.find((e) => e.also?.some((href) => isUnder(currentPath, href)));
}

/** The bar: `aria-current` on the entry the path is in, and on that one only. */
export function renderNav(entries: readonly NavEntry[], currentPath: string): SafeHtml {
  if (entries.length === 0) return html``;
  const current = currentEntry(entries, currentPath);
  return html`<nav class="main-nav" aria-label="Rubriques">
  <ul>${entries.map((e) => html`<li><a href="${e.href}"${e === current ? html` aria-current="page"` : ''}>${e.label}</a></li>`)}</ul>
</nav>`;
}
