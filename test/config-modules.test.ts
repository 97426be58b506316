/** The variables of the payroll modules. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('loadConfig: the service variables', () => {
  it('should give the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.payrollEmail, 'paie@localhost');
    assert.deepEqual(config.storage, { kind: 'database' });
    assert.equal(config.fileUrlSecret, null);
    assert.deepEqual(config.operator, { name: 'Payroll', siren: '', siret: '', vat: '', address: '', postcode: '', city: '', iban: null, bic: null });
  });

  it('should read S3 storage with its bucket, prefix, endpoint and region', () => {
    assert.deepEqual(loadConfig({ STORAGE_URL: 's3://paie-fichiers' }).storage, {
      kind: 's3',
      bucket: 'paie-fichiers',
      prefix: 'files/',
      endpoint: null,
      region: 'us-east-1',
    });
    assert.deepEqual(loadConfig({ STORAGE_URL: 's3://paie/prod/pdf/', AWS_ENDPOINT_URL: 'http://127.0.0.1:9000', AWS_REGION: 'eu-west-3' }).storage, {
      kind: 's3',
      bucket: 'paie',
      prefix: 'prod/pdf/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-3',
    });
  });

  it('should read the operator, writing bank identifiers without spaces', () => {
    const config = loadConfig({
      PAYROLL_EMAIL: 'paie@operateur.fr',
      OPERATOR_NAME: 'Odentas',
      OPERATOR_SIREN: '123 456 789',
      OPERATOR_VAT: 'FR12123456789',
      OPERATOR_ADDRESS: '1 rue de la Paix, 75002 Paris',
      OPERATOR_IBAN: 'fr76 3000 6000 0112 3456 7890 189',
      OPERATOR_BIC: 'agrifrpp',
      FILE_URL_SECRET: 'x'.repeat(32),
    });
    assert.equal(config.payrollEmail, 'paie@operateur.fr');
    assert.deepEqual(config.operator, {
      name: 'Odentas',
      siren: '123456789',
      siret: '',
      vat: 'FR12123456789',
      address: '1 rue de la Paix, 75002 Paris',
      postcode: '',
      city: '',
      iban: 'FR7630006000011234567890189',
      bic: 'AGRIFRPP',
    });
    assert.equal(config.fileUrlSecret, 'x'.repeat(32));
  });

  it('should refuse wrong values with a one-line message', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ STORAGE_URL: 'https://bucket' }, /^STORAGE_URL must start with s3:\/\//],
      [{ STORAGE_URL: 's3://b', AWS_ENDPOINT_URL: 'ftp://x' }, /^AWS_ENDPOINT_URL must start with http:\/\/ or https:\/\//],
      [{ FILE_URL_SECRET: 'short' }, /^FILE_URL_SECRET must be at least 32 characters long$/],
      [{ OPERATOR_SIREN: '12345' }, /^OPERATOR_SIREN must be nine digits/],
      [{ OPERATOR_IBAN: 'not an iban' }, /^OPERATOR_IBAN is not a valid IBAN/],
      [{ OPERATOR_BIC: 'AGRI' }, /^OPERATOR_BIC is not a valid BIC/],
      [{ PAYROLL_EMAIL: 'paie' }, /^PAYROLL_EMAIL must be an e-mail address/],
      // The settings page refuses these too: a name printed on invoices and as the SEPA debtor.
      [
        { OPERATOR_NAME: 'Odentas \u202e Paie' },
        /^OPERATOR_NAME must be one line of at most 200 characters, without control characters or bidirectional marks$/,
      ],
      [{ OPERATOR_CITY: 'Paris\u2066' }, /^OPERATOR_CITY must be one line/],
      [{ OPERATOR_ADDRESS: '1 rue\u0085de la Paix' }, /^OPERATOR_ADDRESS must be one line/],
      [{ OPERATOR_NAME: 'x'.repeat(201) }, /^OPERATOR_NAME must be one line of at most 200 characters/],
    ];
    for (const [env, message] of cases) {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
        JSON.stringify(env),
      );
    }
  });
});
