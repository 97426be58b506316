/**
 * The module pages. Each page route declares the gate of the API it shows
 * (`config: { gate }`), enforced by the same hook (`src/org/gate.plugin.ts`) before the
 * handler runs: a page a role may not open answers with its API's status (403, 400
 * `no_active_org`), and the navigation bar (`nav.ts`) offers only the pages `can()` opens.
 * Registered inside `pages.routes.ts`, whose error handler renders those refusals: a French
 * page for a browser (`refusals.ts`), the API's plain `Forbidden` for any other client.
 */
import { loadStaffJobs, renderStaffJobs } from './staff-travaux.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { activeOrgOf, orgScope } from '../org/scope.ts';
import { can } from '../org/permissions.ts';
import type { SafeHtml } from '../format/html.ts';
import { renderPage } from './layout.ts';
import { membershipOfScope, navFor, renderNav } from './nav.ts';
import { loadContractPage, loadForm, loadGrid, loadStaffGrid, renderContractPage, renderForm, renderGrid } from './contrats.ts';
import { facturesStatus, loadFactures, renderFactures } from './factures.ts';
import { loadPaie, renderPaie } from './paie.ts';
import { loadStaffInvoices, renderStaffInvoices } from './staff-facturation.ts';
import { loadStaffTransfers, renderStaffTransfers } from './staff-virements.ts';
import { loadStaffOrg, loadStaffOrgs, renderStaffOrg, renderStaffOrgs } from './staff-organisations.ts';
import { loadStaffCalls, renderStaffCalls } from './staff-cotisations.ts';
import { loadStaffPaie, renderStaffPaie } from './staff-paie.ts';
import { loadStaffOperator, renderStaffOperator } from './staff-operateur.ts';
import { contractToOpen, mayChangeStateOnGet, openContractAsStaff, renderContractToOpen } from './staff-contrat.ts';

export interface ModulePagesOptions {
  sendHtml(reply: FastifyReply, body: string, status?: number): FastifyReply;
}

type IdParams = { Params: { id: string } };

export default async function modulePagesRoutes(fastify: FastifyInstance, options: ModulePagesOptions): Promise<void> {
  const { db, config } = fastify;
  const hidden = { hide: true };

  /** The page in the shell, with the caller's banner and navigation bar. */
  function page(request: FastifyRequest, reply: FastifyReply, shell: { title: string; script?: string; main: SafeHtml }, status = 200) {
    const caller = request.caller!;
    const nav = renderNav(navFor(caller, membershipOfScope(request)), new URL(request.url, 'http://x').pathname);
    return options.sendHtml(reply, renderPage({ ...shell, user: { email: caller.email, firstName: caller.firstName }, nav }), status);
  }

  fastify.get('/contrats', { config: { gate: 'contract' }, schema: hidden }, async (request, reply) => {
    const { orgId, caller } = orgScope(request);
    const view = await loadGrid(db, orgId, caller.isStaff, request.query);
    return page(request, reply, { title: 'Contrats', main: renderGrid(view) }, view.error ? 400 : 200);
  });

  fastify.get('/contrats/nouveau', { config: { gate: 'contract' }, schema: hidden }, async (request, reply) => {
    const { orgId, caller } = orgScope(request);
    const view = await loadForm(db, orgId, caller.isStaff, null);
    return page(request, reply, { title: 'Nouveau contrat', script: 'contrat-form.js', main: renderForm(view) });
  });

  fastify.get<IdParams>('/contrats/:id', { config: { gate: 'contract' }, schema: hidden }, async (request, reply) => {
    const { orgId, caller } = orgScope(request);
    const view = await loadContractPage(db, orgId, caller.isStaff, request.params.id, request.query);
    return page(request, reply, {
      title: `Contrat ${view.contract.contract_number}`,
      script: 'contrat.js',
      main: renderContractPage(view, config.mailTimezone),
    });
  });

  fastify.get<IdParams>('/contrats/:id/modifier', { config: { gate: 'contract' }, schema: hidden }, async (request, reply) => {
    const { orgId, caller } = orgScope(request);
    const view = await loadForm(db, orgId, caller.isStaff, request.params.id);
    return page(request, reply, { title: `Modifier le contrat ${view.contract!.contract_number}`, script: 'contrat-form.js', main: renderForm(view) });
  });

  fastify.get('/paie', { config: { gate: 'read' }, schema: hidden }, async (request, reply) => {
    const { orgId, caller } = orgScope(request);
    const view = await loadPaie(db, orgId, caller.isStaff, request.query, can(caller, membershipOfScope(request), 'money') === 'allowed');
    return page(request, reply, { title: 'Paie', script: 'pdf-button.js', main: renderPaie(view) }, view.error ? 400 : 200);
  });

  fastify.get('/factures', { config: { gate: 'money' }, schema: hidden }, async (request, reply) => {
    const { orgId, caller } = orgScope(request);
    const view = await loadFactures(db, orgId, caller.isStaff, request.query);
    return page(request, reply, { title: 'Factures et paiements', script: 'pdf-button.js', main: renderFactures(view) }, facturesStatus(view));
  });

  // ---- Staff (gate `staff`: every organization, no active organization needed).

  fastify.get('/staff/facturation', { config: { gate: 'staff' }, schema: hidden }, async (request, reply) => {
    const view = await loadStaffInvoices(db, request.query);
    return page(request, reply, { title: 'Facturation', script: 'staff-facturation.js', main: renderStaffInvoices(view) }, view.error ? 400 : 200);
  });

  fastify.get('/staff/virements', { config: { gate: 'staff' }, schema: hidden }, async (request, reply) => {
    const view = await loadStaffTransfers(db, request.query);
    return page(request, reply, { title: 'Virements des salaires', script: 'staff-virements.js', main: renderStaffTransfers(view) }, view.error ? 400 : 200);
  });

  fastify.get('/staff/organisations', { config: { gate: 'staff' }, schema: hidden }, async (request, reply) => {
    const view = await loadStaffOrgs(db, request.query);
    return page(request, reply, { title: 'Organisations', main: renderStaffOrgs(view) }, view.error ? 400 : 200);
  });

  fastify.get<IdParams>('/staff/organisations/:id', { config: { gate: 'staff' }, schema: hidden }, async (request, reply) => {
    const view = await loadStaffOrg(db, request.params.id, request.query);
    return page(request, reply, { title: view.org.name, script: 'staff-organisation.js', main: renderStaffOrg(view) }, view.error ? 400 : 200);
  });

  fastify.get('/staff/cotisations', { config: { gate: 'staff' }, schema: hidden }, async (request, reply) => {
    const view = await loadStaffCalls(db, request.query);
    return page(request, reply, { title: 'Cotisations', script: 'staff-cotisations.js', main: renderStaffCalls(view) }, view.error ? 400 : 200);
  });

  // The jobs that failed (a document not made), their reason and a retry.
  fastify.get('/staff/travaux', { config: { gate: 'staff' }, schema: hidden }, async (request, reply) => {
    const view = await loadStaffJobs(db, request.query);
    return page(request, reply, { title: 'Travaux en échec', script: 'staff-travaux.js', main: renderStaffJobs(view) }, view.error ? 400 : 200);
  });

  // An organization's month, computed and validated, or typed in.
  fastify.get('/staff/paie', { config: { gate: 'staff' }, schema: hidden }, async (request, reply) => {
    const view = await loadStaffPaie(db, request.query);
    // Nothing asked yet: the organization staff work on (their switcher's choice) comes chosen.
    if (!view.query.org_id && !view.query.period) {
      const { orgId } = await activeOrgOf(db, request, 'staffSettings');
      if (orgId) view.query.org_id = orgId;
    }
    return page(request, reply, { title: 'Calcul de la paie', script: 'staff-paie.js', main: renderStaffPaie(view) }, view.error ? 400 : 200);
  });

  // The operator's identity and bank account: invoices' seller, SEPA files' debtor.
  fastify.get('/staff/operateur', { config: { gate: 'staff' }, schema: hidden }, async (request, reply) => {
    const view = await loadStaffOperator(db, config);
    return page(request, reply, { title: 'Opérateur', script: 'staff-operateur.js', main: renderStaffOperator(view) });
  });

  // Every organization's contracts; a row opens `/staff/contrats/{id}` below.
  fastify.get('/staff/contrats', { config: { gate: 'staff' }, schema: hidden }, async (request, reply) => {
    const view = await loadStaffGrid(db, request.query);
    return page(request, reply, { title: 'Tous les contrats', main: renderGrid(view) }, view.error ? 400 : 200);
  });

  // The link of the contract-note e-mail: the contract's organization becomes the
  // staff member's active one, as the switcher does, then its page. Sent by another site, it
  // changes nothing and shows a page whose link does it (staff-contrat.ts).
  fastify.get<IdParams>('/staff/contrats/:id', { config: { gate: 'staff' }, schema: hidden }, async (request, reply) => {
    if (!mayChangeStateOnGet(request)) {
      const contract = await contractToOpen({ db }, request.params.id);
      return page(request, reply, { title: `Contrat ${contract.contract_number}`, main: renderContractToOpen(contract) });
    }
    const contractId = await openContractAsStaff({ db }, request.caller!, request.params.id, reply, config.secureCookies);
    return reply.redirect(`/contrats/${contractId}`, 303);
  });
}
