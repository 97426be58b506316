/** Configuration from the environment. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ConfigError, loadConfig, redactUrl } from '../src/config.ts';

describe('loadConfig', () => {
  it('should give the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.databaseUrl, null);
    assert.equal(config.dataDir, path.resolve('./data'));
    assert.equal(config.publicUrl, 'http://127.0.0.1:3000', 'the address the server announces');
    assert.equal(config.smtpUrl, null);
    assert.equal(config.mailFrom, 'Payroll <no-reply@localhost>');
    assert.equal(config.supportEmail, 'support@localhost');
    assert.equal(config.mailTimezone, 'Europe/Paris');
    assert.equal(config.secureCookies, false);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.trustProxy, false);
  });

  it('should read TRUST_PROXY as a hop count or a list of proxy addresses', () => {
    for (const [value, expected] of [
      ['1', 1],
      ['2', 2],
      ['0', false],
      ['10.0.0.1', '10.0.0.1'],
      [' 10.0.0.1 , 10.1.0.0/16,::1, fd00::/8 ', '10.0.0.1,10.1.0.0/16,::1,fd00::/8'],
      ['loopback, uniquelocal', 'loopback,uniquelocal'],
    ] as const) {
      assert.equal(loadConfig({ TRUST_PROXY: value }).trustProxy, expected, value);
    }
  });

  it('should read every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgresql://u:p@db:5432/paie',
      DATA_DIR: '/var/lib/paie',
      PUBLIC_URL: 'https://paie.example.com/',
      SMTP_URL: 'smtp://user:pass@mail:587',
      MAIL_FROM: 'Paie <paie@example.com>',
      SUPPORT_EMAIL: 'aide@example.com',
      MAIL_TIMEZONE: 'America/Montreal',
      LOG_LEVEL: 'WARN',
    });
    assert.equal(config.port, 8080);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.databaseUrl, 'postgresql://u:p@db:5432/paie');
    assert.equal(config.dataDir, '/var/lib/paie');
    assert.equal(config.publicUrl, 'https://paie.example.com', 'no trailing slash');
    assert.equal(config.smtpUrl, 'smtp://user:pass@mail:587');
    assert.equal(config.mailFrom, 'Paie <paie@example.com>');
    assert.equal(config.supportEmail, 'aide@example.com');
    assert.equal(config.mailTimezone, 'America/Montreal');
    assert.equal(config.secureCookies, true);
    assert.equal(config.logLevel, 'warn');
  });

  it('should default PUBLIC_URL to the port', () => {
    assert.equal(loadConfig({ PORT: '4000' }).publicUrl, 'http://127.0.0.1:4000');
    assert.equal(loadConfig({ HOST: 'localhost' }).publicUrl, 'http://localhost:3000', 'the host it listens on');
    assert.equal(loadConfig({ HOST: '0.0.0.0' }).publicUrl, 'http://127.0.0.1:3000', 'a wildcard is opened on the loopback');
  });

  it('should treat blank values as unset', () => {
    assert.equal(loadConfig({ PORT: '  ', DATABASE_URL: '' }).port, 3000);
  });

  const mistakes: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'abc' }, /^PORT /],
    [{ PORT: '70000' }, /^PORT /],
    [{ PORT: '-1' }, /^PORT /],
    [{ PUBLIC_URL: 'notaurl' }, /^PUBLIC_URL /],
    [{ PUBLIC_URL: 'ftp://example.com' }, /^PUBLIC_URL must start with http:\/\/ or https:\/\//],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must start with postgres:\/\/ or postgresql:\/\//],
    [{ SMTP_URL: 'http://mail' }, /^SMTP_URL /],
    [{ MAIL_FROM: 'nobody' }, /^MAIL_FROM /],
    [{ SUPPORT_EMAIL: 'a@b\nBcc: x@y' }, /^SUPPORT_EMAIL /],
    [{ MAIL_TIMEZONE: 'Mars/Olympus' }, /^MAIL_TIMEZONE /],
    [{ LOG_LEVEL: 'verbose' }, /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"/],
    [{ TRUST_PROXY: 'true' }, /^TRUST_PROXY must be a hop count or a comma-separated list of proxy addresses \(IP or CIDR\), got "true"/],
    [{ TRUST_PROXY: '10.0.0.1, proxy.example' }, /^TRUST_PROXY /],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /^TRUST_PROXY /],
    [{ TRUST_PROXY: '-1' }, /^TRUST_PROXY /],
  ];
  for (const [env, pattern] of mistakes) {
    it(`should refuse ${JSON.stringify(env)} with one line naming the variable`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && pattern.test(error.message) && !error.message.includes('\n'),
      );
    });
  }

  it('should never print a password from a URL', () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'mysql://root:s3cret@db/x' }),
      (error: unknown) => error instanceof ConfigError && !error.message.includes('s3cret'),
    );
    assert.equal(redactUrl('postgres://app:s3cret@db:5432/paie'), 'postgres://app:***@db:5432/paie');
  });
});
