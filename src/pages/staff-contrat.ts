/**
 * `/staff/contrats/{id}`, the link of the contract-note e-mail: a staff member
 * lands on the contract in its organization. That organization becomes their active one
 * exactly as the switcher makes it (`PUT /api/staff/active-org`: the staff settings, the audit
 * event `active_org_selected`, the `active_org_id` cookie), and `/contrats/{id}` shows it.
 *
 * A change of state never rides a GET sent by another site: a page elsewhere
 * could otherwise switch a signed-in staff member's organization with an `<img>` or a link,
 * and the next action would land in the wrong one. Only a GET the browser marks `same-origin`
 * or `none` (typed, a bookmark, a desktop mail client), or one without `Sec-Fetch-Site` (not a
 * browser: no ambient cookie), switches; from elsewhere (a webmail's link is `cross-site`) the
 * page says which contract and organization it is, and its link, followed from our own page,
 * switches.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChangeContext } from '../audit/change.ts';
import { readContract } from '../contracts/contracts.service.ts';
import type { Caller } from '../identity/identity.service.ts';
import { setActiveOrgCookie } from '../org/active-org-cookie.ts';
import { findOrganization } from '../org/org.repository.ts';
import { selectActiveOrg } from '../staff/staff-team.service.ts';
import { html, type SafeHtml } from '../format/html.ts';

/** May this GET change state? Only when no other site sent it (`Sec-Fetch-Site`). */
export function mayChangeStateOnGet(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

/** The contract's id, its organization now the caller's active one; 404 `not_found` when there is no such contract. */
export async function openContractAsStaff(ctx: ChangeContext, caller: Caller, id: string, reply: FastifyReply, secureCookies: boolean): Promise<string> {
  const contract = await readContract(ctx.db, null, id);
  const org = await selectActiveOrg(ctx, caller, contract.org_id);
  setActiveOrgCookie(reply, org.id, secureCookies);
  return contract.id;
}

/** What the page shown to a cross-site GET names (nothing changed); 404 `not_found` as above. */
export async function contractToOpen(ctx: ChangeContext, id: string) {
  const contract = await readContract(ctx.db, null, id);
  const org = await findOrganization(ctx.db, contract.org_id);
  return { id: contract.id, contract_number: contract.contract_number, org_name: org?.name ?? '' };
}

export function renderContractToOpen(c: Awaited<ReturnType<typeof contractToOpen>>): SafeHtml {
  return html`<section class="card" aria-labelledby="open-title">
    <h2 id="open-title">Contrat ${c.contract_number}</h2>
    <p>Ce lien vient d’un autre site. L’ouvrir fait de <strong>${c.org_name}</strong> votre organisation active.</p>
    <p><a class="button" href="/staff/contrats/${c.id}">Ouvrir le contrat dans ${c.org_name}</a></p>
  </section>`;
}
