/**
 * `/staff/travaux` (gate `staff`): the durable jobs that failed (a bulletin or an invoice
 * document not made), each with its organization, what it makes, its attempts and its reason in
 * French; "Relancer" (the page's script) sends `POST /api/staff/jobs/{id}/retry`.
 */
import type { Database } from '../db/database.ts';
import { formatDateFr, todayInFrance } from '../format/french.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { listJobs } from '../staff/staff-jobs.service.ts';
import { listHref, listQueryOf, pagerNav, readList, type ListQuery } from './page-parts.ts';
import { statusRegion } from './layout.ts';

const PARAMS = ['limit', 'cursor'] as const;
type Query = ListQuery<(typeof PARAMS)[number]>;
type Job = Awaited<ReturnType<typeof listJobs>>['items'][number];

export interface StaffJobsView {
  query: Query;
  items: Job[];
  nextCursor: string | null;
  error: string | null;
}

export async function loadStaffJobs(db: Database, rawQuery: unknown): Promise<StaffJobsView> {
  const query = listQueryOf(PARAMS, rawQuery);
  const list = await readList(() => listJobs(db, { ...query, status: 'failed' }));
  return { query, ...list };
}

function jobRow(job: Job): SafeHtml {
  const what = `${job.label}${job.org_name ? `, ${job.org_name}` : ''}`;
  return html`<tr data-job-id="${job.id}">
    <td data-label="Travail">${job.label}</td>
    <td data-label="Organisation">${job.org_name ?? '—'}</td>
    <td data-label="Dernier essai" class="nowrap">${formatDateFr(todayInFrance(new Date(job.updated_at)))}</td>
    <td data-label="Essais" class="amount">${String(job.attempts)}</td>
    <td data-label="Raison" class="wrap">${job.last_error ?? '—'}</td>
    <td data-label="Actions"><button type="button" class="button button-small" data-retry="${job.id}">Relancer<span class="visually-hidden"> : ${what}</span></button></td>
  </tr>`;
}

export function renderStaffJobs(view: StaffJobsView): SafeHtml {
  const { items } = view;
  return html`<div class="page" id="staff-travaux">
  <h1>Travaux en échec</h1>
  <p class="lead">Les documents faits après coup (bulletins validés, factures et avoirs) que le service n'a pas pu produire, avec la raison. Corrigez la cause, puis relancez-les.</p>
  ${statusRegion('jobs-status')}
  <section class="card" id="jobs" aria-labelledby="jobs-title">
    <h2 id="jobs-title" tabindex="-1">Travaux en échec</h2>
    ${
      view.error
        ? html`<p class="field-error" id="list-summary">${view.error}</p>`
        : items.length === 0
          ? html`<p id="list-summary">Aucun travail en échec.</p>`
          : html`<div class="table-wrap"><table class="table stack" id="job-table">
      <caption class="visually-hidden">Travaux en échec, du plus récent au plus ancien</caption>
      <thead><tr><th scope="col">Travail</th><th scope="col">Organisation</th><th scope="col">Dernier essai</th><th scope="col" class="amount">Essais</th><th scope="col">Raison</th><th scope="col">Actions</th></tr></thead>
      <tbody>${items.map(jobRow)}</tbody>
    </table></div>`
    }
    ${pagerNav({ href: (cursor) => listHref('/staff/travaux', PARAMS, view.query, { cursor }), current: view.query.cursor, next: view.nextCursor })}
  </section>
</div>`;
}
