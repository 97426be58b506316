/**
 * `/api/salaries`: read by every role, written by the contract set. Staff edit any
 * organization's employee at `/api/staff/orgs/{id}/salaries/{employee_id}` (its page,
 * `/staff/organisations/{id}`, names the organization in the path, whatever the active one).
 */
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { IdParams, useFieldErrors, errorResponses } from '../http/schemas.ts';
import { orgErrors } from '../org/org.errors.ts';
import { isUuid } from '../http/input.ts';
import { orgScope, staffCaller } from '../org/scope.ts';
import { Employee, EmployeeBody, EmployeeList, EmployeeListQuery, OrgEmployeeParams } from '../schemas/employees.ts';
import { createEmployee, editEmployee, listEmployees } from './employees.service.ts';

const errors = errorResponses();

export default async function employeesRoutes(fastify: FastifyInstance): Promise<void> {
  const { db } = fastify;
  const ctx = { db, mail: fastify.mail, config: fastify.config };
  useFieldErrors(fastify);

  fastify.get<{ Querystring: Static<typeof EmployeeListQuery> }>(
    '/api/salaries',
    {
      config: { gate: 'read' },
      schema: { tags: ['salariés'], summary: 'The employees, by name', querystring: EmployeeListQuery, response: { 200: EmployeeList, ...errors } },
    },
    async (request) => listEmployees(db, orgScope(request).orgId, request.query),
  );

  fastify.post<{ Body: Static<typeof EmployeeBody> }>(
    '/api/salaries',
    {
      config: { gate: 'contract' },
      schema: { tags: ['salariés'], summary: 'Add an employee', body: EmployeeBody, response: { 201: Employee, ...errors } },
    },
    async (request, reply) => reply.code(201).send(await createEmployee(ctx, orgScope(request), request.body)),
  );

  fastify.patch<{ Params: Static<typeof IdParams>; Body: Static<typeof EmployeeBody> }>(
    '/api/salaries/:id',
    {
      config: { gate: 'contract' },
      schema: {
        tags: ['salariés'],
        summary: 'Edit an employee (the fields given)',
        params: IdParams,
        body: EmployeeBody,
        response: { 200: Employee, ...errors },
      },
    },
    async (request) => editEmployee(ctx, orgScope(request), request.params.id, request.body),
  );

  fastify.patch<{ Params: Static<typeof OrgEmployeeParams>; Body: Static<typeof EmployeeBody> }>(
    '/api/staff/orgs/:id/salaries/:employee_id',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'Edit an employee of the organization (staff): the fields given, checked as PATCH /api/salaries/{id} checks them (IBAN write-only)',
        params: OrgEmployeeParams,
        body: EmployeeBody,
        response: { 200: Employee, ...errors },
      },
    },
    async (request) => {
      if (!isUuid(request.params.id)) throw orgErrors.orgNotFound();
      const actor = { caller: staffCaller(request), orgId: request.params.id.toLowerCase() };
      return editEmployee(ctx, actor, request.params.employee_id, request.body);
    },
  );
}
