/** /login: asks for a sign-in link. */
import { wireEmailForm } from './email-form.js';

wireEmailForm(/** @type {HTMLFormElement} */ (document.getElementById('email-form')), /** @type {HTMLElement} */ (document.getElementById('status')));
