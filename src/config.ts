/**
 * Configuration, read once from the environment and validated.
 * Nothing else in the code base reads `process.env`.
 */
import net from 'node:net';
import path from 'node:path';
import {
  isValidOperatorValue,
  normalizeOperatorValue,
  OPERATOR_ENV,
  OPERATOR_FIELDS,
  OPERATOR_TEXT_MAX,
  siretMatchesSiren,
  withOperatorValues,
  type OperatorField,
  type OperatorIdentity,
} from './operator.rules.ts';

/** The settings an invoice document needs (its seller), those unset. */
export { missingOperatorIdentity } from './operator.rules.ts';

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; unset means the embedded PGlite database under `dataDir/pg`. */
  databaseUrl: string | null;
  dataDir: string;
  /** Production address: every link in every e-mail starts with it. No trailing slash. */
  publicUrl: string;
  /** Unset means e-mails are written as `.eml` files under `dataDir/mail`. */
  smtpUrl: string | null;
  mailFrom: string;
  supportEmail: string;
  /** The internal payroll mailbox: contract notes added by clients. @default 'paie@localhost' */
  payrollEmail: string;
  mailTimezone: string;
  /** Cookies get `Secure` when the public address is https. */
  secureCookies: boolean;
  /** The least severe log level written (pino's levels). @default 'info' */
  logLevel: LogLevel;
  /**
   * Fastify's `trustProxy`: false (the socket's address is the client's), a hop count, or the
   * proxies' addresses (IPs, CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`).
   * @default false
   * @example '1' → 1; '10.0.0.1, 10.1.0.0/16' → '10.0.0.1,10.1.0.0/16'
   */
  trustProxy: false | number | string;
  /** Where stored files live. @default { kind: 'database' } */
  storage: StorageConfig;
  /** The key of signed file URLs; null: one generated once and kept in the database. */
  fileUrlSecret: string | null;
  /** The operator: seller on invoices, debtor of salary transfers. */
  operator: OperatorConfig;
}

export type StorageConfig =
  | { kind: 'database' }
  | {
      kind: 's3';
      bucket: string;
      /** Object keys start with it (`STORAGE_URL=s3://bucket/some/prefix`). @default 'files/' */
      prefix: string;
      /** `AWS_ENDPOINT_URL`: an S3-compatible server (path-style addressing); null for AWS itself. */
      endpoint: string | null;
      /** `AWS_REGION`. @default 'us-east-1' */
      region: string;
    };

/** The operator's identity and bank account from the environment: the defaults of the settings staff edit (`operator/`). */
export type OperatorConfig = OperatorIdentity;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

/** A configuration mistake: start-up prints `message` alone, without a stack trace. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** A value as shown in an error: quoted, with line breaks escaped, so the message stays one line. */
function quote(value: string): string {
  return JSON.stringify(value);
}

function nonEmpty(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function parsePort(env: Env): number {
  const raw = nonEmpty(env, 'PORT');
  if (raw === undefined) return 3000;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(`PORT must be a port number between 0 and 65535, got ${quote(raw)}`);
  }
  return Number(raw);
}

function parseUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL: ${quote(redactUrl(raw))}`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}, got "${url.protocol}//…"`);
  }
  return raw;
}

/** Hides a password in a URL before it is printed. */
export function redactUrl(raw: string): string {
  return raw.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1***@');
}

function parseTimezone(env: Env): string {
  const zone = nonEmpty(env, 'MAIL_TIMEZONE') ?? 'Europe/Paris';
  try {
    new Intl.DateTimeFormat('fr-FR', { timeZone: zone });
  } catch {
    throw new ConfigError(`MAIL_TIMEZONE is not a known time zone: ${quote(zone)}`);
  }
  return zone;
}

function parseAddress(env: Env, name: string, fallback: string): string {
  const value = nonEmpty(env, name) ?? fallback;
  if (/[\r\n]/.test(value) || !value.includes('@')) {
    throw new ConfigError(`${name} must be an e-mail address, got ${quote(value)}`);
  }
  return value;
}

function parseLogLevel(env: Env): LogLevel {
  const level = nonEmpty(env, 'LOG_LEVEL')?.toLowerCase() ?? 'info';
  if (!isLogLevel(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${quote(level)}`);
  return level;
}

/** The names `proxy-addr` (Fastify's `trustProxy`) accepts for ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function parseTrustProxy(env: Env): false | number | string {
  const raw = nonEmpty(env, 'TRUST_PROXY');
  if (raw === undefined) return false;
  if (/^\d+$/.test(raw)) return Number(raw) === 0 ? false : Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  if (!entries.every(isProxyAddress)) {
    throw new ConfigError(`TRUST_PROXY must be a hop count or a comma-separated list of proxy addresses (IP or CIDR), got ${quote(raw)}`);
  }
  return entries.join(',');
}

/** `STORAGE_URL`: unset keeps files in the database; `s3://bucket[/prefix]` puts them in S3. */
function parseStorage(env: Env): StorageConfig {
  const raw = parseUrl(env, 'STORAGE_URL', ['s3:']);
  if (raw === undefined) return { kind: 'database' };
  const url = new URL(raw);
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  if (!url.hostname) throw new ConfigError(`STORAGE_URL must name a bucket: s3://bucket, got ${quote(raw)}`);
  return {
    kind: 's3',
    bucket: url.hostname,
    prefix: prefix ? `${prefix}/` : 'files/',
    endpoint: parseUrl(env, 'AWS_ENDPOINT_URL', ['http:', 'https:']) ?? null,
    region: nonEmpty(env, 'AWS_REGION') ?? 'us-east-1',
  };
}

function parseFileUrlSecret(env: Env): string | null {
  const secret = nonEmpty(env, 'FILE_URL_SECRET');
  if (secret === undefined) return null;
  // HMAC-SHA256 wants 256 bits of key; a short one would let signed links be guessed offline.
  if (secret.length < 32) throw new ConfigError('FILE_URL_SECRET must be at least 32 characters long');
  return secret;
}

/** A setting's variable, written and checked by the operator's rules (`operator.rules.ts`); empty when unset. */
function operatorValue(env: Env, field: OperatorField): string {
  const name = OPERATOR_ENV[field];
  // `OPERATOR_VAT` is the former name of `OPERATOR_VAT_ID`.
  const raw = field === 'vat' ? (nonEmpty(env, name) ?? nonEmpty(env, 'OPERATOR_VAT')) : nonEmpty(env, name);
  if (raw === undefined) return '';
  const value = normalizeOperatorValue(field, raw);
  if (isValidOperatorValue(field, value)) return value;
  switch (field) {
    case 'siren':
      throw new ConfigError(`${name} must be nine digits, got ${quote(value)}`);
    case 'siret':
      throw new ConfigError(`${name} must be fourteen digits, got ${quote(value)}`);
    case 'vat':
      throw new ConfigError(`${name} is not a VAT number (two letters, then 2 to 13 letters or digits): ${quote(raw)}`);
    case 'postcode':
      throw new ConfigError(`${name} must be a French postcode (five digits), got ${quote(value)}`);
    case 'iban':
    case 'bic':
      throw new ConfigError(`${name} is not a valid ${field.toUpperCase()}: ${quote(raw)}`);
    default:
      throw new ConfigError(`${name} must be one line of at most ${OPERATOR_TEXT_MAX} characters, without control characters or bidirectional marks`);
  }
}

function parseOperator(env: Env): OperatorConfig {
  const values = Object.fromEntries(OPERATOR_FIELDS.map((field) => [field, operatorValue(env, field)])) as Record<OperatorField, string>;
  if (!siretMatchesSiren(values.siret, values.siren)) {
    throw new ConfigError(`OPERATOR_SIRET ${values.siret} does not start with OPERATOR_SIREN ${values.siren}`);
  }
  return withOperatorValues(values, values);
}

/**
 * The host of the default `PUBLIC_URL`: the one the server announces it listens on, so that the
 * address printed, the links of the e-mails and the one Fastify logs are the same (a sign-in
 * cookie belongs to one host name: `localhost` and `127.0.0.1` do not share it). A wildcard
 * address is opened on the loopback.
 */
function announcedHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export function loadConfig(env: Env = process.env): Config {
  const port = parsePort(env);
  const host = nonEmpty(env, 'HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(nonEmpty(env, 'DATA_DIR') ?? './data');
  const publicUrl = (parseUrl(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://${announcedHost(host)}:${port}`).replace(/\/+$/, '');
  return {
    port,
    host,
    databaseUrl: parseUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']) ?? null,
    dataDir,
    publicUrl,
    smtpUrl: parseUrl(env, 'SMTP_URL', ['smtp:', 'smtps:']) ?? null,
    mailFrom: parseAddress(env, 'MAIL_FROM', 'Payroll <no-reply@localhost>'),
    supportEmail: parseAddress(env, 'SUPPORT_EMAIL', 'support@localhost'),
    payrollEmail: parseAddress(env, 'PAYROLL_EMAIL', 'paie@localhost'),
    mailTimezone: parseTimezone(env),
    secureCookies: publicUrl.startsWith('https:'),
    logLevel: parseLogLevel(env),
    storage: parseStorage(env),
    fileUrlSecret: parseFileUrlSecret(env),
    operator: parseOperator(env),
    trustProxy: parseTrustProxy(env),
  };
}
