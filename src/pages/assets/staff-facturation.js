/**
 * /staff/facturation: the selection, the bulk notification (`POST
 * /api/staff/facturation/bulk-notify`) with its result written next to each invoice and
 * summed up under the button. Each invoice's PDF: `pdf-button.js`.
 */
import { announce, api } from './api.js';
import './pdf-button.js';
import { plural, setRowResult, wireSelection } from './selection.js';

/** MODULES 6: why an invoice was not sent. */
const REASONS = {
  not_found: 'facture introuvable',
  no_recipient: 'aucune adresse de notification',
  already_notified: 'déjà notifiée',
};

/** Turns `reason` at the end of `place`'s text into a link to the organization's page (`/staff/organisations/{id}`). */
function linkReason(place, reason, orgId) {
  const text = place.textContent ?? '';
  const link = document.createElement('a');
  link.href = `/staff/organisations/${encodeURIComponent(orgId)}`;
  link.textContent = reason;
  place.replaceChildren(text.slice(0, text.length - reason.length), link);
}

const status = /** @type {HTMLElement} */ (document.getElementById('notify-status'));
const details = document.getElementById('notify-details');
const count = document.getElementById('selection-count');
const button = /** @type {HTMLButtonElement | null} */ (document.getElementById('notify-selected'));
const force = /** @type {HTMLInputElement | null} */ (document.getElementById('notify-force'));

const selection = wireSelection((checked) => {
  if (count) count.textContent = checked.length === 0 ? 'Aucune facture sélectionnée.' : `${plural(checked.length, 'facture sélectionnée', 'factures sélectionnées')}.`;
});

/** Today in the operator's calendar, as the server writes it (`23/11/2026`). */
const today = () => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());

let busy = false;

button?.addEventListener('click', async () => {
  const rows = selection.selectedRows();
  if (rows.length === 0) {
    announce(status, 'Sélectionnez au moins une facture.', 'error');
    return;
  }
  if (busy) return;
  busy = true;
  button.setAttribute('aria-disabled', 'true');
  const byId = new Map(rows.map((row) => [row.dataset.invoiceId, row]));
  try {
    const answer = await api('POST', '/api/staff/facturation/bulk-notify', { invoice_ids: [...byId.keys()], force: Boolean(force?.checked) });
    for (const id of answer.notified) {
      const row = byId.get(id);
      setRowResult(row, 'Notifiée', 'ok');
      const cell = row?.querySelector('.notified');
      if (cell) cell.textContent = `Oui, le ${today()}`;
    }
    details?.replaceChildren(
      ...answer.skipped.map((/** @type {{ id: string, reason: string }} */ skip) => {
        const row = byId.get(skip.id);
        const reason = REASONS[skip.reason] ?? skip.reason;
        setRowResult(row, `Non envoyée : ${reason}`, 'skipped');
        const item = document.createElement('li');
        item.className = 'result-skipped';
        item.textContent = `${row?.dataset.number ?? skip.id} : ${reason}`;
        // No address: the reason leads to the organization's page, where staff add one.
        if (skip.reason === 'no_recipient' && row?.dataset.orgId) {
          for (const place of [row.querySelector('.row-result span'), item]) if (place) linkReason(place, reason, row.dataset.orgId);
        }
        return item;
      }),
    );
    selection.clear();
    const sent = answer.notified.length === 0 ? 'Aucune facture notifiée' : plural(answer.notified.length, 'facture notifiée', 'factures notifiées');
    const skipped = answer.skipped.length === 0 ? '' : `, ${plural(answer.skipped.length, 'non envoyée', 'non envoyées')}`;
    announce(status, `${sent}${skipped}.`, answer.skipped.length === 0 ? 'success' : 'info');
  } catch (error) {
    announce(status, error instanceof Error ? error.message : String(error), 'error');
  } finally {
    busy = false;
    button.removeAttribute('aria-disabled');
  }
});
