// Export writes CSV straight from a stored row's bytes (csv-row-bytes.ts): every line must be the one the decoded
// row gives (csvField, through rowEncoder), and a row that is not an array of strings alone is left to decoding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pack } from 'msgpackr';
import { appendCsvRow } from '../../../../src/commands/export/csv-row-bytes.js';
import { ExportFormat, rowEncoder } from '../../../../src/commands/export/export-format.js';
import { PackedOutput } from '../../../../src/engine/worker/packed-output.js';
import { random } from '../../../helpers/csv-generator.js';

const PIECES = ['a', 'é', '東京', '😀', '"', ',', '\n', '\r', ' ', '""', 'x,y', '\r\n', '0.5', 'NULL'];

/** A field of 0 to `max` pieces: plain, quoted, multi-byte, long enough for every string header. */
function fieldOf(rnd: () => number, max: number): string {
  let text = '';
  for (let n = Math.floor(rnd() * max); n > 0; n--) text += PIECES[Math.floor(rnd() * PIECES.length)];
  return text;
}

const csvOf = (fields: string[]) => rowEncoder(ExportFormat.Csv, fields.map(String))(fields);

function written(row: Uint8Array, output = new PackedOutput(8)): { ok: boolean; text: string } {
  const ok = appendCsvRow(output, row);
  return { ok, text: output.bytes.toString('utf8', 0, output.used) };
}

test('a row written from its bytes is the line its decoded fields make', () => {
  const rnd = random(24);
  const output = new PackedOutput(8);
  let expected = '';
  for (let r = 0; r < 3000; r++) {
    const width = [1, 3, 15, 16, 40][r % 5]!;
    // Up to 200 pieces: fixstr, str8 and str16 headers all occur.
    const fields = Array.from({ length: width }, () => fieldOf(rnd, r % 7 === 0 ? 200 : 12));
    assert.equal(appendCsvRow(output, pack(fields)), true, `row ${r}`);
    expected += csvOf(fields);
  }
  assert.equal(output.bytes.toString('utf8', 0, output.used), expected);
});

test('a field of 70,000 bytes (a str32 header) and a record of 70,000 fields (array32) are written', () => {
  const long = ['x'.repeat(35_000) + '"' + 'y'.repeat(35_000)];
  assert.deepEqual(written(pack(long)), { ok: true, text: csvOf(long) });
  const wide = Array.from({ length: 70_000 }, (_, k) => (k % 3 ? '' : String(k)));
  assert.deepEqual(written(pack(wide)), { ok: true, text: csvOf(wide) });
});

test('a row that is not an array of strings alone appends nothing and says so', () => {
  const output = new PackedOutput(8);
  appendCsvRow(output, pack(['kept']));
  const before = output.bytes.toString('utf8', 0, output.used);
  for (const other of [pack(['a', null]), pack(['a', 1]), pack({ a: 'b' }), pack('a'), new Uint8Array(0)]) {
    assert.equal(appendCsvRow(output, other), false);
  }
  const whole = pack(['abc', 'def']);
  assert.equal(appendCsvRow(output, whole.subarray(0, whole.length - 1)), false, 'a cut row');
  assert.equal(appendCsvRow(output, Buffer.concat([whole, Buffer.from([0xa0])])), false, 'bytes past the row');
  assert.equal(output.bytes.toString('utf8', 0, output.used), before);
});
