/**
 * The `active_org_id` cookie (SPEC 4.3 rule 4.1): set when a staff member chooses an
 * organization (`PUT /api/staff/active-org`), and again by `/vos-acces` when it shows the one
 * saved in the staff settings, so that the API acts on the organization the page shows.
 */
import type { FastifyReply } from 'fastify';
import { cookieOptions } from '../http/cookies.ts';

const ONE_YEAR_SECONDS = 365 * 24 * 3600;

export function setActiveOrgCookie(reply: FastifyReply, orgId: string, secure: boolean): void {
  reply.setCookie('active_org_id', orgId, { ...cookieOptions(secure), maxAge: ONE_YEAR_SECONDS });
}
