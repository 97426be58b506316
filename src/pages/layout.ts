/** The shell every page shares: head, skip link, banner, main landmark, status region. */
import { html, type SafeHtml } from '../format/html.ts';

export interface PageShell {
  /** The page's own title; the document title is "<title> · Espace paie" (`APP_NAME`). */
  title: string;
  /** The page's module under `/assets/`, e.g. `login.js`. */
  script?: string;
  /** The signed-in person, shown in the banner with the logout button. */
  user?: { email: string; firstName: string | null } | null;
  /** The navigation bar (`nav.ts`: only the pages the caller may open). */
  nav?: SafeHtml;
  main: SafeHtml;
}

/**
 * The service's name, in the banner of every page and after every page's title: the words of
 * its e-mails ("l'espace paie de …"), not those of one page (the accesses are one part of it).
 */
export const APP_NAME = 'Espace paie';

export function renderPage(shell: PageShell): string {
  const { user } = shell;
  // A signed-in page without a script of its own still needs the banner's logout button.
  const script = shell.script ?? (user ? 'session.js' : undefined);
  return html`<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${shell.title} · ${APP_NAME}</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/style.css">
${script ? html`<script type="module" src="/assets/${script}"></script>` : ''}
</head>
<body>
<a class="skip-link" href="#contenu">Aller au contenu</a>
<header class="banner">
  <div class="banner-inner">
    <a class="brand" href="/">${APP_NAME}</a>
    ${
      user
        ? html`<div class="session">
      <span class="session-user">Connecté : <strong>${user.firstName ? `${user.firstName} (${user.email})` : user.email}</strong></span>
      <button type="button" class="button button-secondary" id="logout">Se déconnecter</button>
    </div>`
        : ''
    }
  </div>
  ${shell.nav ?? ''}
</header>
<main id="contenu" tabindex="-1">
${shell.main}
</main>
<noscript><p class="noscript">Cette page a besoin de JavaScript pour fonctionner. Activez-le puis rechargez la page.</p></noscript>
</body>
</html>
`.toString();
}

/** The live region where every page announces what happened (success or error). */
export function statusRegion(id = 'status'): SafeHtml {
  return html`<div id="${id}" class="status" role="status" aria-live="polite" aria-atomic="true"></div>`;
}

export interface ConfirmDialog {
  /** The dialog's id (`confirm` unless a page has several); its parts are `<id>-title` and `<id>-text`. */
  id?: string;
  title: string;
  /** Fixed text; else filled in by the script (`confirmWith` of `assets/session.js`). */
  text?: string;
  keepLabel: string;
  confirmLabel: string;
  /** Fields the confirmation asks for (a date), read by the script once confirmed. */
  fields?: SafeHtml;
}

/** A modal confirmation (`<dialog>`), opened by `confirmWith()`; the safe choice has the focus. */
export function confirmDialog(d: ConfirmDialog): SafeHtml {
  const id = d.id ?? 'confirm';
  return html`<dialog id="${id}" class="dialog" aria-labelledby="${id}-title" aria-describedby="${id}-text">
  <form method="dialog">
    <h2 id="${id}-title">${d.title}</h2>
    <p id="${id}-text">${d.text ?? ''}</p>
    ${d.fields ?? ''}
    <div class="dialog-actions">
      <button type="submit" value="cancel" class="button button-secondary" autofocus>${d.keepLabel}</button>
      <button type="submit" value="confirm" class="button button-danger" id="${id}-ok">${d.confirmLabel}</button>
    </div>
  </form>
</dialog>`;
}
