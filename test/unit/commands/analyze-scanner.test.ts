// The WebAssembly scanner's less travelled paths, against the csv-parse
// oracle: numbers it hands back to JavaScript, and pauses to take them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StintError } from '../../../src/contract/stint-error.js';
import { map, mapWindow } from '../../../src/commands/analyze/map/csv-stats-map.js';
import { setScannerLimits } from '../../../src/commands/analyze/map/csv-scanner.js';
import { readCsvHeader } from '../../../src/commands/csv-header.js';
import { summarizeColumn, type TableStats } from '../../../src/commands/analyze/map/column-stats.js';
import { analyzeWithCsvParse } from '../../helpers/analyze-oracle.js';
import { generateCsv, random } from '../../helpers/csv-generator.js';
import { withoutExtras } from '../../helpers/stats-oracle.js';

const dir = mkdtempSync(join(tmpdir(), 'stint-scanner-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const summary = (names: readonly string[], stats: TableStats) => ({
  rows: stats.rows,
  columns: JSON.parse(JSON.stringify(names.map((name, k) => withoutExtras({ ...summarizeColumn(name, stats.columns[k]!) })))) as unknown,
  raggedLines: stats.ragged.lines,
});

/** The file as one chunk through the scanner, and through the oracle. */
function both(name: string, bytes: Buffer) {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const header = readCsvHeader(path, bytes.length, 1 << 20);
  const stats = map(bytes.subarray(header.dataStart), { start: header.dataStart, end: bytes.length, options: { width: header.names.length } });
  stats.ragged.lines = stats.ragged.lines.map((line) => line + header.dataLine);
  const oracle = analyzeWithCsvParse(path);
  return { actual: summary(header.names, stats), expected: { rows: oracle.rows, columns: JSON.parse(JSON.stringify(oracle.columns)) as unknown, raggedLines: oracle.raggedLines } };
}

function hardNumbersCsv(rows: number): Buffer {
  const rnd = random(42);
  const digits = (n: number) => Array.from({ length: n }, (_, k) => String(k === 0 ? 1 + Math.floor(rnd() * 9) : Math.floor(rnd() * 10))).join('');
  const notNumbers = ['1e', '1e+', 'e5', '-', '+', '.', '1.2.3', '0x10', ' 1', '1 ', 'Infinity', 'NaN', '1e400', '-1e400', '١٢', '1_000', '--1', '1e5.5'];
  const odd = ['+.5', '5.', '-0', '00012', '1E5', '2e-0', '-.25e+3', '7e0022'];
  const lines = ['long_integer,far_exponent,not_a_number,odd_number'];
  for (let r = 0; r < rows; r++) {
    const sign = rnd() < 0.5 ? '-' : '';
    const long = sign + digits(rnd() < 0.5 ? 16 + Math.floor(rnd() * 15) : 31 + Math.floor(rnd() * 10));
    const far = rnd() < 0.5 ? `${digits(3)}.${digits(2)}e${rnd() < 0.5 ? '-' : ''}${23 + Math.floor(rnd() * 270)}` : `0.${'0'.repeat(20 + Math.floor(rnd() * 10))}${digits(4)}`;
    lines.push([long, far, notNumbers[r % notNumbers.length], odd[r % odd.length]].join(','));
  }
  return Buffer.from(lines.join('\n') + '\n');
}

test('numbers the fast paths cannot read are handed back to JavaScript, with pauses, and agree with csv-parse', () => {
  // 6000 rows hand back two fields each: more than one list's worth, so the scan pauses.
  const { actual, expected } = both('hard-numbers.csv', hardNumbersCsv(6000));
  assert.deepEqual(actual, expected);
  const types = (actual.columns as { type: string }[]).map((c) => c.type);
  assert.deepEqual(types, ['integer', 'number', 'string', 'number']);
});

test('long fields, and newlines and doubled quotes anywhere in them, agree with csv-parse (the scanner reads 16 bytes at a time)', () => {
  const rnd = random(7);
  const alphabet = ['a', 'b', 'é', '東', '🙂', ' ', '.', '1', '\n', '""', '\r\n'];
  const text = (quoted: boolean) => {
    let out = '';
    const length = Math.floor(rnd() * 90);
    for (let n = 0; n < length; n++) {
      const piece = alphabet[Math.floor(rnd() * alphabet.length)]!;
      if (quoted || !/["\r\n]/.test(piece)) out += piece;
    }
    return quoted ? `"${out}"` : out;
  };
  const lines = ['first,second,third'];
  for (let r = 0; r < 400; r++) {
    const fields = [text(rnd() < 0.5), text(rnd() < 0.5), text(rnd() < 0.5)];
    if (rnd() < 0.05) fields.push('extra'); // a ragged row after multi-line fields: its line number must be right
    lines.push(fields.join(','));
  }
  const { actual, expected } = both('long-fields.csv', Buffer.from(lines.join('\n') + '\n'));
  assert.deepEqual(actual, expected);
  assert.ok(actual.raggedLines.length > 0);
});

test('pausing after every record (tiny limits) changes nothing: generated CSV agrees with csv-parse', () => {
  setScannerLimits({ deferred: 1 });
  try {
    for (let seed = 1; seed <= 80; seed++) {
      const rnd = random(seed * 104729);
      const bytes = generateCsv(seed, { rows: 1 + Math.floor(rnd() * 80), columns: 1 + Math.floor(rnd() * 8), crlf: rnd() < 0.4, newlines: rnd() * 0.3, ragged: rnd() < 0.3 ? 0.1 : 0 });
      const { actual, expected } = both(`paused-${seed}.csv`, bytes);
      assert.deepEqual(actual, expected, `seed ${seed}`);
    }
    const { actual, expected } = both('hard-numbers-paused.csv', hardNumbersCsv(300));
    assert.deepEqual(actual, expected);
  } finally {
    setScannerLimits();
  }
});

test('mapWindow: records that start before the limit, and "read more" when the last one runs past the window', () => {
  const records = Buffer.from('1,"a\nb"\n2,c\n3,d\n');
  const info = (limit: number, atEof: boolean) => ({ start: 0, end: records.length, options: { width: 2 }, limit, atEof });
  // The limit falls inside the second record: it is read whole, the third is not.
  const second = records.indexOf('2,c');
  const cut = mapWindow(records, info(second + 1, false));
  assert.deepEqual([cut?.consumed, cut?.newlines, cut?.partial.rows], [records.indexOf('3,d'), 3, 2]);
  // The window ends inside the quoted field and the file goes on: read more.
  assert.equal(mapWindow(records.subarray(0, 5), info(5, false)), undefined);
  // At the end of the file the same bytes are an unclosed quote, thrown as a StintError with a code.
  assert.throws(() => mapWindow(records.subarray(0, 5), info(5, true)),
    (error: StintError) => error.code === 'MALFORMED_CSV' && error.toDetail().context?.['line_offset'] === 0);
});

