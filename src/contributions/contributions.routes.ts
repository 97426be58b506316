/**
 * Contribution calls: `POST /api/staff/cotisations` (staff), `GET /api/cotisations`
 * (money set). Staff: their list, the notification by e-mail and the payment.
 */
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { CsvFile, IdParams, useFieldErrors, errorResponses, type IdRoute } from '../http/schemas.ts';
import { orgScope, staffCaller } from '../org/scope.ts';
import {
  ContributionCall,
  ContributionCallBody,
  ContributionCallList,
  ContributionListQuery,
  ContributionPaidBody,
  StaffContributionCall,
  StaffContributionCallList,
  StaffContributionListQuery,
  ContributionExportQuery,
  StaffContributionExportQuery,
} from '../schemas/invoices.ts';
import * as contributions from './contributions.service.ts';
import { contributionCallsCsv, staffContributionCallsCsv } from './contributions.csv.ts';
import { sendCsv } from '../format/csv.ts';

const errors = errorResponses();
const changeErrors = errorResponses(409);

export default async function contributionsRoutes(fastify: FastifyInstance): Promise<void> {
  const { db } = fastify;
  const ctx = { db, mail: fastify.mail, config: fastify.config };
  contributions.useConfigForCalls(fastify.config);
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
    async (request, reply) =>
      reply.code(201).send(await contributions.createContributionCall(ctx, staffCaller(request), request.body as Record<string, unknown>)),
  );

  fastify.get<{ Querystring: Static<typeof StaffContributionListQuery> }>(
    '/api/staff/cotisations',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['cotisations'],
        summary: "Every organization's contribution calls (or `org_id`'s), newest period first; `period` (YYYY-MM) and `status` (a_payer, paye) filters",
        querystring: StaffContributionListQuery,
        response: { 200: StaffContributionCallList, ...errors },
      },
    },
    async (request) => contributions.listStaffContributionCalls(db, request.query),
  );

  // Every page of the list as CSV (format/csv.ts).
  fastify.get<{ Querystring: Static<typeof StaffContributionExportQuery> }>(
    '/api/staff/cotisations.csv',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['cotisations'],
        summary: 'The contribution calls of the list (same filters, every page), an amount column per organism, as CSV',
        querystring: StaffContributionExportQuery,
        produces: ['text/csv'],
        response: { 200: CsvFile, ...errors },
      },
    },
    async (request, reply) => sendCsv(reply, staffContributionCallsCsv(db, request.query)),
  );

  fastify.post<IdRoute>(
    '/api/staff/cotisations/:id/notifier',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['cotisations'],
        summary:
          'E-mail the call to its organization (To email_notifs, Cc email_notifs_cc) through the outbox, and set notified_at; 409 no_recipient without an address, 409 already_paid once paid',
        params: IdParams,
        response: { 200: StaffContributionCall, ...changeErrors },
      },
    },
    async (request) => contributions.notifyContributionCall(ctx, staffCaller(request), request.params.id),
  );

  fastify.post<{ Params: Static<typeof IdParams>; Body: Static<typeof ContributionPaidBody> }>(
    '/api/staff/cotisations/:id/paye',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['cotisations'],
        summary: 'The call was paid (status paye) on paid_date, never in the future; 409 already_paid',
        params: IdParams,
        body: ContributionPaidBody,
        response: { 200: StaffContributionCall, ...changeErrors },
      },
    },
    async (request) => contributions.markContributionCallPaid(ctx, staffCaller(request), request.params.id, (request.body ?? {}) as { paid_date?: unknown }),
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

  fastify.get<{ Querystring: Static<typeof ContributionExportQuery> }>(
    '/api/cotisations.csv',
    {
      config: { gate: 'money' },
      schema: {
        tags: ['cotisations'],
        summary: "The organization's contribution calls (`period` filters, every page), an amount column per organism, as CSV",
        querystring: ContributionExportQuery,
        produces: ['text/csv'],
        response: { 200: CsvFile, ...errors },
      },
    },
    async (request, reply) => sendCsv(reply, contributionCallsCsv(db, orgScope(request).orgId, request.query)),
  );
}
