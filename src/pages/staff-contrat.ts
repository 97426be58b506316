/**
 * `/staff/contrats/{id}`, the link of the contract-note e-mail (MODULES 4): a staff member
 * lands on the contract in its organization. That organization becomes their active one
 * exactly as the switcher makes it (`PUT /api/staff/active-org`: the staff settings, the audit
 * event `active_org_selected`, the `active_org_id` cookie), and `/contrats/{id}` shows it.
 */
import type { FastifyReply } from 'fastify';
import type { ChangeContext } from '../audit/change.ts';
import { readContract } from '../contracts/contracts.service.ts';
import type { Caller } from '../identity/identity.service.ts';
import { setActiveOrgCookie } from '../org/active-org-cookie.ts';
import { selectActiveOrg } from '../staff/staff-team.service.ts';

/** The contract's id, its organization now the caller's active one; 404 `not_found` when there is no such contract. */
export async function openContractAsStaff(ctx: ChangeContext, caller: Caller, id: string, reply: FastifyReply, secureCookies: boolean): Promise<string> {
  const contract = await readContract(ctx.db, null, id);
  const org = await selectActiveOrg(ctx, caller, contract.org_id);
  setActiveOrgCookie(reply, org.id, secureCookies);
  return contract.id;
}
