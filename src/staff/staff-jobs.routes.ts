/** `/api/staff/jobs`: the durable jobs that failed, their reason, and a retry (staff only). */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { errorResponses } from '../http/schemas.ts';
import { staffCaller } from '../org/scope.ts';
import { JobList, JobListQuery, RetriedJob } from '../schemas/jobs.ts';
import { listJobs, retryJob } from './staff-jobs.service.ts';

const errors = errorResponses(409);
const JobIdParams = Type.Object({ id: Type.String({ maxLength: 40, description: 'the job id' }) });

export default async function staffJobsRoutes(fastify: FastifyInstance): Promise<void> {
  const ctx = { db: fastify.db, mail: fastify.mail, jobs: fastify.jobs };

  fastify.get<{ Querystring: Static<typeof JobListQuery> }>(
    '/api/staff/jobs',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'Durable jobs of a status (default failed: with the reason, in French), newest first',
        querystring: JobListQuery,
        response: { 200: JobList, ...errors },
      },
    },
    async (request) => {
      staffCaller(request);
      return listJobs(fastify.db, request.query);
    },
  );

  fastify.post<{ Params: Static<typeof JobIdParams> }>(
    '/api/staff/jobs/:id/retry',
    {
      config: { gate: 'staff' },
      schema: {
        tags: ['staff'],
        summary: 'Run a failed job again now (its attempts counted anew); 409 job_not_failed otherwise; audited',
        params: JobIdParams,
        response: { 200: RetriedJob, ...errors },
      },
    },
    async (request) => retryJob(ctx, staffCaller(request), request.params.id),
  );
}
