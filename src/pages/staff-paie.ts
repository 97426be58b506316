/**
 * `/staff/paie` (gate `staff`): an organization's month. The choice of organization
 * and period (a plain GET form); "Calculer" (`POST /api/staff/paie/calcul`) and the run's
 * progress bar, fed by `GET /api/staff/paie/runs/{id}` (the page's script, `staff-paie.js`);
 * the finished run (`?run={id}`): its drafts with their figures and bulletins
 * (`GET /api/staff/paie/brouillons/{id}/bulletin.pdf`), the contracts skipped and why, and
 * "Valider" (`POST /api/staff/paie/valider`) after a confirmation; then the contribution call
 * made (`?appel={id}`). For what the run does not compute: a payslip typed in
 * (`POST /api/staff/payslips`), its PDF attached (`PUT /api/staff/payslips/{id}/pdf`), and a
 * payslip cancelled (`POST /api/staff/payslips/{id}/cancel`) after a confirmation.
 */
import type { Database } from '../db/database.ts';
import { lastWorkingDay, parsePeriod } from '../format/calendar.ts';
import { formatDateFr, formatEuros, ofFr } from '../format/french.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { AppError } from '../http/errors.ts';
import { isUuid } from '../http/input.ts';
import { MAX_LIMIT } from '../http/list.ts';
import { listContributionCalls } from '../contributions/contributions.service.ts';
import { callKindLabel, organismLabel } from '../contributions/contribution.labels.ts';
import { SKIP_MESSAGES, type SkipReasonCode } from '../payroll/payroll.errors.ts';
import { readMonth, readRun, skippedContracts, type MonthView } from '../payroll/payroll.service.ts';
import { COMPLEMENT_TITLE } from '../payroll/payroll.labels.ts';
import { listPayslips, type PayslipView } from '../payslips/payslips.service.ts';
import { confirmDialog, statusRegion } from './layout.ts';
import { allEmployees, csvLink, dash, euros, listQueryOf, selectOptions, type EmployeeOption } from './page-parts.ts';
import { labelBadge, periodFromFr, periodLabel, periodToFr } from './payroll-labels.ts';
import { loadOrgChoices, type OrgChoice } from './staff-lists.ts';
import { periodProblem } from './field-messages.ts';

const PARAMS = ['org_id', 'period', 'run', 'appel'] as const;

type Run = Awaited<ReturnType<typeof readRun>>;
type Skipped = Awaited<ReturnType<typeof skippedContracts>>[number];
type Call = Awaited<ReturnType<typeof listContributionCalls>>['items'][number];

export interface StaffPaieView {
  orgs: OrgChoice[];
  /** As typed (`MM/AAAA`). */
  query: Partial<Record<(typeof PARAMS)[number], string>>;
  /** The organization and period chosen (`YYYY-MM`), when both are. */
  chosen: { org: OrgChoice; period: string } | null;
  /** A refused choice (French), shown next to its field. */
  error: { field: 'org_id' | 'period'; message: string } | null;
  employees: EmployeeOption[];
  /** The period's payslips (published and cancelled). */
  payslips: PayslipView[];
  /** The run shown: the address's (`?run=`) when it is this month's, else the month's last. */
  run: Run | null;
  /** The month's current drafts, then the payslips the run shown made that are no longer drafts. */
  computed: Array<MonthView['drafts'][number] | (Run['payslips'][number] & { kind?: string; complements_id?: string | null })>;
  skipped: Skipped[];
  call: Call | null;
}

const notFoundAsNull = (error: unknown): null => {
  if (error instanceof AppError && error.status === 404) return null;
  throw error;
};

export async function loadStaffPaie(db: Database, rawQuery: unknown): Promise<StaffPaieView> {
  const query = listQueryOf(PARAMS, rawQuery);
  const orgs = await loadOrgChoices(db);
  const view: StaffPaieView = { orgs, query, chosen: null, error: null, employees: [], payslips: [], run: null, computed: [], skipped: [], call: null };
  if (!query.org_id && !query.period) return view;
  const org = query.org_id ? orgs.find((o) => o.id === query.org_id!.toLowerCase()) : undefined;
  if (!org) return { ...view, error: { field: 'org_id', message: 'Choisissez une organisation.' } };
  const period = parsePeriod(periodFromFr(query.period ?? ''));
  // Said of what was typed, in the field's MM/AAAA.
  if (!period) return { ...view, error: { field: 'period', message: periodProblem(query.period) || periodProblem('') } };
  const [employees, payslips, found, calls, month] = await Promise.all([
    allEmployees(db, org.id),
    listPayslips(db, org.id, { period, limit: String(MAX_LIMIT) }),
    query.run && isUuid(query.run) ? readRun(db, query.run).catch(notFoundAsNull) : Promise.resolve(null),
    query.appel && isUuid(query.appel) ? listContributionCalls(db, org.id, { period, limit: String(MAX_LIMIT) }) : Promise.resolve(null),
    readMonth(db, { org_id: org.id, period }),
  ]);
  // A run of another organization or month is not this page's; without one, the month's last run.
  const named = found && found.org_id === org.id && found.period === period ? found : null;
  const run = named ?? (month.last_run ? await readRun(db, month.last_run.id) : null);
  // The month's drafts whatever the address says; the run's validated ones stay listed, published.
  const draftIds = new Set(month.drafts.map((d) => d.id));
  const computed = [...month.drafts, ...(run?.payslips ?? []).filter((p) => !draftIds.has(p.id))];
  return {
    ...view,
    chosen: { org, period },
    employees,
    payslips: payslips.items,
    run,
    computed,
    skipped: await skippedContracts(db, run?.status === 'termine' ? run.skipped : month.skipped),
    call: calls?.items.find((c) => c.id === query.appel!.toLowerCase()) ?? null,
  };
}

/** A skipped contract's reason in French: the run's words, the model's prefixed ("Le modèle ne peut pas calculer ce contrat : …"). */
export function skipReasonFr(s: { reason: string; message?: string }): string {
  const base = SKIP_MESSAGES[s.reason as SkipReasonCode] ?? s.reason;
  if (s.reason === 'not_computable' && s.message) return `${base.replace(/\.$/, '')} : ${s.message}`;
  return s.message ?? base;
}

function fieldError(id: string, message: string | null): SafeHtml {
  return html`<p id="${id}" class="field-error"${message ? '' : html` hidden`}>${message ?? ''}</p>`;
}

function choiceForm(view: StaffPaieView): SafeHtml {
  const { query, error } = view;
  const labels = Object.fromEntries(view.orgs.map((o) => [o.id, o.structure_api ? `${o.name} (${o.structure_api})` : o.name]));
  const orgError = error?.field === 'org_id' ? error.message : null;
  const periodError = error?.field === 'period' ? error.message : null;
  return html`<form class="form filters" method="get" action="/staff/paie" aria-label="Organisation et période">
    <div class="field field-wide">
      <label for="paie-org">Organisation</label>
      <select id="paie-org" name="org_id" required aria-describedby="paie-org-error"${orgError ? html` aria-invalid="true"` : ''}>${selectOptions(
        view.orgs.map((o) => o.id),
        labels,
        query.org_id?.toLowerCase(),
        'Choisissez une organisation',
      )}</select>
      ${fieldError('paie-org-error', orgError)}
    </div>
    <div class="field">
      <label for="paie-period">Période</label>
      <input id="paie-period" name="period" type="text" inputmode="numeric" placeholder="MM/AAAA" maxlength="7" autocomplete="off" required value="${query.period ?? ''}" aria-describedby="paie-period-hint paie-period-error"${periodError ? html` aria-invalid="true"` : ''}>
      <p class="visually-hidden" id="paie-period-hint">Mois et année, par exemple 03/2027.</p>
      ${fieldError('paie-period-error', periodError)}
    </div>
    <div class="field field-submit actions">
      <button type="submit" class="button button-secondary" id="paie-choose">Afficher</button>
    </div>
  </form>`;
}

const contracts = (n: number) => (n <= 1 ? `${n} contrat` : `${n} contrats`);

/** "3 contrats calculés sur 3", as the bar's text and the script say it. */
export function progressText(run: { status: string; done: number; total: number }): string {
  if (run.status === 'echoue') return 'Calcul échoué.';
  if (run.status === 'termine') return `Calcul terminé : ${contracts(run.total)} calculé${run.total > 1 ? 's' : ''}.`;
  return run.total === 0 ? 'Calcul en cours…' : `Calcul en cours : ${run.done} sur ${contracts(run.total)}.`;
}

function progressBox(run: Run | null): SafeHtml {
  const max = run ? Math.max(run.total, 1) : 1;
  const value = run ? (run.status === 'termine' ? max : Math.min(run.done, max)) : 0;
  return html`<div class="run-progress" id="run-progress-box"${run ? '' : html` hidden`}>
    <label for="run-progress">Avancement du calcul</label>
    <progress id="run-progress" max="${max}" value="${value}" aria-describedby="run-progress-text">${value} / ${max}</progress>
    <p id="run-progress-text" aria-live="polite">${run ? progressText(run) : ''}</p>
  </div>`;
}

function draftRow(p: StaffPaieView['computed'][number]): SafeHtml {
  const name = `${p.employee.first_name} ${p.employee.last_name}`;
  const draft = p.status === 'brouillon';
  const complement = p.kind === 'complementaire';
  return html`<tr data-draft-id="${p.id}" data-status="${p.status}"${complement ? html` data-kind="complementaire"` : ''}>
    <td data-label="Salarié" class="wrap">${name}${complement ? html`<br><span class="badge badge-pending" title="La différence due après une modification du contrat, le mois déjà validé">${COMPLEMENT_TITLE}</span>` : ''}</td>
    <td data-label="Contrat" class="nowrap">${p.contract_number}</td>
    <td data-label="Brut" class="amount">${formatEuros(p.gross)}</td>
    <td data-label="Net avant impôt" class="amount">${formatEuros(p.net_before_tax)}</td>
    <td data-label="Net payé" class="amount"><strong>${formatEuros(p.net_to_pay)}</strong></td>
    <td data-label="Coût employeur" class="amount">${formatEuros(p.employer_cost)}</td>
    <td data-label="Statut">${draft ? html`<span class="badge badge-pending">Brouillon</span>` : labelBadge('payslip', p.status)}</td>
    <td data-label="Bulletin">${
      draft
        ? html`<button type="button" class="button button-small button-secondary" data-bulletin="${p.id}" data-name="${`${p.employee.last_name}-${p.employee.first_name}`}">Bulletin (PDF)<span class="visually-hidden"> ${ofFr(name)}, contrat ${p.contract_number}</span></button>`
        : html`<span class="muted">Dans les bulletins publiés</span>`
    }</td>
  </tr>`;
}

function monthResult(view: StaffPaieView): SafeHtml {
  const { run, computed } = view;
  const failed =
    run?.status === 'echoue'
      ? html`<p class="status" data-kind="error" role="alert" id="run-failed">Le calcul a échoué : ${run.message ?? 'raison inconnue'}${computed.length ? ' Les brouillons précédents sont conservés.' : ''}</p>`
      : html``;
  if (computed.length === 0 && view.skipped.length === 0 && run?.status !== 'termine') return failed;
  const drafts = computed.filter((p) => p.status === 'brouillon');
  return html`${failed}<h3 id="drafts-title">Bulletins calculés</h3>
    ${
      computed.length === 0
        ? html`<p>Aucun bulletin calculé pour ce mois.</p>`
        : html`<div class="table-wrap"><table class="table stack" id="draft-table">
      <caption class="visually-hidden">Bulletins calculés ${ofFr(view.chosen!.org.name)}, ${periodLabel(view.chosen!.period)}</caption>
      <thead><tr><th scope="col">Salarié</th><th scope="col">Contrat</th><th scope="col" class="amount">Brut</th><th scope="col" class="amount">Net avant impôt</th><th scope="col" class="amount">Net payé</th><th scope="col" class="amount">Coût employeur</th><th scope="col">Statut</th><th scope="col">Bulletin</th></tr></thead>
      <tbody>${computed.map(draftRow)}</tbody>
    </table></div>`
    }
    ${
      view.skipped.length
        ? html`<h3 id="skipped-title">Contrats non calculés</h3>
    <ul class="plain" id="skipped-list">${view.skipped.map(
      (s) =>
        html`<li data-contract-id="${s.contract_id}" data-reason="${s.reason}"><strong>${s.contract ? `${s.contract.contract_number} (${s.contract.first_name} ${s.contract.last_name})` : s.contract_id}</strong> : ${skipReasonFr(s)}</li>`,
    )}</ul>`
        : ''
    }
    ${
      drafts.length
        ? html`<div class="actions"><button type="button" class="button" id="validate" data-ids="${drafts.map((d) => d.id).join(',')}" data-count="${drafts.length}">Valider ${drafts.length === 1 ? 'le bulletin' : `les ${drafts.length} bulletins`}</button></div>`
        : ''
    }
    ${statusRegion('validate-status')}`;
}

function runSection(view: StaffPaieView): SafeHtml {
  const { chosen, run } = view;
  if (!chosen) return html``;
  return html`<section class="card" id="run" aria-labelledby="run-title" data-org-id="${chosen.org.id}" data-period="${chosen.period}"${run ? html` data-run-id="${run.id}" data-run-status="${run.status}"` : ''}>
    <h2 id="run-title" tabindex="-1">Calcul ${ofFr(periodLabel(chosen.period))}</h2>
    <p class="hint">Calcule les bulletins du mois à partir des contrats signés ou à signer. Un nouveau calcul remplace les brouillons du mois ; les bulletins déjà validés sont conservés, et un contrat modifié depuis sa validation (avenant, salaires par date) reçoit un bulletin complémentaire pour la différence.</p>
    <div class="actions"><button type="button" class="button" id="run-start">Calculer</button></div>
    ${progressBox(run)}
    ${statusRegion('run-status')}
    ${monthResult(view)}
  </section>`;
}

const countOf = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function callSection(view: StaffPaieView): SafeHtml {
  const { call, chosen } = view;
  if (!call || !chosen) return html``;
  return html`<section class="card card-success" id="call" aria-labelledby="call-title">
    <h2 id="call-title" tabindex="-1">Paie validée : appel de cotisations ${call.number}</h2>
    <p id="call-summary">Appel de cotisations ${call.number} ${ofFr(periodLabel(call.period))} pour ${chosen.org.name} (${callKindLabel(call)}, ${countOf(call.payslips_counted_in, 'bulletin', 'bulletins')}${call.payslips_counted_out ? `, ${countOf(call.payslips_counted_out, 'bulletin annulé déduit', 'bulletins annulés déduits')}` : ''}) : total <strong>${formatEuros(call.total)}</strong>, à payer au plus tard le <strong>${formatDateFr(call.due_date)}</strong>.</p>
    ${
      call.lines.length
        ? html`<ul class="plain" id="call-lines">${call.lines.map((l) => html`<li>${organismLabel(l.organism)} : ${formatEuros(l.amount)}</li>`)}</ul>`
        : ''
    }
    <p><a href="/staff/cotisations?org_id=${chosen.org.id}" id="call-link">Voir les appels de cotisations</a></p>
  </section>`;
}

function typedForm(view: StaffPaieView): SafeHtml {
  const chosen = view.chosen!;
  const names = Object.fromEntries(view.employees.map((e) => [e.id, `${e.last_name} ${e.first_name}`]));
  const field = (id: string, label: string, input: SafeHtml, hint?: string) => html`<div class="field">
      <label for="${id}">${label}</label>
      ${input}
      ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
      <p id="${id}-error" class="field-error" hidden></p>
    </div>`;
  return html`<form class="form" id="payslip-form" novalidate data-org-id="${chosen.org.id}">
    ${field(
      'payslip-employee',
      'Salarié',
      html`<select id="payslip-employee" name="employee_id" required aria-describedby="payslip-employee-error">${selectOptions(
        view.employees.map((e) => e.id),
        names,
        undefined,
        'Choisissez un salarié',
      )}</select>`,
    )}
    ${field('payslip-period', 'Période', html`<input id="payslip-period" name="period" type="text" inputmode="numeric" placeholder="MM/AAAA" maxlength="7" autocomplete="off" required value="${periodToFr(chosen.period)}" aria-describedby="payslip-period-error">`)}
    ${field('payslip-gross', 'Salaire brut (€)', html`<input id="payslip-gross" name="gross" type="text" inputmode="decimal" autocomplete="off" required aria-describedby="payslip-gross-hint payslip-gross-error">`, 'Par exemple 2 700,00.')}
    ${field('payslip-net', 'Net à payer (€)', html`<input id="payslip-net" name="net_to_pay" type="text" inputmode="decimal" autocomplete="off" required aria-describedby="payslip-net-hint payslip-net-error">`, 'Au plus le salaire brut.')}
    <div class="field field-submit actions"><button type="submit" class="button" id="payslip-submit">Publier le bulletin</button></div>
  </form>
  ${statusRegion('payslip-status')}`;
}

function payslipActions(p: PayslipView, name: string): SafeHtml {
  if (p.status !== 'publie') return dash;
  const what = `${name}, ${periodLabel(p.period)}`;
  return html`<div class="actions">
    ${
      p.source === 'calcule'
        ? ''
        : html`<input type="file" id="pdf-${p.id}" class="visually-hidden file-input" accept="application/pdf,.pdf" data-upload="${p.id}" aria-describedby="pdf-${p.id}-error">
    <label class="button button-small button-secondary file-button" for="pdf-${p.id}">${p.has_pdf ? 'Remplacer le PDF' : 'Joindre le PDF'}<span class="visually-hidden"> : ${what}</span></label>`
    }
    ${p.transfer_status ? '' : html`<button type="button" class="button button-small button-danger" data-cancel="${p.id}" data-of-name="${ofFr(what)}">Annuler<span class="visually-hidden"> le bulletin : ${what}</span></button>`}
  </div>
  <p id="pdf-${p.id}-error" class="field-error" hidden></p>`;
}

/** Where the payslip's transfer stands, said in words (a bare "Généré" said nothing of what was generated). */
const TRANSFER_STATES: Record<string, string> = {
  genere: 'Virement préparé : le fichier SEPA est prêt, pas encore exécuté',
  execute: 'Payé par virement',
};
function transferState(status: string): SafeHtml {
  return html`<span class="badge badge-sentence badge-${status === 'execute' ? 'active' : 'pending'}" data-transfer-status="${status}">${TRANSFER_STATES[status] ?? status}</span>`;
}

/** The bulletin's PDF: the service's own for a computed payslip, a file attached for one typed in. */
function pdfState(p: PayslipView): SafeHtml {
  if (p.source === 'calcule') return p.has_pdf ? html`Établi par le service` : html`<span class="muted">En cours d’établissement</span>`;
  return p.has_pdf ? html`Joint` : html`<span class="muted">Aucun</span>`;
}

function payslipsTable(view: StaffPaieView): SafeHtml {
  const { payslips, chosen } = view;
  return html`<section class="card" id="payslips" data-refresh aria-labelledby="payslips-title">
    <h2 id="payslips-title" tabindex="-1">Bulletins publiés ${ofFr(periodLabel(chosen!.period))}</h2>
    ${
      payslips.length === 0
        ? html`<p id="payslips-none">Aucun bulletin publié pour ce mois.</p>`
        : html`<div class="table-wrap"><table class="table stack" id="payslip-table">
      <caption class="visually-hidden">Bulletins publiés et annulés du mois</caption>
      <thead><tr><th scope="col">Salarié</th><th scope="col">Origine</th><th scope="col" class="amount">Brut</th><th scope="col" class="amount">Net à payer</th><th scope="col">Statut</th><th scope="col">PDF</th><th scope="col">Actions</th></tr></thead>
      <tbody>${payslips.map((p) => {
        const name = `${p.employee.first_name} ${p.employee.last_name}`;
        const complement = p.kind === 'complementaire';
        return html`<tr data-payslip-id="${p.id}"${complement ? html` data-kind="complementaire" data-complements="${p.complements_id ?? ''}"` : ''}>
        <td data-label="Salarié" class="wrap">${name}${complement ? html`<br><span class="muted">${COMPLEMENT_TITLE} (la différence après une modification du contrat)</span>` : ''}</td>
        <td data-label="Origine">${p.source === 'calcule' ? 'Calculé' : 'Saisi'}</td>
        <td data-label="Brut" class="amount">${euros(p.gross)}</td>
        <td data-label="Net à payer" class="amount">${euros(p.net_to_pay)}</td>
        <td data-label="Statut">${labelBadge('payslip', p.status)}${p.transfer_status ? html` ${transferState(p.transfer_status)}` : ''}</td>
        <td data-label="PDF" class="pdf-state">${pdfState(p)}</td>
        <td data-label="Actions">${payslipActions(p, name)}</td>
      </tr>`;
      })}</tbody>
    </table></div>`
    }
    ${
      payslips.length
        ? csvLink(
            `/api/staff/payslips.csv?${new URLSearchParams({ period: chosen!.period, org_id: chosen!.org.id })}`,
            `bulletins de ${periodLabel(chosen!.period)}`,
            'payslips-csv',
          )
        : ''
    }
    ${statusRegion('payslips-status')}
  </section>`;
}

/** The validation's payment date, printed on the bulletins: prefilled with the period's last working day. */
function paymentDateField(period: string): SafeHtml {
  return html`<div class="field">
      <label for="validate-payment-date">Date de paiement</label>
      <input id="validate-payment-date" name="payment_date" type="date" required value="${lastWorkingDay(period)}" aria-describedby="validate-payment-date-hint validate-payment-date-error">
      <p class="hint" id="validate-payment-date-hint">Imprimée sur les bulletins. Par défaut le dernier jour ouvré du mois (du lundi au vendredi : un jour férié n'est pas écarté) ; au plus tard la fin du deuxième mois suivant.</p>
      <p id="validate-payment-date-error" class="field-error" hidden></p>
    </div>`;
}

export function renderStaffPaie(view: StaffPaieView): SafeHtml {
  return html`<div class="page" id="staff-paie">
  <h1>Calcul de la paie</h1>
  <p class="lead">Choisissez une organisation et un mois, calculez ses bulletins, vérifiez-les puis validez-les : l'appel de cotisations est créé à la validation.</p>
  <section class="card" aria-labelledby="choice-title">
    <h2 id="choice-title" class="visually-hidden">Organisation et période</h2>
    ${choiceForm(view)}
  </section>
  ${callSection(view)}
  ${runSection(view)}
  ${
    view.chosen
      ? html`<section class="card" id="typed" aria-labelledby="typed-title">
    <h2 id="typed-title">Saisir un bulletin</h2>
    <p class="hint">Pour ce que le calcul ne fait pas (un CDD, un bulletin établi ailleurs) : le bulletin est publié tel que saisi, et son PDF se joint ensuite.</p>
    ${typedForm(view)}
  </section>
  ${payslipsTable(view)}`
      : html`<p id="choose-first">Choisissez une organisation et une période pour calculer ou saisir ses bulletins.</p>`
  }
</div>
${confirmDialog({
  id: 'confirm-validate',
  title: 'Valider ces bulletins ?',
  text: "Les bulletins seront publiés (l'organisation les verra) et l'appel de cotisations du mois sera créé. Ils ne pourront plus être recalculés.",
  fields: view.chosen ? paymentDateField(view.chosen.period) : undefined,
  keepLabel: 'Ne pas valider',
  confirmLabel: 'Valider',
})}
${confirmDialog({
  id: 'confirm-publish',
  title: 'Publier ce bulletin ?',
  keepLabel: 'Ne pas publier',
  confirmLabel: 'Publier',
})}
${confirmDialog({
  id: 'confirm-cancel-payslip',
  title: 'Annuler ce bulletin ?',
  keepLabel: 'Garder le bulletin',
  confirmLabel: 'Annuler le bulletin',
})}`;
}
