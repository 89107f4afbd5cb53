// The added statistics as the WebAssembly scanner keeps them (wasm/column-extras.ts,
// wasm/quantile-levels.ts) against their JavaScript twins (stats/*.ts): the same
// hash, the same reading of dates, and the same file analyzed both ways (a test
// hook hands every field to JavaScript) gives the same answers where they do not
// depend on the algorithm, and estimates within their stated bounds where they do.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { map } from '../../../src/commands/analyze/map/csv-stats-map.js';
import {
  scannerFieldHash, scannerIsoInstant, setScannerLimits,
} from '../../../src/commands/analyze/map/csv-scanner.js';
import {
  mergeTableStats, newTableStats, summarizeColumn, type TableStats,
} from '../../../src/commands/analyze/map/column-stats.js';
import { fieldHash } from '../../../src/commands/analyze/map/stats/field-hash.js';
import { EVERY_SKETCH, Sketch } from '../../../src/commands/analyze/map/stats/sketch.js';
import { parseIsoDate } from '../../../src/engine/worker/iso-date.js';
import { random } from '../../helpers/csv-generator.js';
import { Distribution, numbers } from '../../helpers/distributions.js';
import { frequencies, rankError, topValues, withoutExtras } from '../../helpers/stats-oracle.js';

after(() => setScannerLimits());

test('the scanner hashes a field as field-hash.ts does, at every length and byte', () => {
  const rnd = random(5);
  for (let n = 0; n < 3000; n++) {
    const bytes = Buffer.from(Array.from({ length: n % 45 }, () => Math.floor(rnd() * 256)));
    assert.equal(scannerFieldHash(bytes), fieldHash(bytes, 0, bytes.length), bytes.toString('hex'));
  }
  const texts = Array.from({ length: 20_000 }, (_, i) => Buffer.from(String(i)));
  const distinct = new Set(texts.map((b) => fieldHash(b, 0, b.length)));
  assert.equal(distinct.size, 20_000);
});

/** Valid and invalid ISO 8601 forms, and random variations of them. */
function dateCorpus(): string[] {
  const fixed = [
    '2024-02-29', '2023-02-29', '2000-02-29', '1900-02-29', '0000-02-29', '0000-01-01', '9999-12-31', '2024-13-01',
    '2024-00-10', '2024-04-31', '2024-04-30', '2024-1-01', '2024-01-1', '2024-01-01T24:00', '2024-01-01T23:59:60',
    '2024-01-01T23:59:61', '2024-01-01T10:00+05', '2024-01-01T10:00+0530', '2024-01-01T10:00+05:30',
    '2024-01-01T10:00-05:30', '2024-01-01T10:00Z', '2024-01-01t10:00z', '2024-01-01 10:00:00.123456789',
    '2024-01-01T10:00:00,5', '2024-01-01T10:00:00.', '2024-01-01T10:00:00.5Zx', '2024-01-01T1:00',
    '2024-01-01T10:0', '2024-01-01T10', '2024-01-01T10:00+5', '2024-01-01T10:00+05:3', '2024-01-01T10:00+24',
    '2024-01-01T10:00+05:60', '2024-01-01X10:00', '2024-01-01 ', '2024-01-01T', '20240101', 'abcd-ef-gh',
    '2024-01-01T10:00:00.000+00:00', '1970-01-01T00:00:00.001Z', '1969-12-31T23:59:59.999Z',
  ];
  const rnd = random(6);
  const alphabet = '0123456789-:T Z+.,';
  const mutated = fixed.flatMap((text) => Array.from({ length: 20 }, () => {
    const chars = [...text];
    chars[Math.floor(rnd() * chars.length)] = alphabet[Math.floor(rnd() * alphabet.length)]!;
    return chars.join('');
  }));
  return [...fixed, ...mutated];
}

test('the scanner reads dates and timestamps as iso-date.ts does: the same instant, or neither reads one', () => {
  for (const text of dateCorpus()) {
    const bytes = Buffer.from(text);
    const expected = parseIsoDate(bytes, 0, bytes.length);
    assert.ok(Object.is(scannerIsoInstant(bytes), expected), `${text}: ${expected}`);
  }
});

const ROWS = 60_000;

/** Columns of known shape; the quoted ones are unescaped into the scanner's arena. */
function csvOf(rows: number): { text: string; values: Record<string, string[]> } {
  const rnd = random(8);
  const values: Record<string, string[]> = {
    uniform: numbers(Distribution.Uniform, rows, 1).map((v, i) => (i % 89 === 0 ? '' : String(v))),
    skewed: numbers(Distribution.Skewed, rows, 2).map(String),
    duplicates: numbers(Distribution.Duplicates, rows, 3).map(String),
    word: Array.from({ length: rows }, () => (rnd() < 0.4 ? 'top "one"' : `w${Math.floor(rnd() * 9000)}`)),
    day: Array.from({ length: rows }, (_, i) => `20${String(10 + (i % 13))}-0${1 + (i % 9)}-1${i % 10}`),
    long: Array.from({ length: rows }, (_, i) => `1${String(i % 300).padStart(40, '7')}`),
  };
  const names = Object.keys(values);
  const quote = (v: string) => (v.includes('"') ? `"${v.replaceAll('"', '""')}"` : v);
  const lines = [names.join(',')];
  for (let r = 0; r < rows; r++) lines.push(names.map((n) => quote(values[n]![r]!)).join(','));
  return { text: `${lines.join('\n')}\n`, values };
}

/** The file's data in chunks of about `size` bytes (cut at line ends), merged in order. */
function analyzed(text: string, size: number, width: number, sketches = EVERY_SKETCH): TableStats {
  const body = Buffer.from(text.slice(text.indexOf('\n') + 1));
  const total = newTableStats(width);
  for (let at = 0; at < body.length;) {
    const end = Math.min(body.length, body.indexOf(10, Math.min(body.length - 1, at + size)) + 1 || body.length);
    mergeTableStats(total, map(body.subarray(at, end), { start: at, end, options: { width, sketches } }), 0);
    at = end;
  }
  return total;
}

type Summary = Record<string, unknown>;
const sameEverywhere = [
  'distinct', 'distinct_exact', 'distinct_relative_error', 'top_values_exact', 'null_percentage', 'stddev', 'variance',
] as const;
/** The columns with at most EXACT_LIMIT distinct values: counted exactly on both paths. */
const exactlyCounted = ['duplicates', 'day'] as const;

function assertWithinBounds(name: string, summary: Summary, values: readonly string[]): void {
  const present = values.filter((v) => v !== '');
  const exact = frequencies(present);
  const top = summary['top_values'] as { value: string; count: number }[];
  const error = summary['top_values_error'] as number;
  for (const { value, count } of top) {
    const truth = exact.find((f) => f.value === value)!.count;
    assert.ok(count <= truth && truth - count <= error, `${name}: ${value} ${count} of ${truth} (error ${error})`);
  }
  if (summary['q50'] === undefined) return;
  const sorted = present.map(Number).sort((a, b) => a - b);
  for (const [key, q] of [['q25', 0.25], ['q50', 0.5], ['q75', 0.75]] as const) {
    assert.ok(rankError(sorted, summary[key] as number, q) <= 0.01, `${name} ${key}`);
  }
}

test('the scanner\'s statistics equal JavaScript\'s where the algorithm does not matter, at several chunk sizes'
  + ' (and with only some columns\' statistics in the scanner, as for a table too wide for its memory)', () => {
    const { text, values } = csvOf(ROWS);
    const names = Object.keys(values);
    for (const [size, columns] of [[4096, undefined], [65_536, 2], [1 << 20, undefined]] as const) {
      setScannerLimits({ deferred: 0x7fffffff, scanned: columns });
      const scanned = analyzed(text, size, names.length);
      setScannerLimits({ deferred: 4096, scanned: 0 });
      const reference = analyzed(text, size, names.length);
      setScannerLimits();
      names.forEach((name, k) => {
        const a = summarizeColumn(name, scanned.columns[k]!) as unknown as Summary;
        const b = summarizeColumn(name, reference.columns[k]!) as unknown as Summary;
        assert.deepEqual(withoutExtras(a), withoutExtras(b), `${name} at ${size}`);
        for (const key of sameEverywhere) assert.deepEqual(a[key], b[key], `${name}.${key} at ${size}`);
        assertWithinBounds(`${name} at ${size} (scanner)`, a, values[name]!);
        assertWithinBounds(`${name} at ${size} (JavaScript)`, b, values[name]!);
      });
      for (const name of exactlyCounted) {
        const [a, b] = [scanned, reference].map((stats) => summarizeColumn(name, stats.columns[names.indexOf(name)]!));
        assert.equal(a!.top_values_exact, true, `${name} at ${size}`);
        assert.deepEqual(a!.top_values, b!.top_values, `${name} at ${size}: the same exact counts`);
        assert.deepEqual(a!.top_values, topValues(values[name]!), `${name} at ${size}`);
      }
      assert.equal(summarizeColumn('day', scanned.columns[4]!).type, 'date');
      assert.equal((summarizeColumn('word', scanned.columns[3]!).top_values ?? [])[0]?.value, 'top "one"');
    }
  });

/** Every form of the grammar docs/cli.md states: a date, or a date, `T` or a space, HH:MM[:SS[.fff]], and any zone form. */
function timestampForms(): string[] {
  const times = ['01:00', '01:00:00', '01:00:00.5', '01:00:00.250', '01:00:00,5', '01:00:00.123456789'];
  const zones = ['', 'Z', 'z', '+05:30', '-05:30', '+0530', '-0530', '+05', '-05'];
  return ['T', 't', ' '].flatMap((t) => times.flatMap((time) => zones.map((zone) => `2010-01-01${t}${time}${zone}`)));
}

test('the byte after a field is never read as part of its time: each form reads the same before a comma', () => {
  for (const text of ['2010-01-01', ...timestampForms()]) {
    const alone = Buffer.from(text);
    const expected = parseIsoDate(alone, 0, alone.length);
    assert.ok(!Number.isNaN(expected), text);
    for (const after of [',', ';', '.', ':', '0', '\r']) {
      const followed = Buffer.from(`${text}${after}`);
      assert.equal(parseIsoDate(followed, 0, alone.length), expected, `${text} before ${JSON.stringify(after)}`);
    }
    assert.equal(scannerIsoInstant(alone), expected, text);
  }
});

test('every ISO 8601 form is a timestamp (a date alone a date) in the scanner and in JavaScript, in every'
  + ' column position and line end', () => {
    const hourly = Array.from({ length: 30 }, (_, h) => `2010-01-0${1 + Math.floor(h / 24)}`);
    for (const form of ['2010-01-01', ...timestampForms()]) {
      const hour = (h: number) => `${String(h % 24).padStart(2, '0')}:`;
      const column = hourly.map((day, h) => `${day}${form.slice(10).replace('01:', hour(h))}`);
      const quoted = form.includes(',');
      const cell = (v: string) => (quoted ? `"${v}"` : v);
      for (const eol of ['\n', '\r\n']) {
        const lines = ['a,b,c', ...column.map((v) => `${cell(v)},${cell(v)},${cell(v)}`)];
        const text = `${lines.join(eol)}${eol}`;
        for (const limits of [undefined, { deferred: 4096, scanned: 0 }]) {
          setScannerLimits(limits);
          const stats = analyzed(text, 1 << 20, 3);
          setScannerLimits();
          const path = limits ? 'JavaScript' : 'scanner';
          ['a', 'b', 'c'].forEach((name, k) => {
            const summary = summarizeColumn(name, stats.columns[k]!);
            const type = form.length === 10 ? 'date' : 'timestamp';
            assert.equal(summary.type, type, `${form} in column ${name} (${path}, ${JSON.stringify(eol)})`);
            assert.equal(summary.min, column[0], `${form}: earliest (${path})`);
          });
        }
      }
    }
  });

test('a chunk computes only the added statistics asked for, on both paths: the rest stay empty, and every'
  + ' other figure is the same', () => {
    const { text, values } = csvOf(20_000);
    const names = Object.keys(values);
    const shown = (stats: TableStats, k: number) => summarizeColumn(names[k]!, stats.columns[k]!) as unknown as Summary;
    for (const limits of [undefined, { deferred: 4096, scanned: 0 }]) {
      setScannerLimits(limits);
      const every = analyzed(text, 65_536, names.length);
      const spread = analyzed(text, 65_536, names.length, Sketch.Spread);
      const tallied = analyzed(text, 65_536, names.length, Sketch.Values);
      const none = analyzed(text, 65_536, names.length, 0);
      setScannerLimits();
      const path = limits ? 'JavaScript' : 'scanner';
      names.forEach((name, k) => {
        const all = shown(every, k);
        const where = `${name} (${path})`;
        for (const stats of [spread, tallied, none]) {
          assert.deepEqual(withoutExtras(shown(stats, k)), withoutExtras(all), where);
        }
        for (const key of ['stddev', 'q50'] as const) {
          assert.equal(shown(spread, k)[key], all[key], `${where}.${key}`);
          assert.equal(shown(none, k)[key], undefined, `${where}.${key} not kept`);
        }
        for (const key of ['distinct', 'top_values'] as const) {
          assert.deepEqual(shown(tallied, k)[key], all[key], `${where}.${key}`);
        }
        assert.equal(shown(none, k)['distinct'], 0, `${where}: nothing tallied`);
        assert.equal(none.columns[k]!.extras.moments.n, 0, `${where}: no moments`);
      });
    }
  });
