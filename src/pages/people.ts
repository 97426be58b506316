/**
 * The people tables of the access pages (`/vos-acces`'s members, `/staff/equipe`'s team): one
 * shape (first name, e-mail, role or level, status, actions), with long values cut.
 */
import { html, type SafeHtml } from '../format/html.ts';

/**
 * A value typed by a person (a first name, an e-mail) in a table cell: cut with an ellipsis
 * when it is too long for its column, the full value in a tooltip (`title`).
 */
export function clipped(value: string, className = ''): SafeHtml {
  return html`<span class="clip ${className}" title="${value}">${value}</span>`;
}

/** The first-name and e-mail cells of a person's row. */
export function personCells(firstName: string | null, email: string): SafeHtml {
  return html`<td data-label="Prénom" class="name">${firstName ? clipped(firstName) : html`<span class="muted">—</span>`}</td>
    <td data-label="E-mail" class="email">${clipped(email, 'clip-wrap')}</td>`;
}

/** A people table: `roleHeader` names the third column ("Rôle", "Niveau"); `rows` come from `personCells`. */
export function peopleTable(caption: string, roleHeader: string, rows: SafeHtml[]): SafeHtml {
  return html`<div class="table-wrap"><table class="table stack members">
      <caption class="visually-hidden">${caption}</caption>
      <colgroup><col class="col-name"><col class="col-email"><col class="col-role"><col class="col-status"><col class="col-actions"></colgroup>
      <thead><tr><th scope="col">Prénom</th><th scope="col">E-mail</th><th scope="col">${roleHeader}</th><th scope="col">Statut</th><th scope="col">Actions</th></tr></thead>
      <tbody>${rows}</tbody>
    </table></div>`;
}
