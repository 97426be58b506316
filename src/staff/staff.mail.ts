/** The staff team's e-mail: welcome to a new staff account. */
import type { RenderedMail } from '../mail/outbox.ts';
import { greetingOf, inviterText, oneLine, renderMail, type Fact, type Inviter } from '../mail/templates.ts';
import { roleLabel } from '../org/role.labels.ts';

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
 * A new staff account, active at creation. Its subject is the activation
 * e-mail's; its words welcome rather than ask for an activation that already happened.
 */
export function staffWelcomeEmail(input: StaffWelcomeMailInput): RenderedMail {
  const facts: Fact[] = [{ label: "Niveau d'accès", value: roleLabel(oneLine(input.level)) }];
  if (input.addedBy) facts.unshift({ label: 'Ajouté(e) par', value: inviterText(input.addedBy) });
  return renderMail({
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
