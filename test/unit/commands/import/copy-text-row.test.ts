import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pack } from 'msgpackr';
import { PackedOutput } from '../../../../src/engine/worker/packed-output.js';
import { appendCopyRow } from '../../../../src/commands/import/map/rows/copy-text-row.js';

/** COPY's text format for decoded fields, as PostgreSQL's documentation states it. */
const copyLine = (fields: readonly (string | null)[]) => `${fields.map((f) => (f === null ? '\\N'
  : f.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!))).join('\t')}\n`;

const appended = (fields: readonly (string | null)[]) => {
  const output = new PackedOutput(16);
  assert.ok(appendCopyRow(output, pack(fields)), JSON.stringify(fields));
  return output.bytes.toString('utf8', 0, output.used);
};

test('a row of strings and nils becomes its COPY text line, escapes and NULLs included', () => {
  const cases: (string | null)[][] = [
    ['1', 'apple', '1.25'],
    ['', null, 'x'],
    ['tab\there', 'line\nend', 'cr\rlf', 'back\\slash', '\\N'],
    ['ünïcödé ✓', '"quoted", comma'],
    ['x'.repeat(40), 'y'.repeat(300), 'z'.repeat(70_000)],
    Array.from({ length: 20 }, (_, k) => (k % 3 === 0 ? null : `f${k}`)),
  ];
  for (const fields of cases) assert.equal(appended(fields), copyLine(fields));
});

test('random fields of every byte that matters, against the stated format', () => {
  const alphabet = ['a', 'Z', '0', '\\', '\t', '\n', '\r', '"', ',', 'é', 'N', ' '];
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let n = 0; n < 500; n++) {
    const fields = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => (rnd() < 0.15 ? null
      : Array.from({ length: Math.floor(rnd() * 40) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('')));
    assert.equal(appended(fields), copyLine(fields));
  }
});

test('what is not an array of strings and nils is left to the caller, nothing appended', () => {
  for (const value of [{ a: 1 }, [1, 2], ['a', true], 'text']) {
    const output = new PackedOutput(16);
    assert.equal(appendCopyRow(output, pack(value)), false, JSON.stringify(value));
    assert.equal(output.used, 0);
  }
});

test('rowFields reads the fields msgpackr would, nil as null, and leaves other shapes to it', async () => {
  const { rowFields } = await import('../../../../src/engine/worker/packed-items.js');
  for (const fields of [['a', null, 'ünï', ''], ['x'.repeat(300), 'y'.repeat(70_000), null], [] as string[]]) {
    assert.deepEqual(rowFields(pack(fields)), fields);
  }
  const inside = Buffer.concat([Buffer.from([1, 2, 3]), pack(['in', 'a', 'view']), Buffer.from([9])]);
  assert.deepEqual(rowFields(inside.subarray(3, inside.length - 1)), ['in', 'a', 'view'], 'a view into a bigger buffer');
  for (const value of [{ a: 1 }, [1], ['a', true], 'text']) assert.equal(rowFields(pack(value)), undefined);
});
