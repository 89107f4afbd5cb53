import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { unpack, unpackMultiple } from 'msgpackr';
import { BadRecord, fieldText, readCsvRecords } from '../../../src/engine/worker/csv-records.js';
import { PackedOutput } from '../../../src/engine/worker/packed-output.js';
import { generateCsv } from '../../helpers/csv-generator.js';

/** Reads a whole buffer; the rows come back unpacked, as export would read them. */
function readAll(bytes: Buffer, output = new PackedOutput(64)) {
  const rows: string[][] = [];
  const texts: string[][] = [];
  const bad: [number, BadRecord][] = [];
  output.used = 0;
  const result = readCsvRecords(bytes, output, {
    record(record, line) {
      const value = unpack(record.bytes.subarray(record.start, record.end)) as string[];
      rows.push(value);
      texts.push(value.map((_, k) => fieldText(record, k)));
      assert.ok(line >= 0);
      return true;
    },
    bad: (line, reason) => void bad.push([line, reason]),
  });
  return { rows, texts, bad, result };
}

test('packed records unpack to what csv-parse reads (quotes, newlines, CRLF, Unicode, ragged rows)', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const csv = generateCsv(seed, { rows: 300, columns: 1 + (seed % 20), crlf: seed % 2 === 0, newlines: 0.05, ragged: 0.05, emptyLines: 0.05, trailingNewline: seed % 3 !== 0 });
    const expected = parse(csv, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
    const bytes = csv[0] === 0xef ? csv.subarray(3) : csv;
    const { rows, texts, bad } = readAll(bytes);
    assert.deepEqual(bad, []);
    assert.deepEqual(rows, expected);
    assert.deepEqual(texts, expected);
  }
});

test('string headers of every size, and a record of 16 fields or more (array16)', () => {
  const fields = [0, 1, 31, 32, 255, 256, 65535, 65536].map((n) => 'x'.repeat(n));
  const wide = Array.from({ length: 17 }, (_, k) => `f${k}`);
  const csv = Buffer.from(`${fields.join(',')}\n"${fields[5]!}""",b\n${wide.join(',')}\na\n`);
  const { rows } = readAll(csv);
  assert.deepEqual(rows, [fields, [`${fields[5]!}"`, 'b'], wide, ['a']]);
});

test('bad records are named by line and skipped to the end of their line', () => {
  const csv = Buffer.concat([Buffer.from('a,b\n"x"y,z\nc,d\ne"f,g\n'), Buffer.from([0xff, 0x2c, 0x61, 0x0a]), Buffer.from('h,i\n"open,j\nk\n')]);
  const { rows, bad } = readAll(csv);
  assert.deepEqual(rows, [['a', 'b'], ['c', 'd'], ['h', 'i']]);
  assert.deepEqual(bad, [[1, BadRecord.TextAfterQuote], [3, BadRecord.QuoteInUnquotedField], [4, BadRecord.InvalidUtf8], [6, BadRecord.UnterminatedQuote]]);
});

test('a dropped record leaves no bytes behind; a record cut by the window end asks for more', () => {
  const output = new PackedOutput(16);
  let kept = 0;
  const result = readCsvRecords(Buffer.from('a,b\nc\nd,e\n'), output, { record: (r) => r.count === 2 && ++kept > 0, bad: () => {} });
  assert.deepEqual(result, { consumed: 10, newlines: 3 });
  assert.deepEqual(unpackMultiple(output.bytes.subarray(0, output.used)), [['a', 'b'], ['d', 'e']]);
  assert.equal(kept, 2);
  assert.equal(readCsvRecords(Buffer.from('a,"b\nc'), new PackedOutput(16), { record: () => true, bad: () => {} }, 6, false), undefined);
});
