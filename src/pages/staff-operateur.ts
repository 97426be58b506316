/**
 * `/staff/operateur` (gate `staff`): the operator's identity and bank account, the seller of
 * invoices and the debtor of SEPA files (`GET /api/staff/operator`), which the page's script
 * (`staff-operateur.js`) saves through `PATCH /api/staff/operator`. Each field says whether its
 * value is saved here or comes from the server's environment, and what a missing one disables.
 */
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { html, type SafeHtml } from '../format/html.ts';
import { readOperatorSettings } from '../operator/operator.service.ts';
import { statusRegion } from './layout.ts';

type OperatorView = Awaited<ReturnType<typeof readOperatorSettings>>;
type Field = OperatorView['saved'][number];

export function loadStaffOperator(db: Database, config: Pick<Config, 'operator'>): Promise<OperatorView> {
  return readOperatorSettings(db, config);
}

/** The settings' names, as the page and its refusals say them. */
export const OPERATOR_LABELS: Record<Field, string> = {
  name: 'Raison sociale',
  siren: 'SIREN',
  siret: 'SIRET',
  vat: 'N° de TVA intracommunautaire',
  address: 'Adresse',
  postcode: 'Code postal',
  city: 'Ville',
  iban: 'IBAN',
  bic: 'BIC',
};

const HINTS: Partial<Record<Field, string>> = {
  siren: '9 chiffres ; le SIRET le donne quand il est renseigné.',
  siret: '14 chiffres, commençant par le SIREN.',
  vat: 'Par exemple FR38843127630.',
  postcode: '5 chiffres.',
  iban: 'Le compte qui paie les salaires et qui reçoit les virements des factures.',
  bic: '8 ou 11 caractères.',
};

function origin(view: OperatorView, field: Field): string {
  return view.saved.includes(field) ? 'Enregistré ici.' : "Valeur par défaut de l'environnement du serveur.";
}

function field(view: OperatorView, name: Field, options: { maxlength?: number; wide?: boolean; inputmode?: string } = {}): SafeHtml {
  const id = `operator-${name}`;
  const value = view[name] ?? '';
  const hint = HINTS[name];
  return html`<div class="field${options.wide ? ' field-wide' : ''}">
        <label for="${id}">${OPERATOR_LABELS[name]}</label>
        <input id="${id}" name="${name}" type="text"${options.inputmode ? html` inputmode="${options.inputmode}"` : ''} maxlength="${options.maxlength ?? 200}" autocomplete="off" spellcheck="false" value="${value}" data-initial="${value}" aria-describedby="${id}-origin${hint ? html` ${id}-hint` : ''} ${id}-error">
        ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
        <p class="hint" id="${id}-origin" data-origin="${name}">${origin(view, name)}</p>
        <p id="${id}-error" class="field-error" hidden></p>
      </div>`;
}

/** What the missing settings disable, in words; nothing when all is set. */
export function renderGaps(view: OperatorView): SafeHtml {
  const names = (fields: readonly Field[]) => fields.map((f) => OPERATOR_LABELS[f]).join(', ');
  const lines = [
    view.missing.invoices.length ? html`<li>Factures : aucun document (Factur-X) tant que manque : ${names(view.missing.invoices)}.</li>` : '',
    view.missing.sepa.length
      ? html`<li>Virements : aucun lot ni fichier SEPA, ni facture payable par virement, tant que manque ou n'est pas valide : ${names(view.missing.sepa)}.</li>`
      : '',
  ];
  return view.missing.invoices.length || view.missing.sepa.length
    ? html`<section class="notice" id="operator-gaps" aria-labelledby="operator-gaps-title"><h2 id="operator-gaps-title">Réglages incomplets</h2><ul>${lines}</ul></section>`
    : html`<p class="hint" id="operator-gaps">Tout est renseigné : factures et fichiers SEPA peuvent être produits.</p>`;
}

export function renderStaffOperator(view: OperatorView): SafeHtml {
  return html`<div class="page" id="staff-operateur">
  <h1>Opérateur</h1>
  <p class="lead">L'identité et le compte bancaire de l'opérateur : le vendeur des factures et le donneur d'ordre des virements de salaires. Chaque modification est vérifiée et inscrite au journal ; les documents déjà produits ne changent pas.</p>
  <div id="operator-gaps-region">${renderGaps(view)}</div>
  <form id="operator-form" class="card form" novalidate aria-labelledby="operator-title">
    <h2 id="operator-title">Réglages</h2>
    <fieldset class="fieldset">
      <legend>Identité (factures)</legend>
      <div class="form-row">
        ${field(view, 'name', { wide: true })}
        ${field(view, 'siren', { maxlength: 20, inputmode: 'numeric' })}
        ${field(view, 'siret', { maxlength: 20, inputmode: 'numeric' })}
        ${field(view, 'vat', { maxlength: 20 })}
      </div>
      <div class="form-row">
        ${field(view, 'address', { wide: true })}
        ${field(view, 'postcode', { maxlength: 10, inputmode: 'numeric' })}
        ${field(view, 'city')}
      </div>
    </fieldset>
    <fieldset class="fieldset">
      <legend>Compte bancaire (virements)</legend>
      <div class="form-row">
        ${field(view, 'iban', { maxlength: 64, wide: true })}
        ${field(view, 'bic', { maxlength: 20 })}
      </div>
    </fieldset>
    <div class="actions">
      <button type="submit" class="button" id="operator-save">Enregistrer</button>
    </div>
    ${statusRegion('operator-status')}
  </form>
</div>`;
}
