/** The access e-mails: the invitation and a changed role. */
import type { RenderedMail } from '../mail/outbox.ts';
import { greetingOf, inviterText, oneLine, renderMail, type Fact, type Inviter } from '../mail/templates.ts';
import { roleLabel } from '../org/role.labels.ts';
import { ofFr } from '../format/french.ts';

export interface ActivationMailInput {
  firstName: string | null;
  orgName: string | null;
  /** The access level shown in the box: a member role (ADMIN…) or a staff level (STAFF…). */
  role: string;
  /** Who invited: first name (when known), e-mail, and their status (a role or staff level label). */
  inviter: Inviter | null;
  activationUrl: string;
  supportEmail: string;
}

/** The invitation, with its 7-day activation link. */
export function activationEmail(input: ActivationMailInput): RenderedMail {
  const facts: Fact[] = [];
  if (input.inviter) facts.push({ label: 'Invité par', value: inviterText(input.inviter) });
  const orgName = input.orgName ? oneLine(input.orgName) : '';
  if (orgName) facts.push({ label: 'Organisation', value: orgName });
  facts.push({ label: "Niveau d'accès", value: roleLabel(oneLine(input.role)) });

  return renderMail({
    subject: 'Activez votre compte',
    title: 'Activez votre compte',
    preheader: orgName ? `Vous êtes invité(e) à rejoindre ${orgName}.` : "Vous êtes invité(e) à rejoindre l'espace paie.",
    greeting: greetingOf(input.firstName),
    blocks: [
      {
        type: 'paragraph',
        text: orgName
          ? `Vous êtes invité(e) à rejoindre l'espace paie ${ofFr(orgName)}. Activez votre compte pour y accéder.`
          : "Vous êtes invité(e) à rejoindre l'espace paie. Activez votre compte pour y accéder.",
      },
      { type: 'facts', facts },
      { type: 'button', label: 'Activer mon compte', url: input.activationUrl },
      {
        type: 'note',
        text: "Ce lien est valable 7 jours et ne peut servir qu'une fois. S'il a expiré, demandez à la personne qui vous a invité(e) de vous renvoyer l'invitation.",
      },
      { type: 'contact', supportEmail: input.supportEmail },
    ],
  });
}

export interface AccessUpdatedMailInput {
  firstName: string | null;
  orgName: string;
  oldRole: string;
  newRole: string;
  /** The caller's e-mail, or `Administrateur`. */
  updatedBy: string;
  /** Already formatted: `fr-FR` date-time in MAIL_TIMEZONE (see `formatMailDate`). */
  updatedAt: string;
  accessUrl: string;
  supportEmail: string;
}

/** The role of an existing membership changed. */
export function accessUpdatedEmail(input: AccessUpdatedMailInput): RenderedMail {
  const orgName = oneLine(input.orgName);
  return renderMail({
    subject: 'Vos accès ont été mis à jour',
    title: 'Vos accès ont été mis à jour',
    preheader: `Votre niveau d'accès à ${orgName} a changé.`,
    greeting: greetingOf(input.firstName),
    blocks: [
      { type: 'paragraph', text: `Votre niveau d'accès à l'organisation ${orgName} a été modifié.` },
      {
        type: 'facts',
        facts: [
          { label: 'Organisation', value: orgName },
          { label: 'Ancien rôle', value: roleLabel(oneLine(input.oldRole)) },
          { label: 'Nouveau rôle', value: roleLabel(oneLine(input.newRole)) },
          { label: 'Modifié par', value: oneLine(input.updatedBy) },
          { label: 'Date', value: oneLine(input.updatedAt) },
        ],
      },
      { type: 'button', label: 'Voir mes accès', url: input.accessUrl },
      { type: 'note', text: 'Si ce changement vous semble anormal, prévenez un administrateur de votre organisation.' },
      { type: 'contact', supportEmail: input.supportEmail },
    ],
  });
}
