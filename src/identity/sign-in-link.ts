/** `POST /auth/magic-link`: a sign-in e-mail, without telling whether the account exists. */
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { AppError } from '../http/errors.ts';
import { countHit } from '../http/rate-limit-store.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { signInEmail } from '../mail/templates.ts';
import { allowsMagicLink, findUserByEmail } from './identity.repository.ts';
import { activationUrl, firstNameOf, issueOneTimeToken } from './identity.service.ts';

/**
 * Sign-in requests one address may receive per window, whoever sends them: the route's
 * per-client limit alone would let someone with many addresses flood one inbox. Counted for
 * every address, known or not, so that the answer tells nothing about accounts.
 */
const SIGN_IN_LINKS_PER_ADDRESS = 3;
const ADDRESS_WINDOW_MS = 15 * 60 * 1000;

export async function requestSignInLink(db: Database, config: Config, rawEmail: string): Promise<void> {
  const email = rawEmail.trim().toLowerCase();
  if (!email) return;
  const { current, ttl } = await countHit(db, `sign-in-link ${email}`, ADDRESS_WINDOW_MS);
  if (current > SIGN_IN_LINKS_PER_ADDRESS) throw AppError.rateLimited(Math.max(1, Math.ceil(ttl / 1000)));
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
