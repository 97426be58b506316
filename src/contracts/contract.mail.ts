/** The contracts module's e-mail (SPEC 6, MODULES 4): a client's note, to the payroll mailbox. */
import type { RenderedMail } from '../mail/outbox.ts';
import { oneLine, renderMail } from '../mail/templates.ts';

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
  return renderMail({
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

