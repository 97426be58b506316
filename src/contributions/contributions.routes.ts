/** Contribution calls (MODULES 6): `POST /api/staff/cotisations` (staff), `GET /api/cotisations` (money set). */
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { useFieldErrors, errorResponses } from '../http/schemas.ts';
import { orgScope, staffCaller } from '../org/scope.ts';
import { ContributionCall, ContributionCallBody, ContributionCallList, ContributionListQuery } from '../schemas/invoices.ts';
import * as contributions from './contributions.service.ts';

const errors = errorResponses();

export default async function contributionsRoutes(fastify: FastifyInstance): Promise<void> {
  const { db } = fastify;
  const ctx = { db, mail: fastify.mail };
  useFieldErrors(fastify);

  fastify.post<{ Body: Static<typeof ContributionCallBody> }>(
    '/api/staff/cotisations',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['cotisations'],
        summary: 'A contribution call for an organization: period, due date, lines { organism, amount }',
        body: ContributionCallBody,
        response: { 201: ContributionCall, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await contributions.createContributionCall(ctx, staffCaller(request), request.body as Record<string, unknown>)),
  );

  fastify.get<{ Querystring: Static<typeof ContributionListQuery> }>(
    '/api/cotisations',
    {
      config: { gate: 'money' },
      schema: {
        tags: ['cotisations'],
        summary: "The organization's contribution calls, newest period first",
        querystring: ContributionListQuery,
        response: { 200: ContributionCallList, ...errors },
      },
    },
    async (request) => contributions.listContributionCalls(db, orgScope(request).orgId, request.query),
  );
}
