/** `POST /auth/magic-link`: a sign-in e-mail, without telling whether the account exists. */
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { signInEmail } from '../mail/templates.ts';
import { allowsMagicLink, findUserByEmail } from './identity.repository.ts';
import { activationUrl, firstNameOf, issueOneTimeToken } from './identity.service.ts';

export async function requestSignInLink(db: Database, config: Config, rawEmail: string): Promise<void> {
  const email = rawEmail.trim().toLowerCase();
  if (!email) return;
  await db.transaction().execute(async (trx) => {
    const account = await findUserByEmail(trx, email);
    if (!account || !(await allowsMagicLink(trx, account.id))) return;
    const token = await issueOneTimeToken(trx, account.id, 'magiclink');
    const mail = signInEmail({
      firstName: firstNameOf(account.user_metadata),
      url: activationUrl(config.publicUrl, token, 'magiclink'),
      supportEmail: config.supportEmail,
    });
    await enqueueMail(trx, { kind: 'sign_in', to: account.email, ...mail });
  });
}
