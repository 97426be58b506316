/** `POST /auth/magic-link`: a sign-in e-mail, without telling whether the account exists. */
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { limitPerAddress } from '../http/rate-limit-store.ts';
import { transactionWithMail, type MailContext } from '../mail/mail-transaction.ts';
import { signInEmail } from './sign-in.mail.ts';
import { identityErrors } from './identity.errors.ts';
import { allowsMagicLink, findUserByEmail } from './identity.repository.ts';
import { isPlausibleEmail, normalizeEmail } from './email.ts';
import { activationUrl, firstNameOf, issueOneTimeToken } from './identity.service.ts';

/**
 * Sign-in requests one address may receive per window, whoever sends them: the route's
 * per-client limit alone would let someone with many addresses flood one inbox. Counted for
 * every address, known or not, so that the answer tells nothing about accounts.
 */
const SIGN_IN_LINKS = { name: 'sign-in-link', max: 3, windowMs: 15 * 60 * 1000 };

/**
 * The part of a request that decides its answer, the same for every address: the address is
 * checked (400) and counted (429). Returns the address to send a link to.
 */
export async function admitSignInRequest(db: Database, rawEmail: unknown): Promise<string> {
  const email = normalizeEmail(rawEmail);
  if (!email) throw identityErrors.missingEmail();
  if (!isPlausibleEmail(email)) throw identityErrors.invalidEmail();
  await limitPerAddress(db, SIGN_IN_LINKS, email);
  return email;
}

/**
 * The part that depends on the account, run after the answer (`fastify.afterAnswer`): its
 * time would otherwise tell an existing account (a token and an e-mail written) from none.
 */
export async function queueSignInLink(ctx: MailContext, config: Config, email: string): Promise<void> {
  await transactionWithMail(ctx, async ({ trx, mail: queueMail }) => {
    const account = await findUserByEmail(trx, email);
    if (!account || !(await allowsMagicLink(trx, account.id))) return;
    const token = await issueOneTimeToken(trx, account.id, 'magiclink');
    const mail = signInEmail({
      firstName: firstNameOf(account.user_metadata),
      url: activationUrl(config.publicUrl, token, 'magiclink'),
      supportEmail: config.supportEmail,
    });
    await queueMail({ kind: 'sign_in', to: account.email, ...mail });
  });
}
