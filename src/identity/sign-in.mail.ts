/** The sign-in link's e-mail. */
import type { RenderedMail } from '../mail/outbox.ts';
import { greetingOf, renderMail } from '../mail/templates.ts';

export interface SignInMailInput {
  firstName: string | null;
  url: string;
  supportEmail: string;
}

/** The one-hour sign-in link asked for on `/login`. */
export function signInEmail(input: SignInMailInput): RenderedMail {
  return renderMail({
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
