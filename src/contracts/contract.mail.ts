/** The contracts module's e-mail: a client's note, to the payroll mailbox. */
import type { RenderedMail } from '../mail/outbox.ts';
import { oneLine, renderMail } from '../mail/templates.ts';
import { ofFr } from '../format/french.ts';

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

/** A client added a note to a contract; to the payroll mailbox. */
export function contractNoteEmail(input: ContractNoteMailInput): RenderedMail {
  const number = oneLine(input.contractNumber);
  const orgName = oneLine(input.orgName);
  const name = input.author.name ? oneLine(input.author.name) : '';
  const email = oneLine(input.author.email);
  return renderMail({
    subject: `Nouvelle note sur le contrat ${number}`,
    title: `Nouvelle note sur le contrat ${number}`,
    preheader: `${orgName} a ajouté une note au contrat ${number}.`,
    greeting: 'Bonjour,',
    blocks: [
      { type: 'paragraph', text: `Une note a été ajoutée au contrat ${number} par un utilisateur ${ofFr(orgName)}.` },
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

export interface StaffNoteMailInput {
  orgName: string;
  contractNumber: string;
  /** The employee the contract is for. */
  employeeName: string;
  text: string;
  /** `{PUBLIC_URL}/contrats/{id}`. */
  contractUrl: string;
}

/**
 * The payroll team added a note to a contract; to the organization's people who
 * wrote on it. Signed "Équipe paie", never with the staff member's address.
 */
export function staffNoteEmail(input: StaffNoteMailInput): RenderedMail {
  const number = oneLine(input.contractNumber);
  const orgName = oneLine(input.orgName);
  return renderMail({
    subject: `Nouvelle note de l'équipe paie sur le contrat ${number}`,
    title: `Nouvelle note sur le contrat ${number}`,
    preheader: `L'équipe paie a ajouté une note au contrat ${number}.`,
    greeting: 'Bonjour,',
    blocks: [
      { type: 'paragraph', text: `L'équipe paie a ajouté une note au contrat ${number}, sur lequel vous avez écrit.` },
      {
        type: 'facts',
        facts: [
          { label: 'Organisation', value: orgName },
          { label: 'Contrat', value: number },
          { label: 'Salarié', value: oneLine(input.employeeName) },
          { label: 'Auteur', value: 'Équipe paie' },
        ],
      },
      { type: 'quote', text: input.text },
      { type: 'button', label: 'Ouvrir le contrat', url: input.contractUrl },
    ],
  });
}
