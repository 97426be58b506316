/** `PATCH /api/staff/orgs/{id}`: the organization fields the modules use. */
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { errorResponses, IdParams, useFieldErrors } from '../http/schemas.ts';
import { Organization, OrgSettingsBody } from '../schemas/organizations.ts';
import { staffCaller } from './scope.ts';
import { updateOrgSettings } from './org-settings.service.ts';

export default async function orgSettingsRoutes(fastify: FastifyInstance): Promise<void> {
  useFieldErrors(fastify);
  fastify.patch<{ Params: Static<typeof IdParams>; Body: Static<typeof OrgSettingsBody> }>(
    '/api/staff/orgs/:id',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'Set the notification addresses, the salary transfer mode, the documents slug, the SIRET, the payroll inputs',
        params: IdParams,
        body: OrgSettingsBody,
        // 403 plain `Forbidden` (not staff) or in the error shape (a cross-site request).
        response: { 200: Organization, ...errorResponses(409) },
      },
    },
    async (request) => updateOrgSettings({ db: fastify.db }, staffCaller(request), request.params.id, request.body),
  );
}
