/**
 * `/api/contrats`, gated on the contract set, and the staff's
 * `/api/staff/contrats`: every organization, salaries by date, the signed PDF.
 */
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { sendJsonPage } from '../http/list.ts';
import { ErrorBody, IdParams, useFieldErrors, errorResponses, type IdRoute } from '../http/schemas.ts';
import { orgScope, staffCaller } from '../org/scope.ts';
import { readScope } from '../org/scope-reader.ts';
import {
  AmendmentBody,
  Contract,
  ContractBody,
  ContractList,
  DatesAnswer,
  DatesBody,
  GeneratedPdf,
  GeneratePdfBody,
  GridQuery,
  Note,
  NoteBody,
  NoteList,
  NoteListQuery,
  Ok,
  PdfUrl,
  StaffGridQuery,
} from '../schemas/contracts.ts';
import * as contracts from './contracts.service.ts';
import { memberGridJson, readGridScope } from './grid-scope.ts';

const errors = errorResponses(409);

export default async function contractsRoutes(fastify: FastifyInstance): Promise<void> {
  const { db, config } = fastify;
  const ctx = { db, config, mail: fastify.mail, files: fastify.files };
  // The session and the scope in one statement (src/org/scope-reader.ts) on every route of an
  // organization's contracts: a PDF, an edit or a page pays one round trip for its gate, not three.
  const contractGate = { gate: 'contract', readsOwnSession: true, scopeReader: readScope } as const;
  useFieldErrors(fastify);

  fastify.get<{ Querystring: Static<typeof GridQuery> }>(
    '/api/contrats',
    {
      // The gate's statement reads the page too (grid-scope.ts): one round trip per page.
      config: { ...contractGate, scopeReader: readGridScope },
      schema: {
        tags: ['contrats'],
        summary: 'The grid: newest start first; filters, search, keyset pages of at most 200',
        querystring: GridQuery,
        response: { 200: ContractList, ...errors },
      },
    },
    async (request, reply) => sendJsonPage(reply, await memberGridJson(request, orgScope(request).orgId, request.query)),
  );

  fastify.post<{ Body: Static<typeof ContractBody> }>(
    '/api/contrats',
    {
      config: contractGate,
      schema: { tags: ['contrats'], summary: 'A new contract (brouillon), numbered C-YYYY-NNNNNN', body: ContractBody, response: { 201: Contract, ...errors } },
    },
    async (request, reply) => reply.code(201).send(await contracts.createContract(ctx, orgScope(request), request.body)),
  );

  fastify.get<IdRoute>(
    '/api/contrats/:id',
    {
      config: contractGate,
      schema: { tags: ['contrats'], summary: 'A contract with its salaries by date', params: IdParams, response: { 200: Contract, ...errors } },
    },
    async (request) => contracts.readContract(db, orgScope(request).orgId, request.params.id),
  );

  fastify.patch<IdRoute<{ Body: Static<typeof ContractBody> }>>(
    '/api/contrats/:id',
    {
      config: contractGate,
      schema: { tags: ['contrats'], summary: 'Edit a draft (the fields given)', params: IdParams, body: ContractBody, response: { 200: Contract, ...errors } },
    },
    async (request) => contracts.editContract(ctx, orgScope(request), request.params.id, request.body),
  );

  fastify.post<IdRoute>(
    '/api/contrats/:id/submit',
    {
      config: contractGate,
      schema: { tags: ['contrats'], summary: 'brouillon → a_signer', params: IdParams, response: { 200: Contract, ...errors } },
    },
    async (request) => contracts.submitContract(ctx, orgScope(request), request.params.id),
  );

  fastify.post<IdRoute>(
    '/api/contrats/:id/cancel',
    {
      config: contractGate,
      schema: { tags: ['contrats'], summary: 'Cancel (any status but signe)', params: IdParams, response: { 200: Contract, ...errors } },
    },
    async (request) => contracts.cancelContract(ctx, orgScope(request), request.params.id),
  );

  fastify.post<IdRoute<{ Body: Static<typeof AmendmentBody> }>>(
    '/api/contrats/:id/avenants',
    {
      config: contractGate,
      schema: {
        tags: ['contrats'],
        summary: 'An avenant: extends the period (earlier start, later end) and adds its dates; any status but annule; 400 period_not_extended, invalid_date',
        params: IdParams,
        body: AmendmentBody,
        response: { 200: Contract, ...errors },
      },
    },
    async (request) => contracts.amendContract(ctx, orgScope(request), request.params.id, request.body),
  );

  fastify.post<IdRoute<{ Body: Static<typeof NoteBody> }>>(
    '/api/contrats/:id/notes',
    {
      config: contractGate,
      schema: {
        tags: ['contrats'],
        summary: "Add a note; a client's note e-mails the payroll mailbox",
        params: IdParams,
        body: NoteBody,
        response: { 201: Note, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await contracts.addNote(ctx, orgScope(request), request.params.id, request.body.text)),
  );

  fastify.get<IdRoute<{ Querystring: Static<typeof NoteListQuery> }>>(
    '/api/contrats/:id/notes',
    {
      config: contractGate,
      schema: { tags: ['contrats'], summary: 'The notes, newest first', params: IdParams, querystring: NoteListQuery, response: { 200: NoteList, ...errors } },
    },
    async (request) => {
      const { orgId, caller } = orgScope(request);
      return contracts.listNotes(db, orgId, request.params.id, request.query, caller.isStaff);
    },
  );

  fastify.post<{ Body: Static<typeof GeneratePdfBody> }>(
    '/api/generate-contract-pdf',
    {
      config: contractGate,
      schema: {
        tags: ['contrats'],
        summary: 'Render the contract as a French PDF, stored in place of the previous one; a link valid 5 minutes',
        body: GeneratePdfBody,
        response: { 200: GeneratedPdf, ...errors },
      },
    },
    async (request) => contracts.generateContractPdf(ctx, orgScope(request), request.body.contract_id),
  );

  fastify.get<IdRoute>(
    '/api/contrats/:id/pdf-url',
    {
      config: contractGate,
      schema: {
        tags: ['contrats'],
        summary: 'A link (5 minutes) to the signed PDF, else the generated one; 404 no_pdf when neither',
        params: IdParams,
        response: { 200: PdfUrl, ...errors },
      },
    },
    async (request) => contracts.contractPdfUrl(ctx, orgScope(request).orgId, request.params.id),
  );

  // ---- Staff: every organization.

  fastify.get<{ Querystring: Static<typeof StaffGridQuery> }>(
    '/api/staff/contrats',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'The grid of every organization (or of `org_id`)',
        querystring: StaffGridQuery,
        response: { 200: ContractList, ...errors },
      },
    },
    async (request, reply) => sendJsonPage(reply, await contracts.listStaffGridJson(db, request.query)),
  );

  fastify.patch<IdRoute<{ Body: Static<typeof DatesBody> }>>(
    '/api/staff/contrats/:id/salaires-par-date',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'Replace the salaries by date; the total is recomputed in the same transaction',
        params: IdParams,
        body: DatesBody,
        response: { 200: DatesAnswer, ...errors },
      },
    },
    async (request) => contracts.replaceContractDates(ctx, staffCaller(request), request.params.id, request.body.dates),
  );

  fastify.put<IdRoute<{ Body: Buffer }>>(
    '/api/staff/contrats/:id/signed-pdf',
    {
      config: { gate: 'staff', pdfUpload: true },
      schema: {
        tags: ['staff'],
        summary: 'Attach the signed contract (application/pdf, 10 MiB at most): status signe',
        params: IdParams,
        consumes: ['application/pdf'],
        response: { 200: Contract, ...errors, 413: ErrorBody, 415: ErrorBody },
      },
    },
    async (request) => contracts.attachSignedPdf(ctx, staffCaller(request), request.params.id, request.body),
  );

  fastify.delete<IdRoute>(
    '/api/staff/contrats/:id/delete-signed-pdf',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'Delete the signed contract: status back to a_signer; 404 no_signed_pdf when there is none',
        params: IdParams,
        response: { 200: Ok, ...errors },
      },
    },
    async (request) => {
      await contracts.deleteSignedPdf(ctx, staffCaller(request), request.params.id);
      return { ok: true as const };
    },
  );
}
