/**
 * Salary transfers: the staff's `/api/staff/virements` (make a batch, its SEPA
 * file, executed, cancel) and the organization's `/api/virements` (the money set).
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { CsvFile, ErrorBody, IdParams, useFieldErrors, errorResponses, type IdRoute } from '../http/schemas.ts';
import { BULK_BODY_LIMIT } from '../http/bulk.ts';
import { attachment } from '../http/content-disposition.ts';
import { orgScope, staffCaller } from '../org/scope.ts';
import {
  ClientTransferList,
  ClientTransferExportQuery,
  ClientTransferQuery,
  StaffTransferExportQuery,
  StaffTransferQuery,
  Transfer,
  TransferBody,
  TransferDetail,
  TransferList,
  UnavailableBody,
} from '../schemas/transfers.ts';
import { AvailableList, AvailableQuery } from '../schemas/payslips.ts';
import * as transfers from './transfers.service.ts';
import { orgTransfersCsv, staffTransfersCsv } from './transfers.csv.ts';
import { sendCsv } from '../format/csv.ts';

const errors = errorResponses(409);

export default async function transfersRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, config } = fastify;
  const ctx = { db, config, mail: fastify.mail, files: fastify.files };

  fastify.get<{ Querystring: Static<typeof AvailableQuery> }>(
    '/api/staff/payslips/available',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'The payslips a salary transfer may pay, every organization or `org_id`',
        querystring: AvailableQuery,
        response: { 200: AvailableList, ...errors },
      },
    },
    async (request) => transfers.listAvailablePayslips(db, request.query),
  );
  useFieldErrors(fastify);

  fastify.get<{ Querystring: Static<typeof ClientTransferQuery> }>(
    '/api/virements',
    {
      config: { gate: 'money' },
      schema: {
        tags: ['virements'],
        summary: "The organization's salary transfer batches, newest execution date first (never an IBAN)",
        querystring: ClientTransferQuery,
        response: { 200: ClientTransferList, ...errors },
      },
    },
    async (request) => transfers.listOrgTransfers(db, orgScope(request).orgId, request.query),
  );

  // Every page of the list as CSV (format/csv.ts).
  fastify.get(
    '/api/virements.csv',
    {
      config: { gate: 'money' },
      schema: {
        tags: ['virements'],
        summary: "The organization's salary transfer batches (every page), as CSV (never an IBAN)",
        querystring: ClientTransferExportQuery,
        produces: ['text/csv'],
        response: { 200: CsvFile, ...errors },
      },
    },
    async (request, reply) => sendCsv(reply, orgTransfersCsv(db, orgScope(request).orgId)),
  );

  fastify.get<{ Querystring: Static<typeof StaffTransferExportQuery> }>(
    '/api/staff/virements.csv',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'The batches of the list (same filters, every page), as CSV',
        querystring: StaffTransferExportQuery,
        produces: ['text/csv'],
        response: { 200: CsvFile, ...errors },
      },
    },
    async (request, reply) => sendCsv(reply, staffTransfersCsv(db, request.query)),
  );

  // ---- Staff.

  fastify.get<{ Querystring: Static<typeof StaffTransferQuery> }>(
    '/api/staff/virements',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'Every batch (or those of `org_id`, of `status`), newest execution date first',
        querystring: StaffTransferQuery,
        response: { 200: TransferList, ...errors },
      },
    },
    async (request) => transfers.listStaffTransfers(db, request.query),
  );

  fastify.post<{ Body: Static<typeof TransferBody> }>(
    '/api/staff/virements',
    {
      config: { gate: 'staff' },
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags: ['staff'],
        summary:
          'A batch of available payslips of one organization (status genere); 409 payslip_unavailable names those refused, 409 creditor_name_unwritable the payees whose name a SEPA file cannot write',
        body: TransferBody,
        response: { 201: Transfer, ...errors, 409: UnavailableBody, 413: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await transfers.createTransfer(ctx, staffCaller(request), request.body)),
  );

  fastify.get<IdRoute>(
    '/api/staff/virements/:id',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'A batch and its lines (IBAN: last four characters)',
        params: IdParams,
        response: { 200: TransferDetail, ...errors },
      },
    },
    async (request) => transfers.readTransfer(db, request.params.id),
  );

  fastify.get<IdRoute>(
    '/api/staff/virements/:id/sepa.xml',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'The batch as a SEPA credit transfer file (pain.001.001.03)',
        params: IdParams,
        produces: ['application/xml'],
        response: { 200: Type.String({ description: 'pain.001.001.03 XML' }), ...errors, 409: UnavailableBody },
      },
    },
    async (request, reply) => {
      const { filename, xml } = await transfers.transferSepaFile(ctx, request.params.id);
      return reply
        .type('application/xml; charset=utf-8')
        .header('content-disposition', attachment(filename))
        .header('cache-control', 'private, no-store')
        .send(xml);
    },
  );

  fastify.post<IdRoute>(
    '/api/staff/virements/:id/executed',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'The bank executed the batch (status execute); 409 transfer_file_missing when it has no SEPA file, with the reason',
        params: IdParams,
        response: { 200: Transfer, ...errors, 409: UnavailableBody },
      },
    },
    async (request) => transfers.markExecuted(ctx, staffCaller(request), request.params.id),
  );

  fastify.post<IdRoute>(
    '/api/staff/virements/:id/cancel',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'Cancel the batch (status annule): its payslips become available again',
        params: IdParams,
        response: { 200: Transfer, ...errors },
      },
    },
    async (request) => transfers.cancelTransfer(ctx, staffCaller(request), request.params.id),
  );
}
