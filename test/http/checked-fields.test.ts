/** Body fields checked by their rules: what the edge validates of them, and what `checkField` answers. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { edgeSchema, ownSchema } from '../../src/http/checked-fields.ts';
import { AppError } from '../../src/http/errors.ts';
import { Checked, CheckedMoney, checkField, checkPayrollPeriod, fieldRefusal } from '../../src/schemas/fields.ts';
import { addMonths } from '../../src/format/calendar.ts';
import { todayInFrance } from '../../src/format/french.ts';

const refusal = (code: string, message: string) => (error: unknown) =>
  error instanceof AppError && error.status === 400 && error.code === code && error.userMessage === message;

describe('edgeSchema', () => {
  it('should leave a checked field to its rules, but for the keywords it keeps at the edge', () => {
    const item = Type.Object({ label: Type.Optional(Checked(Type.String({ maxLength: 3 }), { code: 'invalid_label', message: 'L.' })) });
    const body = Type.Object({
      name: Type.String({ maxLength: 5 }),
      lines: Type.Optional(Checked(Type.Array(item, { maxItems: 2 }), { code: 'invalid_lines', message: 'Ls.', edge: ['type', 'items'] })),
      note: Type.Optional(Checked(Type.String(), { code: 'invalid_note', message: 'N.' })),
    });
    assert.deepEqual(JSON.parse(JSON.stringify(edgeSchema(body))), {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', maxLength: 5 }, lines: { type: 'array', items: { type: 'object', properties: { label: {} } } }, note: {} },
    });
  });

  it('should check a field without what it contains, which the rules check item by item', () => {
    const lines = Checked(Type.Array(Type.Object({ a: Type.String() }), { maxItems: 2 }), { code: 'invalid_lines', message: 'Ls.' });
    assert.deepEqual(JSON.parse(JSON.stringify(ownSchema(lines as unknown as Record<string, unknown>))), { type: 'array', maxItems: 2 });
    assert.deepEqual(checkField(lines, [1, 'x']), [1, 'x']);
    assert.throws(() => checkField(lines, [1, 2, 3]), refusal('invalid_lines', 'Ls.'));
    assert.throws(() => checkField(lines, 'x'), refusal('invalid_lines', 'Ls.'));
  });
});

describe('checkField', () => {
  const reason = Checked(Type.String({ maxLength: 4, 'x-text': 'line' }), {
    code: 'invalid_reason',
    message: 'Trop long.',
    messages: { type: 'Pas un texte.' },
  });

  it('should give the value as its schema types it', () => {
    const text: string = checkField(reason, 'abcd');
    assert.equal(text, 'abcd');
  });

  it("should answer the field's error, or the one its schema gives for the keyword broken", () => {
    assert.throws(() => checkField(reason, 'abcde'), refusal('invalid_reason', 'Trop long.'));
    assert.throws(() => checkField(reason, 'a\u202eb'), refusal('invalid_reason', 'Trop long.'));
    assert.throws(() => checkField(reason, 42), refusal('invalid_reason', 'Pas un texte.'));
    assert.throws(
      () => checkField(reason, 42, () => new AppError(404, 'not_found', 'Ailleurs.')),
      (e: unknown) => e instanceof AppError && e.status === 404,
    );
  });

  it("should give the field's error to a rule beyond its schema", () => {
    assert.ok(refusal('invalid_reason', 'Trop long.')(fieldRefusal(reason)));
    assert.ok(refusal('invalid_reason', 'Pas un texte.')(fieldRefusal(reason, 'type')));
  });

  it('should count a length in UTF-16 units, as the rules always did', () => {
    assert.throws(() => checkField(reason, '😀😀😀'), refusal('invalid_reason', 'Trop long.'));
    assert.equal(checkField(reason, '😀😀'), '😀😀');
  });

  it('should read an amount as parseMoney does', () => {
    for (const good of ['642.40', '12', 12.5, 0, 1e3]) assert.equal(checkField(CheckedMoney, good), good);
    for (const bad of ['-1', '1.234', ' 12', '1e3', '', 0.1 + 0.2, -1, true, null, '10000000000.00']) {
      assert.throws(
        () => checkField(CheckedMoney, bad),
        refusal('invalid_amount', 'Montant invalide : un nombre positif avec deux décimales au plus est attendu (ex. "642.40").'),
        String(bad),
      );
    }
  });

  it('should take a date only when it is a day of the calendar', () => {
    const day = Checked(Type.String({ format: 'date' }), { code: 'invalid_date', message: 'D.' });
    assert.equal(checkField(day, '2028-02-29'), '2028-02-29');
    for (const bad of ['2027-02-29', '2027-2-1', '2027-01-01T00:00:00Z', 20270101])
      assert.throws(() => checkField(day, bad), refusal('invalid_date', 'D.'), String(bad));
  });

  it('should read a payroll month as requirePayrollPeriod does: missing, malformed, then outside the months accepted', () => {
    const month = todayInFrance().slice(0, 7);
    assert.equal(checkPayrollPeriod(month), month);
    assert.throws(
      () => checkPayrollPeriod(''),
      (e: unknown) => e instanceof AppError && e.code === 'missing_period',
    );
    for (const bad of ['2027-13', '1899-12', 202701, ` ${month}`])
      assert.throws(() => checkPayrollPeriod(bad), refusal('invalid_period', 'Période invalide : format AAAA-MM attendu (ex. 2027-01).'), String(bad));
    assert.throws(
      () => checkPayrollPeriod(addMonths(month, 13)),
      (e: unknown) => e instanceof AppError && e.code === 'invalid_period' && e.details?.field === 'period',
    );
  });
});
