/**
 * The `active_org_id` cookie: set when a staff member chooses an
 * organization (`PUT /api/staff/active-org`), and again by `/vos-acces` when it shows the one
 * saved in the staff settings, so that the API acts on the organization the page shows.
 */
import type { FastifyReply } from 'fastify';
import { cookieOptions } from '../http/cookies.ts';

const ONE_YEAR_SECONDS = 365 * 24 * 3600;

export function setActiveOrgCookie(reply: FastifyReply, orgId: string, secure: boolean): void {
  reply.setCookie('active_org_id', orgId, { ...cookieOptions(secure), maxAge: ONE_YEAR_SECONDS });
}

/** The organization hints a browser may hold (the hints of docs/access.md). */
const HINT_COOKIES = ['active_org_id', 'active_org_key', 'active_org_name_b64'] as const;

/** Back to no organization (`DELETE /api/staff/active-org`): every hint cookie is cleared. */
export function clearActiveOrgCookies(reply: FastifyReply, secure: boolean): void {
  for (const name of HINT_COOKIES) reply.clearCookie(name, cookieOptions(secure));
}
