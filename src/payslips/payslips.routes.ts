/**
 * Payslips: `/api/payslips` for every role of the organization (the read set), and
 * the staff's `/api/staff/payslips`: publish, attach the PDF, list what a transfer may pay.
 */
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { CsvFile, ErrorBody, IdParams, useFieldErrors, errorResponses, type IdRoute } from '../http/schemas.ts';
import { orgScope, staffCaller } from '../org/scope.ts';
import {
  Payslip,
  PayslipBody,
  PayslipConflictBody,
  PayslipDetail,
  PayslipList,
  PayslipExportQuery,
  PayslipListQuery,
  SignedUrl,
  StaffPayslipExportQuery,
} from '../schemas/payslips.ts';
import * as payslips from './payslips.service.ts';
import { payslipsCsv, staffPayslipsCsv } from './payslips.csv.ts';
import { sendCsv } from '../format/csv.ts';

const errors = errorResponses(409);

export default async function payslipsRoutes(fastify: FastifyInstance): Promise<void> {
  const { db } = fastify;
  const ctx = { db, mail: fastify.mail, files: fastify.files };
  useFieldErrors(fastify);

  fastify.get<{ Querystring: Static<typeof PayslipListQuery> }>(
    '/api/payslips',
    {
      config: { gate: 'read' },
      schema: {
        tags: ['bulletins'],
        summary: 'The payslips, newest period first; `period`, `employee_id` filters',
        querystring: PayslipListQuery,
        response: { 200: PayslipList, ...errors },
      },
    },
    async (request) => payslips.listPayslips(db, orgScope(request).orgId, request.query),
  );

  // The payslips as CSV for the people who reconcile, the money set (the list itself
  // is the read set's: an AGENT sees the payslips on /paie, the export is the accountants').
  fastify.get<{ Querystring: Static<typeof PayslipExportQuery> }>(
    '/api/payslips.csv',
    {
      config: { gate: 'money' },
      schema: {
        tags: ['bulletins'],
        summary: 'The payslips of the list (`period`, `employee_id`; every page) with their amounts, as CSV; the money set only',
        querystring: PayslipExportQuery,
        produces: ['text/csv'],
        response: { 200: CsvFile, ...errors },
      },
    },
    async (request, reply) => sendCsv(reply, payslipsCsv(db, orgScope(request).orgId, request.query)),
  );

  fastify.get<{ Querystring: Static<typeof StaffPayslipExportQuery> }>(
    '/api/staff/payslips.csv',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: "A month's payslips (published and cancelled) of every organization, or of `org_id`, as CSV",
        querystring: StaffPayslipExportQuery,
        produces: ['text/csv'],
        response: { 200: CsvFile, ...errors },
      },
    },
    async (request, reply) => sendCsv(reply, staffPayslipsCsv(db, request.query)),
  );

  fastify.get<IdRoute>(
    '/api/payslips/:id',
    {
      config: { gate: 'read' },
      schema: {
        tags: ['bulletins'],
        summary: 'A payslip with its lines (a computed one); never a draft',
        params: IdParams,
        response: { 200: PayslipDetail, ...errors },
      },
    },
    async (request) => payslips.readPayslipDetail(db, orgScope(request).orgId, request.params.id, false),
  );

  fastify.get<IdRoute>(
    '/api/payslips/:id/pdf-url',
    {
      config: { gate: 'read' },
      schema: {
        tags: ['bulletins'],
        summary:
          'A link (5 minutes) to the payslip PDF; 404 no_pdf when none was attached; 409 document_pending while a computed bulletin is being rendered (document_failed if that failed)',
        params: IdParams,
        response: { 200: SignedUrl, ...errors },
      },
    },
    async (request) => payslips.payslipPdfUrl(ctx, orgScope(request).orgId, request.params.id),
  );

  // ---- Staff.

  fastify.post<{ Body: Static<typeof PayslipBody> }>(
    '/api/staff/payslips',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary:
          'Publish a payslip (status publie); 409 payslip_exists (with its payslip_id) when one that is not cancelled pays this employee, period and contracts',
        body: PayslipBody,
        response: { 201: Payslip, ...errors, 409: PayslipConflictBody },
      },
    },
    async (request, reply) => reply.code(201).send(await payslips.createPayslip(ctx, staffCaller(request), request.body)),
  );

  fastify.get<IdRoute>(
    '/api/staff/payslips/:id',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'A payslip, draft or not, with its lines and the situation given to the model',
        params: IdParams,
        response: { 200: PayslipDetail, ...errors },
      },
    },
    async (request) => payslips.readPayslipDetail(db, null, request.params.id, true),
  );

  fastify.put<IdRoute<{ Body: Buffer }>>(
    '/api/staff/payslips/:id/pdf',
    {
      config: { gate: 'staff', pdfUpload: true },
      schema: {
        tags: ['staff'],
        summary:
          'Attach the payslip PDF (application/pdf, 10 MiB at most), in place of a previous one; 409 payslip_is_draft for a draft (its bulletin is computed)',
        params: IdParams,
        consumes: ['application/pdf'],
        response: { 200: Payslip, ...errors, 413: ErrorBody, 415: ErrorBody },
      },
    },
    async (request) => payslips.attachPayslipPdf(ctx, staffCaller(request), request.params.id, request.body),
  );

  fastify.post<IdRoute>(
    '/api/staff/payslips/:id/cancel',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary:
          'Cancel a payslip (status annule): it is no longer payable, and may be published again; 409 payslip_in_transfer while a batch that is not cancelled holds it, 409 payslip_cancelled when it already is, 409 payslip_is_draft for a draft (recomputed, never cancelled), 409 payslip_has_complement while a complementary payslip completes it',
        params: IdParams,
        response: { 200: Payslip, ...errors, 409: PayslipConflictBody },
      },
    },
    async (request) => payslips.cancelPayslip(ctx, staffCaller(request), request.params.id),
  );
}
