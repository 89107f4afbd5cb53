// The exact decimal accumulator (exact-decimal.ts) and the scanner's
// per-scale 128-bit sums, against exact BigInt fractions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addToSum, beyond, decimalOfSum, decimalText, exactText, meanOf, nearestDouble as nearestOf, newDecimalSum, parseDecimal,
  roundedQuotient,
} from '../../../src/commands/analyze/map/exact-decimal.js';
import { map } from '../../../src/commands/analyze/map/csv-stats-map.js';
import { mergeTableStats, newTableStats, summarizeColumn } from '../../../src/commands/analyze/map/column-stats.js';
import {
  addFractions, compareFractions, decimalOf, fractionOf, nearestDouble, type Fraction,
} from '../../helpers/analyze-oracle.js';
import { random } from '../../helpers/csv-generator.js';
import { withoutExtras } from '../../helpers/stats-oracle.js';

type Summary = ReturnType<typeof summarizeColumn>;
const exactOf = (c: Summary) => [c.min_exact, c.max_exact, c.sum_exact];
const numbersOf = (c: Summary) => [c.min, c.max, c.sum];

const sumOf = (values: readonly string[]) => {
  const sum = newDecimalSum();
  for (const v of values) addToSum(sum, parseDecimal(v));
  return decimalOfSum(sum);
};

test('parse and write: sign, dot, exponent; written as JavaScript writes numbers', () => {
  const cases: [string, string][] = [
    ['0.1', '0.1'], ['-.5', '-0.5'], ['+5.', '5'], ['007', '7'], ['1E5', '100000'], ['-.25e+3', '-250'],
    ['1.50', '1.5'], ['0e999999', '0'], ['-0', '0'], ['1e21', '1e+21'], ['1e-7', '1e-7'], ['0.000001', '0.000001'],
    ['123456789012345678901234567890', '1.2345678901234567890123456789e+29'], ['12e-400', '1.2e-399'],
  ];
  for (const [text, written] of cases) assert.equal(decimalText(parseDecimal(text)), written, text);
});

test('sums are exact: 0.1 + 0.2 is 0.3, cancellation leaves the small part, 2^53 + 1 stays odd', () => {
  // [values, the exact digits, the nearest double]
  const cases: [string[], string, number][] = [
    [['0.1', '0.2'], '0.3', 0.3],
    [['0.1', '0.2', '-0.3'], '0', 0],
    [['1e20', '0.000001', '-1e20'], '0.000001', 0.000001],
    [['9007199254740992', '1'], '9007199254740993', 9007199254740992],
    [['9007199254740992', '2'], '9007199254740994', 9007199254740994],
    [['0.1', '0.00000000000000000001'], '0.10000000000000000001', 0.1],
    [['1e300', '1e300'], '2' + '0'.repeat(300), 2e300],
    [['0.5e-300', '1.5e-300'], '2e-300', 2e-300],
  ];
  for (const [values, digits, double] of cases) {
    assert.equal(exactText(sumOf(values)), digits, values.join(' + '));
    assert.equal(nearestOf(sumOf(values)), double, values.join(' + '));
  }
});

test('the mean is the exact sum over the count, rounded once', () => {
  assert.equal(meanOf(sumOf(['63.44', '59.98', '59.61', '59.41', '60.09']), 5), 60.506);
  assert.equal(meanOf(sumOf(['0.1', '0.2']), 2), 0.15);
  assert.equal(meanOf(sumOf(['9007199254740993', '9007199254740993', '9007199254740993']), 3), 9007199254740992);
  // Against the oracle's independent rounding, on random fractions of every size.
  const rnd = random(5);
  for (let n = 0; n < 2000; n++) {
    const digits = (k: number) => BigInt(Array.from({ length: k }, () => Math.floor(rnd() * 10)).join('') || '0');
    const num = digits(1 + Math.floor(rnd() * 60)) * (rnd() < 0.5 ? -1n : 1n);
    const den = digits(1 + Math.floor(rnd() * 40)) + 1n;
    assert.equal(roundedQuotient(num, den), nearestDouble([num, den] as Fraction), `${num}/${den}`);
  }
});

test('extremes tie on a double only for long values, and are then compared exactly', () => {
  const exact = (v: string) => {
    const text = decimalText(parseDecimal(v));
    return String(Number(v)) === text ? null : text;
  };
  const below = (a: string, b: string) => beyond(-1, Number(a), exact(a), Number(b), exact(b));
  assert.equal(below('9007199254740992', '9007199254740993'), true);
  assert.equal(below('9007199254740993', '9007199254740992'), false);
  assert.equal(below('0.1', '0.10000000000000000001'), true);
  assert.equal(below('0.1', '0.10'), false);
  assert.equal(below('-1', '2'), true);
});

test('the scanner\'s 128-bit sums carry across zero and every scale, and merge in any grouping', () => {
  const rnd = random(9);
  const values: string[] = [];
  for (let n = 0; n < 30_000; n++) {
    const scale = Math.floor(rnd() * 19);
    const digits = String(1 + Math.floor(rnd() * 999_999_999_999_999)).slice(0, 15);
    const padded = digits.padStart(scale + 1, '0');
    const text = scale === 0 ? padded : `${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
    values.push(`${rnd() < 0.5 ? '-' : ''}${text}`);
  }
  const bytes = Buffer.from(`${values.join('\n')}\n`);
  const whole = map(bytes, { start: 0, end: bytes.length, options: { width: 1 } });
  // The same values in three chunks, merged: the same sum.
  const merged = newTableStats(1);
  const third = Math.floor(values.length / 3);
  for (const part of [values.slice(0, third), values.slice(third, 2 * third), values.slice(2 * third)]) {
    const chunk = Buffer.from(`${part.join('\n')}\n`);
    mergeTableStats(merged, map(chunk, { start: 0, end: chunk.length, options: { width: 1 } }), 0);
  }
  const expected = values.map(fractionOf).reduce(addFractions);
  assert.equal(summarizeColumn('x', whole.columns[0]!).sum_exact, decimalOf(expected));
  assert.equal(summarizeColumn('x', whole.columns[0]!).sum, nearestDouble(expected));
  // The added statistics' estimates depend on the split: they have their own tests.
  assert.deepEqual(withoutExtras({ ...summarizeColumn('x', merged.columns[0]!) }),
    withoutExtras({ ...summarizeColumn('x', whole.columns[0]!) }));
});

test('the scanner\'s sums pass 2^64 (the high word takes the carry), both signs', () => {
  for (const sign of ['', '-']) {
    const bytes = Buffer.from(`${`${sign}999999999999999e3\n`.repeat(40_001)}`);
    const stats = map(bytes, { start: 0, end: bytes.length, options: { width: 1 } });
    assert.equal(summarizeColumn('x', stats.columns[0]!).sum_exact, `${sign}40000999999999959999000`);
  }
});

test('long values the scanner keeps (16 to 18 digits) settle their extremes exactly, near ties included', () => {
  const near = ['9007199254740993', '9007199254740992', '9007199254740994', '-9007199254740993', '-9007199254740992',
    '1.0000000000000001', '1', '0.99999999999999999', '1.00000000000000001', '-1.0000000000000001', '-1',
    '123456789012345678', '123456789012345677', '123456789012345679e-3', '0.1', '0.100000000000000001', '-0.1'];
  const rnd = random(3);
  for (let round = 0; round < 300; round++) {
    const values = Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => near[Math.floor(rnd() * near.length)]!);
    const bytes = Buffer.from(`${values.join('\n')}\n`);
    const column = summarizeColumn('x', map(bytes, { start: 0, end: bytes.length, options: { width: 1 } }).columns[0]!);
    const fractions = values.map(fractionOf);
    const min = fractions.reduce((a, b) => (compareFractions(b, a) < 0 ? b : a));
    const max = fractions.reduce((a, b) => (compareFractions(b, a) > 0 ? b : a));
    assert.deepEqual(exactOf(column), [min, max, fractions.reduce(addFractions)].map(decimalOf), values.join(' '));
    assert.deepEqual(numbersOf(column), [min, max, fractions.reduce(addFractions)].map(nearestDouble));
  }
});

test('19-digit integers either side of 2^63 (the scanner splits them in head and tail): the exact answer', () => {
  const values = ['9223372036854775807', '9223372036854775808', '9999999999999999999', '-9223372036854775807',
    '1700000000000000001', '-9223372036854775809', '1000000000000000000'];
  const bytes = Buffer.from(`${values.join('\n')}\n`);
  const column = summarizeColumn('x', map(bytes, { start: 0, end: bytes.length, options: { width: 1 } }).columns[0]!);
  const fractions = values.map(fractionOf);
  assert.deepEqual(exactOf(column),
    ['-9223372036854775809', '9999999999999999999', decimalOf(fractions.reduce(addFractions))]);
});

test('up to 40 digits, exponents -45..45, in the scanner or handed back: exact sums, extremes, any grouping', () => {
  const rnd = random(11);
  const values: string[] = [];
  for (let n = 0; n < 20_000; n++) {
    const length = 1 + Math.floor(rnd() * 40);
    const digits = Array.from({ length }, (_, i) => String(Math.floor(rnd() * (i === 0 ? 9 : 10)) + (i === 0 ? 1 : 0)));
    const dot = Math.floor(rnd() * (length + 1));
    const intPart = digits.slice(0, dot).join('');
    const mantissa = dot === length ? intPart : `${intPart}.${digits.slice(dot).join('')}`;
    const exponent = Math.floor(rnd() * 91) - 45;
    values.push(`${rnd() < 0.5 ? '-' : ''}${mantissa}${rnd() < 0.8 ? `e${exponent}` : ''}`);
  }
  const bytes = Buffer.from(`${values.join('\n')}\n`);
  const whole = summarizeColumn('x', map(bytes, { start: 0, end: bytes.length, options: { width: 1 } }).columns[0]!);
  const merged = newTableStats(1);
  const third = Math.floor(values.length / 3);
  for (const part of [values.slice(0, third), values.slice(third, 2 * third), values.slice(2 * third)]) {
    const chunk = Buffer.from(`${part.join('\n')}\n`);
    mergeTableStats(merged, map(chunk, { start: 0, end: chunk.length, options: { width: 1 } }), 0);
  }
  const fractions = values.map(fractionOf);
  const min = fractions.reduce((a, b) => (compareFractions(b, a) < 0 ? b : a));
  const max = fractions.reduce((a, b) => (compareFractions(b, a) > 0 ? b : a));
  assert.deepEqual(exactOf(whole), [min, max, fractions.reduce(addFractions)].map(decimalOf));
  assert.deepEqual(numbersOf(whole), [min, max, fractions.reduce(addFractions)].map(nearestDouble));
  assert.deepEqual(withoutExtras({ ...summarizeColumn('x', merged.columns[0]!) }), withoutExtras({ ...whole }));
});
