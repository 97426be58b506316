/**
 * The French e-mails (SPEC 6, CONTRACT 6, MODULES 4, 6): activation, access updated, sign-in link,
 * contract note, invoice notification.
 *
 * Each e-mail has an HTML part and a plain-text part carrying the same facts. Every
 * interpolated value goes through `escapeHtml` in the HTML part (names and organization
 * names are typed by users), and through `oneLine` in both parts so that a value with line
 * breaks cannot forge extra lines ("Cliquez ici : …") into the message.
 *
 * The layout is a single-column table with inline styles only: mail clients strip `<style>`
 * blocks and external resources, and tables are what they all render the same way.
 */
import type { RenderedMail } from './outbox.ts';
import { dateTimeFormat } from '../format/french.ts';
import { escapeHtml } from '../format/html.ts';

/** Control characters (line breaks, tabs…) of a user-typed value become one space. */
function oneLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

/**
 * A multi-line user text as lines: each line without control characters, blank lines
 * around it dropped. Quoted ("> ") in the text part, a line cannot pass for the e-mail's own.
 */
function quotedLines(value: string): string[] {
  return value
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[\u0000-\u001f\u007f]+/g, ' ').trimEnd())
    .join('\n')
    .trim()
    .split('\n');
}

const ROLE_LABELS: Record<string, string> = {
  ADMIN: 'Administrateur',
  SUPER_ADMIN: 'Administrateur principal',
  AGENT: 'Agent',
  COMPTA: 'Comptabilité',
  STAFF: 'Membre (équipe interne)',
  SUPER_STAFF: 'Super-administrateur (équipe interne)',
};

/**
 * The French label of a member role or staff level; an unknown value is shown as it is.
 * @example roleLabel('COMPTA') // 'Comptabilité'
 */
export function roleLabel(role: string): string {
  return Object.hasOwn(ROLE_LABELS, role) ? ROLE_LABELS[role]! : role;
}

/**
 * A date-time as written in e-mails: `fr-FR`, long date and short time, in `timeZone`
 * (CONTRACT 6: `MAIL_TIMEZONE`).
 * @example formatMailDate(new Date('2026-11-22T09:05:00Z'), 'Europe/Paris') // '22 novembre 2026 à 10:05'
 */
export function formatMailDate(date: Date, timeZone: string): string {
  return dateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone }).format(date);
}

// ---------------------------------------------------------------------------------------
// Building blocks. Each piece of content is described once and rendered to both parts.

/** A fact shown as "Label : value" (text) and as a row of the box (HTML). */
interface Fact {
  label: string;
  value: string;
}

type Block =
  | { type: 'paragraph'; text: string }
  | { type: 'facts'; facts: Fact[] }
  | { type: 'button'; label: string; url: string }
  | { type: 'note'; text: string }
  /** A text typed by a user, kept on several lines: quoted line by line ("> ") in the text part. */
  | { type: 'quote'; text: string }
  | { type: 'contact'; supportEmail: string };

interface MailContent {
  subject: string;
  title: string;
  /** The one-line summary clients show next to the subject. */
  preheader: string;
  greeting: string;
  blocks: Block[];
}

const COLORS = {
  page: '#f3f4f6',
  card: '#ffffff',
  text: '#1f2937',
  muted: '#4b5563',
  box: '#f0f4ff',
  boxBorder: '#c7d2fe',
  button: '#1d4ed8',
};
const FONT = "font-family:Arial,'Helvetica Neue',Helvetica,sans-serif";

function greetingOf(firstName: string | null): string {
  const name = firstName ? oneLine(firstName) : '';
  return name ? `Bonjour ${name},` : 'Bonjour,';
}

function renderTextBlock(block: Block): string {
  switch (block.type) {
    case 'paragraph':
    case 'note':
      return block.text;
    case 'facts':
      return block.facts.map((f) => `${f.label} : ${f.value}`).join('\n');
    case 'button':
      return `${block.label} :\n${block.url}`;
    case 'quote':
      return quotedLines(block.text).map((line) => `> ${line}`).join('\n');
    case 'contact':
      return `Une question ? Écrivez-nous à ${block.supportEmail}.`;
  }
}

function renderText(content: MailContent): string {
  const parts = [content.title, '', content.greeting, ...content.blocks.flatMap((b) => ['', renderTextBlock(b)])];
  return `${parts.join('\n')}\n`;
}

const P = `margin:0 0 16px 0;${FONT};font-size:16px;line-height:24px;color:${COLORS.text};`;

function renderHtmlBlock(block: Block): string {
  switch (block.type) {
    case 'paragraph':
      return `<p style="${P}">${escapeHtml(block.text)}</p>`;
    case 'note':
      return `<p style="${P}font-size:14px;line-height:20px;color:${COLORS.muted};">${escapeHtml(block.text)}</p>`;
    case 'facts': {
      const rows = block.facts
        .map(
          (f) =>
            `<tr><th scope="row" align="left" style="padding:4px 12px 4px 0;${FONT};font-size:15px;font-weight:bold;color:${COLORS.muted};vertical-align:top;white-space:nowrap;">${escapeHtml(f.label)} :</th>` +
            `<td style="padding:4px 0;${FONT};font-size:15px;color:${COLORS.text};vertical-align:top;">${escapeHtml(f.value)}</td></tr>`,
        )
        .join('');
      return (
        `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 20px 0;background:${COLORS.box};border:1px solid ${COLORS.boxBorder};border-radius:6px;">` +
        `<tr><td style="padding:14px 16px;"><table role="presentation" cellpadding="0" cellspacing="0" border="0">${rows}</table></td></tr></table>`
      );
    }
    case 'button': {
      const href = escapeHtml(block.url);
      return (
        `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px 0;"><tr>` +
        `<td align="center" bgcolor="${COLORS.button}" style="border-radius:6px;">` +
        `<a href="${href}" style="display:inline-block;padding:12px 24px;${FONT};font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(block.label)}</a>` +
        `</td></tr></table>` +
        `<p style="${P}font-size:14px;line-height:20px;color:${COLORS.muted};">Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :<br>` +
        `<a href="${href}" style="color:${COLORS.button};word-break:break-all;">${href}</a></p>`
      );
    }
    case 'quote':
      return (
        `<blockquote style="margin:0 0 20px 0;padding:12px 16px;border-left:4px solid ${COLORS.boxBorder};background:${COLORS.box};${FONT};font-size:15px;line-height:22px;color:${COLORS.text};">` +
        `${quotedLines(block.text).map(escapeHtml).join('<br>')}</blockquote>`
      );
    case 'contact': {
      const email = escapeHtml(block.supportEmail);
      return `<p style="${P}font-size:14px;line-height:20px;color:${COLORS.muted};">Une question ? Écrivez-nous à <a href="mailto:${email}" style="color:${COLORS.button};">${email}</a>.</p>`;
    }
  }
}

function renderHtml(content: MailContent): string {
  const title = escapeHtml(content.title);
  return `<!DOCTYPE html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
</head>
<body style="margin:0;padding:0;background:${COLORS.page};">
<div style="display:none;max-height:0;overflow:hidden;">${escapeHtml(content.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${COLORS.page};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:${COLORS.card};border-radius:8px;">
<tr><td style="padding:32px 32px 16px 32px;">
<h1 style="margin:0 0 24px 0;${FONT};font-size:24px;line-height:32px;color:${COLORS.text};">${title}</h1>
<p style="${P}">${escapeHtml(content.greeting)}</p>
${content.blocks.map(renderHtmlBlock).join('\n')}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

function render(content: MailContent): RenderedMail {
  return { subject: content.subject, text: renderText(content), html: renderHtml(content) };
}

// ---------------------------------------------------------------------------------------
// The e-mails.

export interface Inviter {
  firstName: string | null;
  email: string;
  /** Already in words, e.g. "Administrateur" (see `roleLabel`). */
  status: string;
}

/** "Bruno (bruno@x.fr), Administrateur", or "bruno@x.fr, Administrateur": one pair of parentheses at most. */
export function inviterText(inviter: Inviter): string {
  const firstName = inviter.firstName ? oneLine(inviter.firstName) : '';
  const email = oneLine(inviter.email);
  const who = firstName ? `${firstName} (${email})` : email;
  const status = oneLine(inviter.status);
  return status ? `${who}, ${status}` : who;
}

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

/** SPEC 6: the invitation, with its 7-day activation link. */
export function activationEmail(input: ActivationMailInput): RenderedMail {
  const facts: Fact[] = [];
  if (input.inviter) facts.push({ label: 'Invité par', value: inviterText(input.inviter) });
  const orgName = input.orgName ? oneLine(input.orgName) : '';
  if (orgName) facts.push({ label: 'Organisation', value: orgName });
  facts.push({ label: "Niveau d'accès", value: roleLabel(oneLine(input.role)) });

  return render({
    subject: 'Activez votre compte',
    title: 'Activez votre compte',
    preheader: orgName ? `Vous êtes invité(e) à rejoindre ${orgName}.` : "Vous êtes invité(e) à rejoindre l'espace paie.",
    greeting: greetingOf(input.firstName),
    blocks: [
      {
        type: 'paragraph',
        text: orgName
          ? `Vous êtes invité(e) à rejoindre l'espace paie de ${orgName}. Activez votre compte pour y accéder.`
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

export interface StaffWelcomeMailInput {
  firstName: string | null;
  /** STAFF or SUPER_STAFF. */
  level: string;
  /** The staff member who created the account; null for the command line. */
  addedBy: Inviter | null;
  /** A one-time link to sign in the first time (the account is active already). */
  signInUrl: string;
  supportEmail: string;
}

/**
 * SPEC 2.3, CONTRACT 5: a new staff account, active at creation. Its subject is the activation
 * e-mail's (CONTRACT 6); its words welcome rather than ask for an activation that already happened.
 */
export function staffWelcomeEmail(input: StaffWelcomeMailInput): RenderedMail {
  const facts: Fact[] = [{ label: "Niveau d'accès", value: roleLabel(oneLine(input.level)) }];
  if (input.addedBy) facts.unshift({ label: 'Ajouté(e) par', value: inviterText(input.addedBy) });
  return render({
    subject: 'Activez votre compte',
    title: "Bienvenue dans l'équipe interne",
    preheader: "Votre compte de l'équipe interne est prêt.",
    greeting: greetingOf(input.firstName),
    blocks: [
      {
        type: 'paragraph',
        text: "Votre compte de l'équipe interne est prêt et déjà actif : vous pouvez gérer les accès de toutes les organisations.",
      },
      { type: 'facts', facts },
      { type: 'button', label: 'Me connecter', url: input.signInUrl },
      {
        type: 'note',
        text: "Ce lien est valable 7 jours et ne peut servir qu'une fois. Ensuite, demandez un lien de connexion sur la page de connexion.",
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

/** SPEC 4.2 rule 7.3, CONTRACT 6: the role of an existing membership changed. */
export function accessUpdatedEmail(input: AccessUpdatedMailInput): RenderedMail {
  const orgName = oneLine(input.orgName);
  return render({
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

export interface SignInMailInput {
  firstName: string | null;
  url: string;
  supportEmail: string;
}

/** CONTRACT 4: the one-hour sign-in link asked for on `/login`. */
export function signInEmail(input: SignInMailInput): RenderedMail {
  return render({
    subject: 'Votre lien de connexion',
    title: 'Votre lien de connexion',
    preheader: 'Votre lien pour vous connecter, valable 1 heure.',
    greeting: greetingOf(input.firstName),
    blocks: [
      { type: 'paragraph', text: "Voici votre lien pour vous connecter à l'espace paie." },
      { type: 'button', label: 'Me connecter', url: input.url },
      { type: 'note', text: "Ce lien est valable 1 heure et ne peut servir qu'une fois." },
      {
        type: 'note',
        text: "Si vous n'avez pas demandé ce lien, vous pouvez ignorer cet e-mail : personne ne peut se connecter sans lui.",
      },
      { type: 'contact', supportEmail: input.supportEmail },
    ],
  });
}

export interface ContractNoteMailInput {
  orgName: string;
  /** The employer code (`structure_api`), when the organization has one. */
  structureApi: string | null;
  contractNumber: string;
  /** Who wrote the note. */
  author: { name: string | null; email: string };
  text: string;
  /** `{PUBLIC_URL}/staff/contrats/{id}`. */
  contractUrl: string;
}

/** SPEC 6, MODULES 4: a client added a note to a contract; to the payroll mailbox. */
export function contractNoteEmail(input: ContractNoteMailInput): RenderedMail {
  const number = oneLine(input.contractNumber);
  const orgName = oneLine(input.orgName);
  const name = input.author.name ? oneLine(input.author.name) : '';
  const email = oneLine(input.author.email);
  return render({
    subject: `Nouvelle note sur le contrat ${number}`,
    title: `Nouvelle note sur le contrat ${number}`,
    preheader: `${orgName} a ajouté une note au contrat ${number}.`,
    greeting: 'Bonjour,',
    blocks: [
      { type: 'paragraph', text: `Une note a été ajoutée au contrat ${number} par un utilisateur de ${orgName}.` },
      {
        type: 'facts',
        facts: [
          { label: 'Organisation', value: orgName },
          { label: 'Code employeur', value: input.structureApi ? oneLine(input.structureApi) : '—' },
          { label: 'Contrat', value: number },
          { label: 'Utilisateur', value: name ? `${name} <${email}>` : email },
        ],
      },
      { type: 'quote', text: input.text },
      { type: 'button', label: 'Ouvrir le contrat', url: input.contractUrl },
    ],
  });
}

export interface InvoiceMailInput {
  number: string;
  orgName: string;
  invoiceType: 'paie_mensuelle' | 'frais_ouverture' | 'prestation';
  paymentMethod: 'prelevement' | 'virement';
  /** May be empty: a monthly payroll invoice then says "du mois". */
  periodLabel: string;
  /** Already formatted (`formatDateFr`). */
  issueDate: string;
  dueDate: string;
  /** Already formatted (`formatEuros`). */
  totalHt: string;
  totalVat: string;
  totalTtc: string;
  /** The operator's name, and its account for a transfer (null when unset). */
  operatorName: string;
  operatorIban: string | null;
  operatorBic: string | null;
  /** `{PUBLIC_URL}/factures`. */
  invoicesUrl: string;
  supportEmail: string;
}

/** "FR7630006000011234567890189" → "FR76 3000 6000 0112 3456 7890 189" (as printed for people). */
export function ibanForReading(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * What the invoice is, in the sentence "Votre facture … est disponible" (SPEC 6, MODULES 6):
 * a monthly payroll invoice names its period, or says "du mois" when the label is empty.
 */
export function invoiceSubjectLine(invoiceType: InvoiceMailInput['invoiceType'], periodLabel: string): string {
  const label = oneLine(periodLabel);
  switch (invoiceType) {
    case 'paie_mensuelle':
      return label ? `de gestion de la paie pour la période ${label}` : 'de gestion de la paie du mois';
    case 'frais_ouverture':
      return label ? `de frais d'ouverture de dossier (${label})` : "de frais d'ouverture de dossier";
    case 'prestation':
      return label ? `de prestation (${label})` : 'de prestation';
  }
}

/** SPEC 6, MODULES 6: an invoice is available; the text by type and payment method. */
export function invoiceEmail(input: InvoiceMailInput): RenderedMail {
  const number = oneLine(input.number);
  const orgName = oneLine(input.orgName);
  const what = invoiceSubjectLine(input.invoiceType, input.periodLabel);
  const payment: Block[] =
    input.paymentMethod === 'prelevement'
      ? [{ type: 'paragraph', text: `Le montant de ${input.totalTtc} sera prélevé sur votre compte le ${input.dueDate}, date d'échéance de la facture. Vous n'avez rien à faire.` }]
      : [
          {
            type: 'paragraph',
            text: `Merci de régler la somme de ${input.totalTtc} par virement avant le ${input.dueDate}, en indiquant la référence ${number} dans le libellé du virement.`,
          },
          ...(input.operatorIban
            ? [
                {
                  type: 'facts' as const,
                  facts: [
                    { label: 'Bénéficiaire', value: oneLine(input.operatorName) },
                    { label: 'IBAN', value: ibanForReading(input.operatorIban) },
                    ...(input.operatorBic ? [{ label: 'BIC', value: input.operatorBic }] : []),
                    { label: 'Référence', value: number },
                  ],
                },
              ]
            : []),
        ];
  return render({
    subject: `Votre facture ${number} est disponible`,
    title: `Votre facture ${number} est disponible`,
    preheader: `Votre facture ${what} est disponible : ${input.totalTtc}.`,
    greeting: 'Bonjour,',
    blocks: [
      { type: 'paragraph', text: `Votre facture ${what} est disponible dans votre espace, pour ${orgName}.` },
      {
        type: 'facts',
        facts: [
          { label: 'Facture', value: number },
          { label: "Date d'émission", value: input.issueDate },
          { label: 'Montant HT', value: input.totalHt },
          { label: 'TVA', value: input.totalVat },
          { label: 'Montant TTC', value: input.totalTtc },
          { label: 'Échéance', value: input.dueDate },
          { label: 'Règlement', value: input.paymentMethod === 'prelevement' ? 'prélèvement SEPA' : 'virement bancaire' },
        ],
      },
      ...payment,
      { type: 'button', label: 'Voir mes factures', url: input.invoicesUrl },
      { type: 'contact', supportEmail: input.supportEmail },
    ],
  });
}
