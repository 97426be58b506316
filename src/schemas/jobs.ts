/** Schemas of the staff's durable jobs (`/api/staff/jobs`). */
import { Type } from '@sinclair/typebox';
import { ListQuery, Page } from '../http/list.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const JobListQuery = Type.Object({
  ...ListQuery,
  status: Type.Optional(Type.String({ description: 'failed (default), pending, running or done', maxLength: 20 })),
});

export const Job = Type.Object({
  id: Type.String(),
  kind: Type.String({ description: 'payroll.bulletin or invoice.document' }),
  label: Type.String({ description: 'what it makes, in French' }),
  org_id: NullableString,
  org_name: NullableString,
  subject_type: NullableString,
  subject_id: NullableString,
  status: Type.String(),
  attempts: Type.Integer(),
  max_attempts: Type.Integer(),
  last_error: Type.Union([Type.String({ description: 'why it failed, in French' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const JobList = Page(Job);

export const RetriedJob = Type.Object({ ok: Type.Literal(true), message: Type.String(), job: Job });
