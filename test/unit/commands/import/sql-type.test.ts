import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classify, ValueClass } from '../../../../src/commands/import/map/value-class.js';
import { fits, SqlType, TypeTally } from '../../../../src/commands/import/map/sql-type.js';

const bytes = (text: string) => Buffer.from(text);
const classOf = (text: string) => classify(bytes(text), 0, bytes(text).length);
const fitsIn = (type: SqlType, text: string, digits = 15) => fits(type, bytes(text), 0, bytes(text).length, digits);

test('each field is classed as analyze reads it, with codes (a leading zero) as text', () => {
  const cases: [string, ValueClass][] = [
    ['', ValueClass.Null],
    ['0', ValueClass.Integer], ['-12', ValueClass.Integer], ['+7', ValueClass.Integer],
    ['9223372036854775807', ValueClass.Integer], ['-9223372036854775808', ValueClass.Integer],
    ['9223372036854775808', ValueClass.Decimal], ['-9223372036854775809', ValueClass.Decimal],
    ['1.5', ValueClass.Decimal], ['.5', ValueClass.Decimal], ['5.', ValueClass.Decimal], ['0.25', ValueClass.Decimal],
    ['1e5', ValueClass.Decimal], ['-2.5E-3', ValueClass.Decimal],
    ['1e400', ValueClass.Text], ['1e-400', ValueClass.Text], ['0e-400', ValueClass.Decimal],
    ['007', ValueClass.Text], ['02134', ValueClass.Text], ['1.2.3', ValueClass.Text], ['1e', ValueClass.Text],
    ['-', ValueClass.Text], ['.', ValueClass.Text], ['12abc', ValueClass.Text],
    ['true', ValueClass.Boolean], ['FALSE', ValueClass.Boolean], ['True', ValueClass.Boolean],
    ['yes', ValueClass.Text], ['truth', ValueClass.Text],
    ['2024-02-29', ValueClass.Date], ['2023-02-29', ValueClass.Text], ['2024-13-01', ValueClass.Text],
    ['2024-01-15T08:30:00Z', ValueClass.Timestamp], ['2024-01-15 08:30', ValueClass.Timestamp],
    ['2024-01-15T08:30:00.123+02:00', ValueClass.Timestamp], ['2024-01-15T25:00', ValueClass.Text],
    ['hello', ValueClass.Text], ['ünïcode', ValueClass.Text],
  ];
  for (const [text, expected] of cases) assert.equal(classOf(text), expected, JSON.stringify(text));
});

test('a number with an exponent is a decimal exactly when its double is finite and, unless it is zero, not 0', () => {
  const reference = (text: string) => {
    const value = Number(text);
    const zero = !/[1-9]/.test(text.split(/[eE]/)[0]!);
    return Number.isFinite(value) && (value !== 0 || zero) ? ValueClass.Decimal : ValueClass.Text;
  };
  const mantissas = ['1', '9.99', '0.0001', '123456789012345', '0', '0.000', '-4.2', '0.0000000000000000000001'];
  for (const mantissa of mantissas) {
    for (let exponent = 250; exponent <= 345; exponent++) {
      for (const sign of ['', '+', '-']) {
        for (const text of [`${mantissa}e${sign}${exponent}`, `${mantissa}E${sign}00${exponent}`]) {
          assert.equal(classOf(text), reference(text), text);
        }
      }
    }
  }
});

test('a field fits its column when the column holds its value as it is; NULL fits every column', () => {
  assert.ok(fitsIn(SqlType.Integer, '42'));
  assert.ok(!fitsIn(SqlType.Integer, '4.2'));
  assert.ok(!fitsIn(SqlType.Integer, '9223372036854775808'));
  assert.ok(fitsIn(SqlType.Decimal, '42'));
  assert.ok(fitsIn(SqlType.Decimal, '123456789012345'));
  assert.ok(!fitsIn(SqlType.Decimal, '1234567890123456'), 'past 15 significant digits');
  assert.ok(fitsIn(SqlType.Decimal, '0.000000000000001234'), 'leading zeros are not significant');
  assert.ok(fitsIn(SqlType.Decimal, '1234567890123456', 38));
  assert.ok(fitsIn(SqlType.Timestamp, '2024-01-01'), 'a date is a timestamp at midnight');
  assert.ok(!fitsIn(SqlType.Date, '2024-01-01T10:00'));
  assert.ok(!fitsIn(SqlType.Boolean, '1'));
  assert.ok(fitsIn(SqlType.Text, '007'));
  for (const type of Object.values(SqlType)) assert.ok(fitsIn(type, ''), `${type} holds NULL`);
});

test('a column is the narrowest type all its values fit; mixed kinds, or none, are text', () => {
  const typeOf = (values: string[], digits = 15) => {
    const tally = new TypeTally();
    for (const value of values) tally.add(bytes(value), 0, bytes(value).length);
    return tally.type(digits);
  };
  assert.equal(typeOf(['1', '', '3']), SqlType.Integer);
  assert.equal(typeOf(['1', '2.5']), SqlType.Decimal);
  assert.equal(typeOf(['1', '12345678901234567890']), SqlType.Text, 'too many digits for a REAL');
  assert.equal(typeOf(['1', '12345678901234567890'], 38), SqlType.Decimal);
  assert.equal(typeOf(['true', 'False', '']), SqlType.Boolean);
  assert.equal(typeOf(['2024-01-01', '2024-01-02']), SqlType.Date);
  assert.equal(typeOf(['2024-01-01', '2024-01-02T10:00']), SqlType.Timestamp);
  assert.equal(typeOf(['1', 'true']), SqlType.Text);
  assert.equal(typeOf(['007', '1']), SqlType.Text);
  assert.equal(typeOf(['', '']), SqlType.Text);
  assert.equal(typeOf([]), SqlType.Text);
});
