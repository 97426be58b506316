import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatMailDate, inviterText } from '../../src/mail/templates.ts';
import { accessUpdatedEmail, activationEmail } from '../../src/access/access.mail.ts';
import { staffWelcomeEmail } from '../../src/staff/staff.mail.ts';
import { signInEmail } from '../../src/identity/sign-in.mail.ts';
import { roleLabel } from '../../src/org/role.labels.ts';
import type { RenderedMail } from '../../src/mail/outbox.ts';
import { escapeHtml } from '../../src/format/html.ts';

const PUBLIC_URL = 'https://paie.example.com';
const ACTIVATION_URL = `${PUBLIC_URL}/activate#token=abcdefgh.secretsecretsecretsecret&type=invite`;
const SIGN_IN_URL = `${PUBLIC_URL}/activate#token=abcdefgh.secretsecretsecretsecret&type=magiclink`;
const NASTY_NAME = '<script>alert(1)</script>';
const NASTY_ORG = `Théâtre "&'`;

/** Every href of the HTML part. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
}

/** The part must not contain markup or an unescaped quote from the nasty values. */
function assertEscaped(mail: RenderedMail): void {
  assert.doesNotMatch(mail.html, /<script>/);
  assert.match(mail.html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.ok(!mail.html.includes(`"&'`), 'raw "&\' must not reach the HTML');
  assert.match(mail.html, /Théâtre &quot;&amp;&#39;/);
  // The text part is not HTML: the values are kept as typed.
  assert.ok(mail.text.includes(NASTY_NAME));
  assert.ok(mail.text.includes(NASTY_ORG));
}

describe('escapeHtml', () => {
  it('should escape the five HTML-significant characters', () => {
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('roleLabel', () => {
  it('should give the French label of each role and level', () => {
    assert.equal(roleLabel('ADMIN'), 'Administrateur');
    assert.equal(roleLabel('SUPER_ADMIN'), 'Administrateur principal');
    assert.equal(roleLabel('AGENT'), 'Agent');
    assert.equal(roleLabel('COMPTA'), 'Comptabilité');
    assert.equal(roleLabel('STAFF'), 'Membre (équipe interne)');
    assert.equal(roleLabel('SUPER_STAFF'), 'Super-administrateur (équipe interne)');
  });

  it('should show an unknown value as it is', () => {
    assert.equal(roleLabel('STAGIAIRE'), 'STAGIAIRE');
    assert.equal(roleLabel('constructor'), 'constructor');
  });
});

describe('formatMailDate', () => {
  it('should write a fr-FR long date and short time in the given zone', () => {
    const date = new Date('2026-11-22T09:05:00Z');
    assert.equal(formatMailDate(date, 'Europe/Paris'), '22 novembre 2026 à 10:05');
    assert.equal(formatMailDate(date, 'America/Martinique'), '22 novembre 2026 à 05:05');
    // Summer time in Paris is UTC+2.
    assert.equal(formatMailDate(new Date('2026-07-01T22:30:00Z'), 'Europe/Paris'), '2 juillet 2026 à 00:30');
  });
});

const updatedBase = {
  firstName: 'Ana',
  orgName: 'Compagnie du Soleil',
  oldRole: 'AGENT',
  newRole: 'ADMIN',
  updatedBy: 'jean@x.fr',
  updatedAt: '22 novembre 2026 à 10:05',
  accessUrl: `${PUBLIC_URL}/vos-acces`,
  supportEmail: 'support@example.com',
};

describe('activationEmail', () => {
  const base = {
    firstName: 'Ana',
    orgName: 'Compagnie du Soleil',
    role: 'ADMIN',
    inviter: { firstName: null, email: 'jean@x.fr', status: 'Administrateur' },
    activationUrl: ACTIVATION_URL,
    supportEmail: 'support@example.com',
  };

  it('should carry every fact in both parts', () => {
    const mail = activationEmail(base);
    assert.equal(mail.subject, 'Activez votre compte');
    for (const part of [mail.text, mail.html]) {
      assert.match(part, /Activez votre compte/);
      assert.match(part, /Bonjour Ana,/);
      assert.match(part, /Compagnie du Soleil/);
      assert.match(part, /valable 7 jours/);
      assert.match(part, /support@example\.com/);
    }
    assert.match(mail.text, /^Invité par : jean@x\.fr, Administrateur$/m);
    assert.match(mail.text, /^Organisation : Compagnie du Soleil$/m);
    assert.match(mail.text, /^Niveau d'accès : Administrateur$/m);
    assert.match(mail.html, /Invité par :<\/th><td[^>]*>jean@x\.fr, Administrateur<\/td>/);
    assert.match(mail.html, /Organisation :<\/th><td[^>]*>Compagnie du Soleil<\/td>/);
    assert.match(mail.html, /Niveau d&#39;accès :<\/th><td[^>]*>Administrateur<\/td>/);
    // The link, written out in full in the text, as a button and as text in the HTML.
    assert.ok(mail.text.split('\n').includes(ACTIVATION_URL));
    const escapedUrl = escapeHtml(ACTIVATION_URL);
    assert.equal(hrefs(mail.html).filter((h) => h === escapedUrl).length, 2);
    assert.ok(mail.html.includes(`>${escapedUrl}</a>`));
    assert.ok(hrefs(mail.html).includes('mailto:support@example.com'));
  });

  it('should label each access level in French', () => {
    assert.match(activationEmail({ ...base, role: 'COMPTA' }).text, /^Niveau d'accès : Comptabilité$/m);
    assert.match(activationEmail({ ...base, role: 'SUPER_ADMIN' }).text, /^Niveau d'accès : Administrateur principal$/m);
    assert.match(activationEmail({ ...base, role: 'SUPER_STAFF', orgName: null }).text, /^Niveau d'accès : Super-administrateur \(équipe interne\)$/m);
  });

  it('should name the inviter with one pair of parentheses at most', () => {
    const mail = activationEmail({ ...base, inviter: { firstName: 'Bruno', email: 'admin@x.fr', status: 'Administrateur' } });
    assert.match(mail.text, /^Invité par : Bruno \(admin@x\.fr\), Administrateur$/m);
    assert.doesNotMatch(mail.text, /\)\s*\(/);
    assert.equal(inviterText({ firstName: null, email: 'staff@x.fr', status: roleLabel('SUPER_STAFF') }), 'staff@x.fr, Super-administrateur (équipe interne)');
  });

  it('should say "Écrivez-nous" once', () => {
    for (const part of [activationEmail(base).text, accessUpdatedEmail(updatedBase).text]) {
      assert.equal(part.match(/écrivez-nous/gi)?.length, 1, part);
    }
  });

  it('should greet without a name and leave out unknown facts', () => {
    const mail = activationEmail({ ...base, firstName: null, orgName: null, inviter: null });
    for (const part of [mail.text, mail.html]) {
      assert.match(part, /Bonjour,/);
      assert.doesNotMatch(part, /Bonjour Ana/);
      assert.doesNotMatch(part, /Invité par/);
      assert.doesNotMatch(part, /Organisation :/);
    }
    assert.match(mail.text, /^Niveau d'accès : Administrateur$/m);
  });

  it('should escape user-typed values in the HTML part', () => {
    const mail = activationEmail({
      ...base,
      firstName: NASTY_NAME,
      orgName: NASTY_ORG,
      inviter: { firstName: NASTY_NAME, email: 'jean@x.fr', status: 'Administrateur' },
    });
    assertEscaped(mail);
    assert.match(mail.html, /Bonjour &lt;script&gt;alert\(1\)&lt;\/script&gt;,/);
  });

  it('should keep a value with line breaks on one line', () => {
    const mail = activationEmail({ ...base, firstName: 'Ana\n\nCliquez ici : https://evil.example' });
    assert.match(mail.text, /^Bonjour Ana Cliquez ici : https:\/\/evil\.example,$/m);
    assert.ok(!mail.text.split('\n').some((line) => line.startsWith('Cliquez ici')));
  });

  it('should only link to the public address and the support mailbox', () => {
    const mail = activationEmail(base);
    const links = hrefs(mail.html);
    assert.ok(links.length >= 3);
    for (const href of links) assert.ok(href.startsWith(`${PUBLIC_URL}/`) || href.startsWith('mailto:'), href);
  });

  it('should be a complete, accessible HTML document without external resources', () => {
    const { html } = activationEmail(base);
    assert.match(html, /^<!DOCTYPE html>/);
    assert.match(html, /<html lang="fr">/);
    assert.match(html, /<meta charset="utf-8">/);
    assert.match(html, /<title>Activez votre compte<\/title>/);
    assert.match(html, /<h1[^>]*>Activez votre compte<\/h1>/);
    assert.doesNotMatch(html, /<img|<link|<script|src=|url\(/i);
  });
});

describe('accessUpdatedEmail', () => {
  const base = updatedBase;

  it('should carry every fact in both parts', () => {
    const mail = accessUpdatedEmail(base);
    assert.equal(mail.subject, 'Vos accès ont été mis à jour');
    for (const part of [mail.text, mail.html]) {
      assert.match(part, /Vos accès ont été mis à jour/);
      assert.match(part, /Bonjour Ana,/);
      assert.match(part, /Compagnie du Soleil/);
      assert.match(part, /support@example\.com/);
    }
    assert.match(mail.text, /^Organisation : Compagnie du Soleil$/m);
    assert.match(mail.text, /^Ancien rôle : Agent$/m);
    assert.match(mail.text, /^Nouveau rôle : Administrateur$/m);
    assert.doesNotMatch(mail.text, /\b(AGENT|ADMIN)\b/, 'no internal code');
    assert.match(mail.text, /^Modifié par : jean@x\.fr$/m);
    assert.match(mail.text, /^Date : 22 novembre 2026 à 10:05$/m);
    assert.ok(mail.text.split('\n').includes(`${PUBLIC_URL}/vos-acces`));
    assert.match(mail.html, /Ancien rôle :<\/th><td[^>]*>Agent<\/td>/);
    assert.match(mail.html, /Nouveau rôle :<\/th><td[^>]*>Administrateur<\/td>/);
    assert.match(mail.html, /Modifié par :<\/th><td[^>]*>jean@x\.fr<\/td>/);
    assert.match(mail.html, /Date :<\/th><td[^>]*>22 novembre 2026 à 10:05<\/td>/);
    assert.ok(hrefs(mail.html).includes(`${PUBLIC_URL}/vos-acces`));
  });

  it('should write "Administrateur" as updater and an unknown role as its code', () => {
    const mail = accessUpdatedEmail({ ...base, updatedBy: 'Administrateur', oldRole: 'LEGACY' });
    assert.match(mail.text, /^Modifié par : Administrateur$/m);
    assert.match(mail.text, /^Ancien rôle : LEGACY$/m);
  });

  it('should greet without a name', () => {
    const mail = accessUpdatedEmail({ ...base, firstName: null });
    assert.match(mail.text, /^Bonjour,$/m);
    assert.match(mail.html, />Bonjour,</);
  });

  it('should escape user-typed values in the HTML part', () => {
    const mail = accessUpdatedEmail({ ...base, firstName: NASTY_NAME, orgName: NASTY_ORG, updatedBy: NASTY_NAME });
    assertEscaped(mail);
  });

  it('should only link to the public address and the support mailbox', () => {
    for (const href of hrefs(accessUpdatedEmail(base).html)) {
      assert.ok(href.startsWith(`${PUBLIC_URL}/`) || href.startsWith('mailto:'), href);
    }
  });
});

describe('staffWelcomeEmail', () => {
  const base = {
    firstName: 'Sam',
    level: 'SUPER_STAFF',
    addedBy: { firstName: 'Léa', email: 'lea@x.fr', status: 'Super-administrateur (équipe interne)' },
    signInUrl: ACTIVATION_URL,
    supportEmail: 'support@example.com',
  };

  it('should welcome an account that is active already, under the activation subject', () => {
    const mail = staffWelcomeEmail(base);
    assert.equal(mail.subject, 'Activez votre compte');
    assert.match(mail.text, /^Bienvenue dans l'équipe interne$/m);
    assert.match(mail.text, /déjà actif/);
    assert.match(mail.text, /^Niveau d'accès : Super-administrateur \(équipe interne\)$/m);
    assert.match(mail.text, /^Ajouté\(e\) par : Léa \(lea@x\.fr\), Super-administrateur \(équipe interne\)$/m);
    assert.ok(mail.text.split('\n').includes(ACTIVATION_URL));
    for (const part of [mail.text, mail.html]) {
      assert.doesNotMatch(part, /Activez votre compte|Activer mon compte|SUPER_STAFF/);
      assert.equal(part.match(/écrivez-nous/gi)?.length, 1);
    }
  });

  it('should leave out who added the account when it came from the command line', () => {
    const mail = staffWelcomeEmail({ ...base, addedBy: null, level: 'STAFF' });
    assert.doesNotMatch(mail.text, /Ajouté/);
    assert.match(mail.text, /^Niveau d'accès : Membre \(équipe interne\)$/m);
  });
});

describe('signInEmail', () => {
  const base = { firstName: 'Ana', url: SIGN_IN_URL, supportEmail: 'support@example.com' };

  it('should carry the link, its lifetime and the ignore note in both parts', () => {
    const mail = signInEmail(base);
    assert.equal(mail.subject, 'Votre lien de connexion');
    for (const part of [mail.text, mail.html]) {
      assert.match(part, /Votre lien de connexion/);
      assert.match(part, /Bonjour Ana,/);
      assert.match(part, /valable 1 heure/);
      assert.match(part, /Si vous n(&#39;|')avez pas demandé ce lien, vous pouvez ignorer cet e-mail/);
      assert.match(part, /support@example\.com/);
    }
    assert.ok(mail.text.split('\n').includes(SIGN_IN_URL));
    assert.ok(hrefs(mail.html).includes(escapeHtml(SIGN_IN_URL)));
    for (const href of hrefs(mail.html)) assert.ok(href.startsWith(`${PUBLIC_URL}/`) || href.startsWith('mailto:'), href);
  });

  it('should escape the first name in the HTML part', () => {
    const mail = signInEmail({ ...base, firstName: NASTY_NAME });
    assert.doesNotMatch(mail.html, /<script>/);
    assert.match(mail.html, /Bonjour &lt;script&gt;alert\(1\)&lt;\/script&gt;,/);
  });
});
