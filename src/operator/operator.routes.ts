/** `GET` and `PATCH /api/staff/operator`: the operator's identity and bank account (staff only). */
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { errorResponses, useFieldErrors } from '../http/schemas.ts';
import { OperatorSettings, OperatorSettingsBody } from '../schemas/operator.ts';
import { staffCaller } from '../org/scope.ts';
import { readOperatorSettings, updateOperatorSettings } from './operator.service.ts';

export default async function operatorRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, config } = fastify;
  useFieldErrors(fastify);

  fastify.get(
    '/api/staff/operator',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: "The operator's identity and bank account in force (saved here, else the OPERATOR_* environment variables), and what a missing one disables",
        response: { 200: OperatorSettings, ...errorResponses() },
      },
    },
    async () => readOperatorSettings(db, config),
  );

  fastify.patch<{ Body: Static<typeof OperatorSettingsBody> }>(
    '/api/staff/operator',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: "Save some of the operator's settings (checked as the environment variables are; null goes back to the variable)",
        body: OperatorSettingsBody,
        response: { 200: OperatorSettings, ...errorResponses() },
      },
    },
    async (request) => updateOperatorSettings({ db, mail: fastify.mail }, config, staffCaller(request), request.body),
  );
}
