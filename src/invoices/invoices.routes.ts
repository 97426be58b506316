/**
 * Invoices: the staff's `/api/staff/facturation` (bulk creation, list, detail, PDF,
 * bulk notification) and the client's `/api/factures`, gated on the money set.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { BULK_BODY_LIMIT } from '../http/bulk.ts';
import { CsvFile, IdParams, useFieldErrors, errorResponses, type IdRoute } from '../http/schemas.ts';
import { orgScope, staffCaller } from '../org/scope.ts';
import {
  BulkCreateBody,
  BulkCreated,
  BulkNotified,
  BulkNotifyBody,
  CreatedCreditNote,
  CreditExceedsInvoice,
  CreditNoteBody,
  CreditNoteRefused,
  InvoiceList,
  IssueDateBeforeLast,
  InvoiceListQuery,
  PdfLink,
  StaffInvoice,
  StaffInvoiceListQuery,
  InvoiceExportQuery,
  StaffInvoiceExportQuery,
} from '../schemas/invoices.ts';
import * as invoices from './invoices.service.ts';
import { JOB_KINDS } from '../jobs/kinds.ts';
import { invoicesCsv, staffInvoicesCsv } from './invoices.csv.ts';
import { sendCsv } from '../format/csv.ts';
import { attachment } from '../http/content-disposition.ts';

const errors = errorResponses(409, 413);

export default async function invoicesRoutes(fastify: FastifyInstance): Promise<void> {
  const { db } = fastify;
  const ctx = { db, config: fastify.config, mail: fastify.mail, jobs: fastify.jobs, files: fastify.files };
  fastify.jobs.define(JOB_KINDS.invoiceDocument, (job) => invoices.runInvoiceDocumentJob(ctx, job));
  useFieldErrors(fastify);

  fastify.post<{ Body: Static<typeof BulkCreateBody> }>(
    '/api/staff/facturation/bulk-create',
    {
      config: { gate: 'staff' },
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags: ['facturation'],
        summary: 'Create 1 to 5,000 invoices, all or nothing, numbered F-YYYY-NNNNNN in request order, never dated before the last one',
        body: BulkCreateBody,
        response: { 201: BulkCreated, ...errors, 409: IssueDateBeforeLast },
      },
    },
    async (request, reply) => reply.code(201).send(await invoices.bulkCreate(ctx, staffCaller(request), request.body)),
  );

  fastify.get<{ Querystring: Static<typeof StaffInvoiceListQuery> }>(
    '/api/staff/facturation',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['facturation'],
        summary: 'Invoices of every organization (or of `org_id`), newest number first; `notified`, `invoice_type` filters',
        querystring: StaffInvoiceListQuery,
        response: { 200: InvoiceList, ...errors },
      },
    },
    async (request) => invoices.listStaffInvoices(db, request.query),
  );

  // Every page of the list as CSV (format/csv.ts), for the people who reconcile.
  fastify.get<{ Querystring: Static<typeof StaffInvoiceExportQuery> }>(
    '/api/staff/facturation.csv',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['facturation'],
        summary: 'The invoices and credit notes of the list (same filters, every page), and `period` (issued that month), as CSV',
        querystring: StaffInvoiceExportQuery,
        produces: ['text/csv'],
        response: { 200: CsvFile, ...errors },
      },
    },
    async (request, reply) => sendCsv(reply, staffInvoicesCsv(db, request.query)),
  );

  fastify.post<{ Body: Static<typeof BulkNotifyBody> }>(
    '/api/staff/facturation/bulk-notify',
    {
      config: { gate: 'staff' },
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags: ['facturation'],
        summary:
          'E-mail each invoice to its organization (To email_notifs, Cc email_notifs_cc); the result per invoice (waiting: sent once its document is made)',
        body: BulkNotifyBody,
        response: { 200: BulkNotified, ...errors },
      },
    },
    async (request) => invoices.bulkNotify(ctx, staffCaller(request), request.body),
  );

  fastify.get<IdRoute>(
    '/api/staff/facturation/:id',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['facturation'],
        summary: "An invoice with its organization's notification addresses",
        params: IdParams,
        response: { 200: StaffInvoice, ...errors },
      },
    },
    async (request) => {
      staffCaller(request);
      return invoices.readStaffInvoice(db, request.params.id);
    },
  );

  fastify.get<IdRoute>(
    '/api/staff/facturation/:id/pdf-url',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['facturation'],
        summary: 'A link (5 minutes) to the invoice PDF; 409 document_pending while its document is being made (document_failed if that failed)',
        params: IdParams,
        response: { 200: PdfLink, ...errors, 409: CreditExceedsInvoice },
      },
    },
    async (request) => {
      staffCaller(request);
      return invoices.invoicePdfUrl(ctx, null, request.params.id);
    },
  );

  fastify.post<{ Params: Static<typeof IdParams>; Body: Static<typeof CreditNoteBody> }>(
    '/api/staff/facturation/:id/avoir',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['facturation'],
        summary: 'Credit an invoice: a credit note A-YYYY-NNNNNN of some or all of its lines; 409 credit_exceeds_invoice beyond its total',
        params: IdParams,
        body: CreditNoteBody,
        response: { 201: CreatedCreditNote, ...errors, 400: CreditNoteRefused, 409: CreditExceedsInvoice },
      },
    },
    async (request, reply) => reply.code(201).send(await invoices.createCreditNote(ctx, staffCaller(request), request.params.id, request.body)),
  );

  const facturXml = {
    tags: ['facturation'],
    summary: 'The invoice as EN 16931 data: the factur-x.xml embedded in its PDF, byte for byte (UN/CEFACT CII D16B)',
    params: IdParams,
    produces: ['application/xml'],
    response: { 200: Type.String({ description: 'CII D16B XML, profile EN 16931' }), ...errors, 409: CreditExceedsInvoice },
  };
  const sendXml = (reply: FastifyReply, file: { filename: string; xml: Buffer }) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('content-disposition', attachment(file.filename))
      .header('cache-control', 'private, no-store')
      .send(file.xml);

  fastify.get<IdRoute>('/api/staff/facturation/:id/factur-x.xml', { config: { gate: 'staff' }, schema: facturXml }, async (request, reply) => {
    staffCaller(request);
    return sendXml(reply, await invoices.invoiceFacturXml(ctx, null, request.params.id));
  });

  // ---- The organization's invoices (money set).

  fastify.get<IdRoute>('/api/factures/:id/factur-x.xml', { config: { gate: 'money' }, schema: { ...facturXml, tags: ['factures'] } }, async (request, reply) =>
    sendXml(reply, await invoices.invoiceFacturXml(ctx, orgScope(request).orgId, request.params.id)),
  );

  fastify.get<{ Querystring: Static<typeof InvoiceListQuery> }>(
    '/api/factures',
    {
      config: { gate: 'money' },
      schema: {
        tags: ['factures'],
        summary: "The organization's invoices, newest number first",
        querystring: InvoiceListQuery,
        response: { 200: InvoiceList, ...errors },
      },
    },
    async (request) => invoices.listInvoices(db, orgScope(request).orgId, request.query),
  );

  fastify.get<{ Querystring: Static<typeof InvoiceExportQuery> }>(
    '/api/factures.csv',
    {
      config: { gate: 'money' },
      schema: {
        tags: ['factures'],
        summary: "The organization's invoices and credit notes (filters of the list, every page; `period`: issued that month), as CSV",
        querystring: InvoiceExportQuery,
        produces: ['text/csv'],
        response: { 200: CsvFile, ...errors },
      },
    },
    async (request, reply) => sendCsv(reply, invoicesCsv(db, orgScope(request).orgId, request.query)),
  );

  fastify.get<IdRoute>(
    '/api/factures/:id/pdf-url',
    {
      config: { gate: 'money' },
      schema: {
        tags: ['factures'],
        summary: 'A link (5 minutes) to the invoice PDF; 409 document_pending while its document is being made (document_failed if that failed)',
        params: IdParams,
        response: { 200: PdfLink, ...errors, 409: CreditExceedsInvoice },
      },
    },
    async (request) => invoices.invoicePdfUrl(ctx, orgScope(request).orgId, request.params.id),
  );
}
