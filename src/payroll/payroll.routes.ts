/** The payroll run's routes, staff only: compute, follow, validate. */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { errorResponses, IdParams, useFieldErrors, type IdRoute } from '../http/schemas.ts';
import { staffCaller } from '../org/scope.ts';
import { NotDraftBody, PayrollMonth, PayrollMonthQuery, PayrollRun, PayrollRunBody, PayrollValidateBody, RunStarted, Validated } from '../schemas/payroll.ts';
import { isUuid } from '../http/input.ts';
import { attachment } from '../http/content-disposition.ts';
import { draftBulletin } from './bulletins.ts';
import { payrollErrors } from './payroll.errors.ts';
import * as payroll from './payroll.service.ts';

const errors = errorResponses(413);

export default async function payrollRoutes(fastify: FastifyInstance): Promise<void> {
  const { db } = fastify;
  const ctx = { db, mail: fastify.mail, jobs: fastify.jobs, files: fastify.files };
  useFieldErrors(fastify);

  fastify.post<{ Body: Static<typeof PayrollRunBody> }>(
    '/api/staff/paie/calcul',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary:
          "Compute an organization's month from its contracts (a durable job): 202 with the run, or the one already running for this organization and period",
        body: PayrollRunBody,
        response: { 202: RunStarted, ...errors },
      },
    },
    async (request, reply) => {
      // Its job queued, the workers are nudged after the commit (`ctx.jobs`).
      const { run_id } = await payroll.startRun(ctx, staffCaller(request), request.body);
      return reply.code(202).send({ run_id });
    },
  );

  fastify.get<IdRoute>(
    '/api/staff/paie/runs/:id',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'A run: its progress (done/total) while en_cours; its drafts and skipped contracts once termine; its reason once echoue',
        params: IdParams,
        response: { 200: PayrollRun, ...errors },
      },
    },
    async (request) => payroll.readRun(db, request.params.id),
  );

  fastify.get<{ Querystring: Static<typeof PayrollMonthQuery> }>(
    '/api/staff/paie/mois',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary:
          "An organization's month as it stands: its current drafts (whatever run made them), the contracts the last finished run skipped, and the last run's progress",
        querystring: PayrollMonthQuery,
        response: { 200: PayrollMonth, ...errors },
      },
    },
    async (request) => payroll.readMonth(db, request.query),
  );

  fastify.post<{ Body: Static<typeof PayrollValidateBody> }>(
    '/api/staff/paie/valider',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary:
          "Validate the period's drafts (or those named): published, and the contribution call made, in one transaction with their bulletins' jobs (rendered after the commit); 409 payslip_not_draft, nothing changed",
        body: PayrollValidateBody,
        response: { 200: Validated, ...errors, 409: NotDraftBody },
      },
    },
    async (request) => payroll.validateDrafts(ctx, staffCaller(request), request.body),
  );

  fastify.get<IdRoute>(
    '/api/staff/paie/brouillons/:id/bulletin.pdf',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: "A draft's bulletin, rendered on demand to be checked before validating, never stored; 404 once it is no longer a draft",
        params: IdParams,
        produces: ['application/pdf'],
        response: { 200: Type.String({ description: 'PDF' }), ...errors },
      },
    },
    async (request, reply) => {
      const bulletin = isUuid(request.params.id) ? await draftBulletin(ctx, request.params.id.toLowerCase()) : null;
      if (!bulletin) throw payrollErrors.draftNotFound();
      return reply.type('application/pdf').header('content-disposition', attachment(bulletin.filename)).send(bulletin.content);
    },
  );
}
