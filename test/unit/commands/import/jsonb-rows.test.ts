import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { pack } from 'msgpackr';
import { PackedOutput } from '../../../../src/engine/worker/packed-output.js';
import {
  appendJsonbFields, appendJsonbRow, closeArray, openArray,
} from '../../../../src/commands/import/map/rows/jsonb-rows.js';

// SQLite itself reads the bytes back: its json() renders JSONB as JSON text.
const Database = createRequire(import.meta.url)('better-sqlite3');
const db = new Database(':memory:');
const asJson = (blob: Uint8Array) => JSON.parse(db.prepare('SELECT json(?)').pluck().get(blob) as string);

type Fields = readonly (string | null)[];

/** The rows as one JSONB array, each from its packed bytes (or, with `fromText`, from its fields' text). */
function encoded(rows: readonly Fields[], booleans: readonly boolean[], fromText = false): Uint8Array {
  const output = new PackedOutput(8);
  const at = openArray(output);
  rows.forEach((fields, r) => {
    if (fromText) appendJsonbFields(output, fields, 100 + r, booleans);
    else assert.ok(appendJsonbRow(output, pack(fields), 100 + r, booleans), JSON.stringify(fields));
  });
  closeArray(output, at);
  return output.bytes.subarray(0, output.used);
}

/** What SQLite should read: text as it is, empty and nil as null, a boolean column's words as true and false. */
const expected = (rows: readonly Fields[], booleans: readonly boolean[]) => rows.map((fields, r) => [
  ...fields.map((f, k) => (f === null || f === '' ? null : booleans[k] ? (f[0]!.toLowerCase() === 't') : f)),
  100 + r,
]);

const ROWS: readonly Fields[] = [
  ['1', 'True', 'apple'],
  ['', null, 'FALSE'],
  ['tab\there', 'false', 'line\nend "quoted", \\back'],
  ['ünïcödé ✓ 東京', 'TRUE', '\u0000nul'],
  ['x'.repeat(11), 'true', 'y'.repeat(12)],
  ['z'.repeat(255), 'false', 'w'.repeat(256)],
  ['v'.repeat(65_535), 'true', 'u'.repeat(70_000)],
];
const BOOLEANS = [false, true, false];

test('rows of strings and nils become a JSONB array SQLite reads back field for field, ids last', () => {
  assert.deepEqual(asJson(encoded(ROWS, BOOLEANS)), expected(ROWS, BOOLEANS));
});

test('rows given as text encode to the same bytes as packed rows', () => {
  assert.deepEqual(Buffer.from(encoded(ROWS, BOOLEANS, true)), Buffer.from(encoded(ROWS, BOOLEANS)));
});

test('random fields of every byte that matters, read back by SQLite', () => {
  const alphabet = ['a', 'Z', '0', '\\', '\t', '\n', '\r', '"', ',', 'é', '✓', ' ', '{', ']'];
  let seed = 11;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const rows = Array.from({ length: 300 }, () => Array.from({ length: 4 }, () => (rnd() < 0.15 ? null
    : Array.from({ length: Math.floor(rnd() * 30) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join(''))));
  const none = [false, false, false, false];
  assert.deepEqual(asJson(encoded(rows, none)), expected(rows, none));
});

test('what is not an array of strings and nils is left to the caller, nothing appended', () => {
  for (const value of [pack('x'), pack([1, 2]), pack([['nested']]), new Uint8Array(0)]) {
    const output = new PackedOutput(8);
    assert.equal(appendJsonbRow(output, value, 1, []), false);
    assert.equal(output.used, 0);
  }
});

test('SQLite\'s CAST reads a decimal field as Number() does, to the last bit (the REAL columns of an import)', () => {
  const cast = db.prepare('SELECT CAST(? AS REAL)').pluck();
  let seed = 5;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');
  for (let n = 0; n < 20_000; n++) {
    const whole = digits(1 + Math.floor(rnd() * 17)).replace(/^0+(?=\d)/, '');
    const point = Math.floor(rnd() * whole.length);
    let text = `${whole.slice(0, point) || '0'}.${whole.slice(point) || '0'}`;
    if (rnd() < 0.3) text += `e${Math.floor(rnd() * 60) - 30}`;
    if (rnd() < 0.5) text = `-${text}`;
    assert.equal(cast.get(text), Number(text), text);
  }
});
