import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readCsvFields } from '../../../src/engine/worker/csv-fields.js';
import { BadRecord, readCsvRecords, type PackedRecord } from '../../../src/engine/worker/csv-records.js';
import { PackedOutput } from '../../../src/engine/worker/packed-output.js';
import { generateCsv } from '../../helpers/csv-generator.js';

type Reader = 'records' | 'fields';

/** Everything a reader answers for a window of `bytes`: its framing, and each record and bad record in order. */
function answer(reader: Reader, bytes: Buffer, width: number, limit = bytes.length, atEof = true) {
  const seen: unknown[] = [];
  const sink = {
    record(record: PackedRecord, line: number) {
      const noted = Math.min(record.count, width);
      const text = (k: number) => record.bytes.toString('utf8', record.fieldStarts[k], record.fieldEnds[k]);
      const texts = Array.from({ length: noted }, (_, k) => text(k));
      assert.ok(record.start <= record.fieldStarts[0]! && record.fieldEnds[noted - 1]! <= record.end);
      seen.push({ line, count: record.count, texts });
      return false;
    },
    bad: (line: number, reason: BadRecord) => void seen.push({ line, reason }),
  };
  const framed = reader === 'fields' ? readCsvFields(bytes, width, sink, limit, atEof)
    : readCsvRecords(bytes, new PackedOutput(64), sink, limit, atEof);
  // A window that asks for more is read again whole: what its records were is of no account.
  return framed ? { framed, seen } : undefined;
}

/** The windows a chunk is read in: cut at `cuts` places, each the file's end or not, read to its end or half. */
function assertSameAnswers(bytes: Buffer, width: number, cuts = 24): void {
  for (let c = 1; c <= cuts; c++) {
    const window = bytes.subarray(0, Math.round((bytes.length * c) / cuts));
    for (const atEof of [true, false]) {
      for (const limit of [window.length, window.length >> 1]) {
        const expected = answer('records', window, width, limit, atEof);
        const found = answer('fields', window, width, limit, atEof);
        assert.deepEqual(found, expected, `cut ${window.length} ${atEof} ${limit}`);
      }
    }
  }
}

test('fields read as readCsvRecords reads them: quotes, doubled quotes, newlines, CRLF, Unicode, ragged rows', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const columns = 1 + (seed % 20);
    const csv = generateCsv(seed, {
      rows: 200, columns, crlf: seed % 2 === 0, newlines: 0.05, ragged: 0.05, emptyLines: 0.05,
      trailingNewline: seed % 3 !== 0,
    });
    assertSameAnswers(csv[0] === 0xef ? csv.subarray(3) : csv, columns);
  }
});

test('bad records come back by line, as readCsvRecords names them, and reading goes on', () => {
  const csv = Buffer.concat([
    Buffer.from('a,b\n"x"y,z\nc,d\ne"f,g\n'), Buffer.from([0xff, 0x2c, 0x61, 0x0a]),
    Buffer.from('"\u00e9""",2\r\n"x"\ry,z\nh,i\n"open,j\nk\n'),
  ]);
  const whole = answer('fields', csv, 2)!;
  assert.deepEqual(whole.seen.filter((r) => 'reason' in (r as object)), [
    { line: 1, reason: BadRecord.TextAfterQuote }, { line: 3, reason: BadRecord.QuoteInUnquotedField },
    { line: 4, reason: BadRecord.InvalidUtf8 }, { line: 6, reason: BadRecord.TextAfterQuote },
    { line: 8, reason: BadRecord.UnterminatedQuote },
  ]);
  assertSameAnswers(csv, 2, csv.length);
});

test('a record wider than the width is counted with its first fields noted; fields of 16 bytes and more', () => {
  const long = 'x'.repeat(16);
  const csv = Buffer.from(`${long},"${long}""${long}",c\n"a""",${'y'.repeat(33)}\n`);
  const { seen } = answer('fields', csv, 2)!;
  assert.deepEqual(seen, [
    { line: 0, count: 3, texts: [long, `${long}"${long}`] },
    { line: 1, count: 2, texts: ['a"', 'y'.repeat(33)] },
  ]);
  assertSameAnswers(csv, 2, csv.length);
});

test('a table of entries too small for the chunk is handed over a tableful at a time', () => {
  // So wide that the scanner's table holds two entries: 50 records take 25 tablefuls.
  const width = 1 << 16;
  const csv = Buffer.from(Array.from({ length: 50 }, (_, k) => `${k},"q""${k}"\n${k % 7 === 0 ? '\n' : ''}`).join(''));
  const { framed, seen } = answer('fields', csv, width)!;
  assert.deepEqual(framed, { consumed: csv.length, newlines: 58 });
  const texts = seen.map((r) => (r as { texts: string[] }).texts);
  assert.deepEqual(texts, Array.from({ length: 50 }, (_, k) => [`${k}`, `q"${k}`]));
  assert.deepEqual(answer('fields', csv, width, 40), answer('records', csv, width, 40));
});
