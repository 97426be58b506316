/**
 * The frame of the French e-mails: blocks rendered to an HTML
 * and a plain-text part. The e-mails themselves belong to their modules (`access/access.mail.ts`,
 * `contracts/contract.mail.ts`, `invoices/invoice.mail.ts`, …), which describe their content
 * with these blocks.
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
export function oneLine(value: string): string {
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

/**
 * A date-time as written in e-mails: `fr-FR`, long date and short time, in `timeZone`
 * (`MAIL_TIMEZONE`).
 * @example formatMailDate(new Date('2026-11-22T09:05:00Z'), 'Europe/Paris') // '22 novembre 2026 à 10:05'
 */
export function formatMailDate(date: Date, timeZone: string): string {
  return dateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone }).format(date);
}

// ---------------------------------------------------------------------------------------
// Building blocks. Each piece of content is described once and rendered to both parts.

/** A fact shown as "Label : value" (text) and as a row of the box (HTML). */
export interface Fact {
  label: string;
  value: string;
}

export type Block =
  | { type: 'paragraph'; text: string }
  | { type: 'facts'; facts: Fact[] }
  | { type: 'button'; label: string; url: string }
  | { type: 'note'; text: string }
  /** A text typed by a user, kept on several lines: quoted line by line ("> ") in the text part. */
  | { type: 'quote'; text: string }
  | { type: 'contact'; supportEmail: string };

export interface MailContent {
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

export function greetingOf(firstName: string | null): string {
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
      return quotedLines(block.text)
        .map((line) => `> ${line}`)
        .join('\n');
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

/** The HTML and text parts of one e-mail, from its content. */
export function renderMail(content: MailContent): RenderedMail {
  return { subject: content.subject, text: renderText(content), html: renderHtml(content) };
}

// ---------------------------------------------------------------------------------------
// Wording shared by the modules' e-mails (each module writes its own: `<module>.mail.ts`).

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
