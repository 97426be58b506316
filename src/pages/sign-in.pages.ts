/** `/login` and `/activate`: static markup; their scripts call `/auth/magic-link` and `/auth/session`. */
import { html, type SafeHtml } from '../format/html.ts';
import { renderPage, statusRegion } from './layout.ts';

/** The confirmation shown whatever the address (no account discovery). */
export const LINK_SENT = "Si un compte existe pour cette adresse, un lien de connexion vient d'être envoyé.";

function emailForm(submitLabel: string, autofocus = false): SafeHtml {
  return html`<form id="email-form" class="form" novalidate data-sent="${LINK_SENT}">
    <div class="field">
      <label for="email">Adresse e-mail</label>
      <input id="email" name="email" type="email" autocomplete="email" inputmode="email" spellcheck="false"
        maxlength="320" required aria-describedby="email-error"${autofocus ? html` autofocus` : ''}>
      <p id="email-error" class="field-error" hidden></p>
    </div>
    <button type="submit" class="button">${submitLabel}</button>
  </form>`;
}

export function loginPage(): string {
  return renderPage({
    title: 'Connexion',
    script: 'login.js',
    main: html`<section class="card narrow" aria-labelledby="login-title">
  <h1 id="login-title">Connexion</h1>
  <p>Indiquez votre adresse e-mail : vous recevrez un lien de connexion, valable une heure.</p>
  ${emailForm('Recevoir un lien de connexion', true)}
  ${statusRegion()}
</section>`,
  });
}

/**
 * `signedInAs`: the e-mail of the session this browser already holds, if any. The script needs
 * it (a reload while signed in, another account's link) and reads it here rather than asking
 * `GET /api/me`, whose 401 to a visitor would be logged as an error by every browser.
 */
export function activatePage(signedInAs: string | null = null): string {
  return renderPage({
    title: 'Activation',
    script: 'activate.js',
    main: html`<section class="card narrow" id="activate" data-signed-in-as="${signedInAs ?? ''}" aria-labelledby="activate-title">
  <h1 id="activate-title">Activation de votre accès</h1>
  <div id="status" class="status" role="status" aria-live="polite" aria-atomic="true">Vérification de votre lien…</div>
  <p id="continue" hidden><a href="/" id="continue-link">Continuer</a></p>
  <div id="switch" class="notice" hidden>
    <h2>Ce lien est celui d'un autre compte</h2>
    <p id="switch-text"></p>
    <div class="dialog-actions">
      <a class="button button-secondary" href="/" id="switch-stay">Rester connecté</a>
      <button type="button" class="button" id="switch-confirm">Continuer</button>
    </div>
  </div>
  <div id="retry" hidden>
    <h2>Demander un nouveau lien</h2>
    <p>Saisissez votre adresse e-mail : si un compte existe, un nouveau lien de connexion vous sera envoyé.</p>
    ${emailForm('Recevoir un nouveau lien')}
    ${statusRegion('retry-status')}
    <p><a href="/login">Aller à la page de connexion</a></p>
  </div>
</section>`,
  });
}
