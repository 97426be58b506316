/**
 * The French e-mails (SPEC 6, CONTRACT 6). PROVISIONAL minimal bodies: the mail pipeline
 * work replaces them with the full layouts. Signatures are the interface other modules use.
 */
import type { RenderedMail } from './outbox.ts';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface ActivationMailInput {
  firstName: string | null;
  orgName: string | null;
  /** The access level shown in the box: a member role (ADMIN…) or a staff level (STAFF…). */
  role: string;
  /** Who invited: a name or e-mail, with their status (e.g. "Équipe Odentas", "Administrateur"). */
  inviter: { name: string; status: string } | null;
  activationUrl: string;
  supportEmail: string;
}

export function activationEmail(input: ActivationMailInput): RenderedMail {
  return {
    subject: 'Activez votre compte',
    text: `Activez votre compte\n${input.activationUrl}\n`,
    html: `<h1>Activez votre compte</h1><a href="${escapeHtml(input.activationUrl)}">Activer</a>`,
  };
}

export interface AccessUpdatedMailInput {
  firstName: string | null;
  orgName: string;
  oldRole: string;
  newRole: string;
  /** The caller's e-mail, or `Administrateur`. */
  updatedBy: string;
  /** Already formatted: `fr-FR` date-time in MAIL_TIMEZONE. */
  updatedAt: string;
  accessUrl: string;
  supportEmail: string;
}

export function accessUpdatedEmail(input: AccessUpdatedMailInput): RenderedMail {
  return {
    subject: 'Vos accès ont été mis à jour',
    text: `${input.orgName}: ${input.oldRole} -> ${input.newRole}\n${input.accessUrl}\n`,
    html: `<p>${escapeHtml(input.orgName)}</p>`,
  };
}

export interface SignInMailInput {
  firstName: string | null;
  url: string;
  supportEmail: string;
}

export function signInEmail(input: SignInMailInput): RenderedMail {
  return {
    subject: 'Votre lien de connexion',
    text: `${input.url}\n`,
    html: `<a href="${escapeHtml(input.url)}">Se connecter</a>`,
  };
}
