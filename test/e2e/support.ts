/**
 * Browser tests: Debian's chromium driven by playwright-core, against the app listening on a
 * free port of 127.0.0.1 (with `PUBLIC_URL` set to that address, so the links in e-mails
 * open in the browser) and a real SMTP capture server fed by the mail worker.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { build, type TestApp } from '../helper.ts';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../support/smtp.ts';
import type { Person } from '../support/fixtures.ts';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Skipped, with the reason, only on a machine without chromium and outside CI; in CI a
 * missing browser fails the run.
 */
export const skipReason: string | false =
  !fs.existsSync(CHROMIUM) && !process.env.CI
    ? `browser tests skipped: ${CHROMIUM} is missing (apt-get install -y chromium); in CI (CI set) they run and fail without it`
    : false;

export function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** The suite's browser, launched before its tests and closed after them: call it in the `describe`, read it in the tests. */
export function suiteBrowser(): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });
  return () => browser!;
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningApp extends TestApp {
  /** `http://127.0.0.1:<port>`, also the app's PUBLIC_URL. */
  url: string;
  smtp: TestSmtpServer;
}

export type TestContext = { after(fn: () => unknown): void };

/** The app with a fresh database, listening, its mail worker delivering to a capture server; `env` adds variables (`OPERATOR_IBAN`…). */
export async function startApp(t: TestContext, env: Record<string, string> = {}): Promise<RunningApp> {
  const smtp = await startSmtpServer();
  t.after(() => smtp.stop());
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const testApp = await build(t, {
    env: { ...env, PUBLIC_URL: url, PORT: String(port), SMTP_URL: smtp.url },
    app: { mailWorker: true, mailPollMs: 200 },
  });
  await testApp.app.listen({ port, host: '127.0.0.1' });
  return { ...testApp, url, smtp };
}

/** Puts a person's session cookie into a browser context. */
export async function signInBrowser(context: BrowserContext, app: RunningApp, person: Person): Promise<void> {
  const value = person.cookie.replace(/^session=/, '');
  await context.addCookies([{ name: 'session', value, url: app.url, httpOnly: true, sameSite: 'Lax' }]);
}

/** The first e-mail to `to` received so far, waiting for it up to 5 s. */
export async function mailTo(smtp: TestSmtpServer, to: string, subject: string): Promise<ReceivedMail> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const found = smtp.messages.find((m) => m.envelope.to.includes(to) && m.subject === subject);
    if (found) return found;
    if (Date.now() > deadline) {
      throw new Error(`no "${subject}" e-mail to ${to}; received: ${smtp.messages.map((m) => `${m.envelope.to} ${m.subject}`).join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The activation link of an e-mail's text part. */
export function activationLink(mail: ReceivedMail, type: 'invite' | 'magiclink' = 'invite'): string {
  const match = new RegExp(`https?://[^\\s]+/activate#token=[A-Za-z0-9_.%-]+&type=${type}`).exec(mail.text);
  if (!match) throw new Error(`no ${type} link in: ${mail.text.slice(0, 400)}`);
  return match[0];
}

/**
 * Console errors and uncaught exceptions of a page (a CSP violation is one). Failed HTTP
 * answers the test provokes on purpose (401, 403, 429) are left out.
 */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** The width the document needs beyond the viewport: 0 means no horizontal scrolling. */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * Screenshots for `docs/screenshots/`, taken only when `E2E_SCREENSHOTS` names a folder:
 * the pictures carry dates, so writing them on every run would churn the repository.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/**
 * A new browser context (closed after the test), with `options`, signed in as `as.who` when given,
 * its page, and the page's console errors.
 */
export async function newPage(
  browser: Browser,
  t: TestContext,
  as?: { app: RunningApp; who: Person },
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext(options);
  // Waits are for events; the limit only ends a failing test. A document is rendered at the
  // lowest priority, so on a loaded machine an action that makes one may take over 30 s.
  context.setDefaultTimeout(90_000);
  t.after(() => context.close());
  if (as) await signInBrowser(context, as.app, as.who);
  const page = await context.newPage();
  return { context, page, errors: watchErrors(page) };
}

/** A French browser context signed in as `who` (downloads allowed), its page, and the page's console errors. */
export async function signedInPage(browser: Browser, app: RunningApp, who: Person, t: TestContext): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await newPage(browser, t, { app, who }, { locale: 'fr-FR', acceptDownloads: true });
  return { page, errors };
}

/** The text of every element `selector` matches, its white space collapsed. */
export async function texts(page: Page, selector: string): Promise<string[]> {
  return (await page.locator(selector).allTextContents()).map((s) => s.replace(/[ \t\n\r]+/g, ' ').trim());
}

/** The id of the element that has the focus. */
export const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** Presses Tab until the element `id` has the focus (at most `max` presses). */
export async function tabTo(page: Page, id: string, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await focusedId(page)) === id) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached #${id} (focus on #${await focusedId(page)})`);
}
