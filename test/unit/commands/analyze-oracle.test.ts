import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { map } from '../../../src/commands/analyze/map/csv-stats-map.js';
import { readCsvHeader } from '../../../src/commands/csv-header.js';
import { mergeTableStats, newTableStats, summarizeColumn } from '../../../src/commands/analyze/map/column-stats.js';
import { analyzeWithCsvParse } from '../../helpers/analyze-oracle.js';
import { generateCsv, random } from '../../helpers/csv-generator.js';
import { withoutExtras } from '../../helpers/stats-oracle.js';

const dir = mkdtempSync(join(tmpdir(), 'stint-oracle-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/** The scanner over a file cut at the given record-aligned points, folded in order. */
function scan(path: string, bytes: Buffer, pieces: number, rnd: () => number) {
  const header = readCsvHeader(path, bytes.length, 1 << 20);
  const width = header.names.length;
  // Cut points at record starts: use the scanner's own record boundaries by splitting on lines whose quote parity is even.
  const cuts = [header.dataStart];
  let quotes = 0;
  for (let i = header.dataStart; i < bytes.length; i++) {
    if (bytes[i] === 0x22) quotes++;
    else if (bytes[i] === 0x0a && quotes % 2 === 0 && rnd() < pieces / 200) cuts.push(i + 1);
  }
  cuts.push(bytes.length);
  const total = newTableStats(width);
  let line = header.dataLine;
  for (let k = 0; k + 1 < cuts.length; k++) {
    const chunk = bytes.subarray(cuts[k], cuts[k + 1]);
    mergeTableStats(total, map(chunk, { start: cuts[k]!, end: cuts[k + 1]!, options: { width } }), line);
    line += chunk.filter((b) => b === 0x0a).length;
  }
  const summaries = header.names.map((name, k) => summarizeColumn(name, total.columns[k]!));
  const counts = summaries.map(({ distinct, distinct_exact, top_values, top_values_exact }) =>
    ({ distinct, distinct_exact, top_values, top_values_exact }));
  return { rows: total.rows, columns: summaries.map((c) => withoutExtras({ ...c })), counts, ragged: total.ragged };
}

test('the scanner equals csv-parse on generated CSV (property test, 300 files)', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const rnd = random(seed * 7919);
    const bytes = generateCsv(seed, {
      rows: 1 + Math.floor(rnd() * 60),
      columns: 1 + Math.floor(rnd() * 8),
      crlf: rnd() < 0.4,
      bom: rnd() < 0.3,
      newlines: rnd() * 0.3,
      ragged: rnd() < 0.3 ? 0.1 : 0,
      emptyLines: rnd() < 0.2 ? 0.1 : 0,
      trailingNewline: rnd() < 0.8,
    });
    const path = join(dir, `case-${seed}.csv`);
    writeFileSync(path, bytes);
    const expected = analyzeWithCsvParse(path);
    const actual = scan(path, bytes, 1 + Math.floor(rnd() * 10), rnd);
    assert.deepEqual(JSON.parse(JSON.stringify(actual.columns)), JSON.parse(JSON.stringify(expected.columns)), `seed ${seed}: columns`);
    const exact = expected.counts.map((c) => ({ ...c, distinct_exact: true, top_values_exact: true }));
    assert.deepEqual(actual.counts, exact, `seed ${seed}: distinct and top values, counted exactly`);
    assert.equal(actual.rows, expected.rows, `seed ${seed}: rows`);
    assert.equal(actual.ragged.count, expected.raggedCount, `seed ${seed}: ragged count`);
    assert.deepEqual(actual.ragged.lines, expected.raggedLines, `seed ${seed}: ragged lines`);
  }
});
