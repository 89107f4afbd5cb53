// The files people have, through the BUILT stint: gzip, other delimiters, lone-CR line ends, stdin, the header's
// bad bytes and malformed quoting, --columns.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { runCli, runJson, runShell, startCli } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';
import { generateCsv } from '../helpers/csv-generator.js';
import { analyzeWithCsvParse } from '../helpers/analyze-oracle.js';
import { analysisWithoutExtras, withoutExtras } from '../helpers/stats-oracle.js';
import { assertSameAnswer } from '../helpers/same-answer.js';
import { STINT_BIN } from '../helpers/paths.js';

const world = tempWorld('analyze-files');
const home = (name: string) => ({ STINT_HOME: world.path(`home-${name}`), STINT_TEST_MODE: '1' });
const canonical = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
const ENGINE = ['--workers', '2', '--chunk-size', '64KiB'];

type Column = Record<string, unknown> & { name: string };
type Analysis = { rows: number; delimiter: string; columns: Column[] };
type Entry = { q: string; a: Analysis; cite: Record<string, unknown> };
const entryOf = (data: Record<string, unknown> | null) => (data!['established'] as Entry[])[0]!;

async function analyze(args: readonly string[], name: string, stdin?: string) {
  const { run, envelope } = await runJson(['analyze', ...args], { env: home(name), ...(stdin !== undefined ? { stdin } : {}) });
  assert.equal(run.code, 0, run.stdout);
  return { entry: entryOf(envelope.data), envelope };
}

function write(name: string, bytes: Buffer | string): string {
  const path = world.path(name);
  writeFileSync(path, bytes);
  return path;
}

/** A CSV with quoted delimiters, newlines and doubled quotes in it (~4 MB: many 64 KiB chunks). */
const plain = generateCsv(31, { rows: 40_000, columns: 6, newlines: 0.05, crlf: true });

describe('stint analyze: gzip', () => {
  test('a gzip file gives the plain file\'s analysis, the compression named in cite', async () => {
    const reference = await analyze([write('g.csv', plain), ...ENGINE], 'gz-plain');
    const gz = await analyze([write('g.csv.gz', gzipSync(plain)), ...ENGINE], 'gz');
    assertSameAnswer(gz.entry.a, reference.entry.a, 'the gzip file gives the plain file\'s whole analysis');
    assert.equal(gz.entry.cite['compression'], 'gzip');
    assert.equal(reference.entry.cite['compression'], undefined);
    assert.deepEqual(gz.entry.cite['lines'], reference.entry.cite['lines']);
    const oracle = analyzeWithCsvParse(world.path('g.csv'));
    assert.equal(gz.entry.a.rows, oracle.rows);
    assert.deepEqual(canonical(gz.entry.a.columns.map(withoutExtras)), canonical(oracle.columns));
  });

  test('concatenated gzip members, any name, one worker and tiny chunks: the same analysis', async () => {
    const cut = plain.indexOf('\n', plain.length >> 1) + 1;
    const members = Buffer.concat([gzipSync(plain.subarray(0, cut)), gzipSync(plain.subarray(cut))]);
    const tiny = ['--workers', '1', '--chunk-size', '4KiB'];
    const reference = await analyze([write('m.csv', plain), ...tiny], 'members-plain');
    const gz = await analyze([write('members.data', members), ...tiny], 'members');
    assertSameAnswer(gz.entry.a, reference.entry.a, 'gzip members give the plain file\'s whole analysis');
  });

  test('progress counts compressed bytes, so it has the file\'s size as its total; gzip on stdin reads too', async () => {
    const path = write('p.csv.gz', gzipSync(plain));
    const env = home('gz-progress');
    const { entry } = await analyze([path], 'gz-progress');
    const jobs = readdirSync(`${env.STINT_HOME}/jobs`);
    assert.equal(jobs.length, 1);
    const status = JSON.parse(readFileSync(`${env.STINT_HOME}/jobs/${jobs[0]}/status.json`, 'utf8')) as {
      progress: { done: number; total: number; unit: string };
    };
    assert.deepEqual(status.progress, { done: entry.cite['size'], total: entry.cite['size'], unit: 'bytes' });
    const piped = await runShell(`'${process.execPath}' '${STINT_BIN}' analyze - < '${path}'`, home('gz-stdin'));
    assert.equal(piped.code, 0, piped.stdout);
    const data = (JSON.parse(piped.stdout) as { data: Record<string, unknown> }).data;
    assertSameAnswer(entryOf(data).a, entry.a, 'gzip on stdin gives the gzip file\'s whole analysis');
    assert.equal(entryOf(data).cite['compression'], 'gzip');
  });

  test('a damaged gzip file fails with a code, not a crash', async () => {
    const gz = gzipSync(plain);
    const path = write('damaged.csv.gz', gz.subarray(0, gz.length >> 1));
    const { run, envelope } = await runJson(['analyze', path], { env: home('damaged') });
    assert.equal(run.code, 4, run.stdout);
    assert.equal(envelope.error!.code, 'INPUT_DAMAGED');
    assert.match(envelope.error!.message, /cannot be decompressed/);
    const garbage = Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(100, 7)]);
    const header = await runJson(['analyze', write('garbage.csv.gz', garbage)], { env: home('garbage') });
    assert.equal(header.run.code, 4, header.run.stdout);
    assert.equal(header.envelope.error!.code, 'INPUT_DAMAGED');
  });
});

describe('stint analyze: delimiters and line ends', () => {
  /** The comma file's analysis, which every other spelling of the same table must give. */
  const table = generateCsv(17, { rows: 5000, columns: 5, newlines: 0.05 });
  /** The same table with another delimiter: fields holding it (or a quote) are quoted; quoted ones stay so. */
  function respelled(delimiter: string): Buffer {
    const rows = analyzeRecords(table.toString('utf8'));
    const field = (value: string) => (/[",\n;|\t]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
    return Buffer.from(rows.map((fields) => fields.map(field).join(delimiter)).join('\n') + '\n');
  }

  test('TSV, semicolon and pipe files give the comma file\'s rows and columns; the result names the delimiter', async () => {
    const reference = await analyze([write('d.csv', respelled(','))], 'delim-comma');
    assert.equal(reference.entry.a.delimiter, ',');
    assert.equal(reference.entry.a.columns.length, 5);
    for (const [name, delimiter] of [['tsv', '\t'], ['semicolon', ';'], ['pipe', '|']] as const) {
      const { entry, envelope } = await analyze([write(`d.${name}`, respelled(delimiter)), ...ENGINE], `delim-${name}`);
      assert.equal(entry.a.delimiter, delimiter, name);
      assert.deepEqual(entry.a.columns.map(withoutExtras), reference.entry.a.columns.map(withoutExtras), name);
      assert.equal(entry.a.rows, reference.entry.a.rows, name);
      assert.deepEqual(envelope.warnings, [], name);
    }
  });

  test('a lone-CR file gives the LF file\'s rows and columns (a CR in a quoted value reads as a LF)', async () => {
    const lf = write('lf.csv', table);
    const cr = write('cr.csv', Buffer.from(table.toString('latin1').replace(/\n/g, '\r'), 'latin1'));
    const reference = await analyze([lf], 'cr-reference');
    const { entry, envelope } = await analyze([cr, ...ENGINE], 'cr');
    assert.equal(entry.a.rows, 5000);
    assert.deepEqual(analysisWithoutExtras(entry.a), analysisWithoutExtras(reference.entry.a));
    assert.deepEqual(entry.cite['lines'], reference.entry.cite['lines']);
    assert.deepEqual(envelope.warnings, [], 'no duplicate-names warning, no ragged rows');
    const gz = await analyze([write('cr.csv.gz', gzipSync(readFileSync(cr))), ...ENGINE], 'cr-gz');
    assert.deepEqual(analysisWithoutExtras(gz.entry.a), analysisWithoutExtras(reference.entry.a));
  });

  test('--delimiter forces the delimiter (also as tab or \\t); a value not among the four is ARG_ERROR', async () => {
    const path = write('forced.csv', 'a,b;c\n1,2;3\n4,5;6\n');
    assert.deepEqual((await analyze([path], 'forced-detect')).entry.a.columns.map((c) => c.name), ['a', 'b;c']);
    const forced = await analyze([path, '--delimiter', ';'], 'forced');
    assert.deepEqual(forced.entry.a.columns.map((c) => c.name), ['a,b', 'c']);
    assert.equal(forced.entry.a.delimiter, ';');
    const tsv = write('forced.tsv', 'a\tb,c\n1\t2,3\n');
    for (const value of ['tab', '\\t', '\t']) {
      assert.deepEqual((await analyze([tsv, '--delimiter', value], `forced-tab-${value.length}`)).entry.a.columns.map((c) => c.name), ['a', 'b,c']);
    }
    const { run, envelope } = await runJson(['analyze', path, '--delimiter', ':'], { env: home('forced-bad') });
    assert.equal(run.code, 2);
    assert.equal(envelope.error!.code, 'ARG_ERROR');
  });

  test('a one-column file stays one column, whatever its rows hold', async () => {
    const { entry, envelope } = await analyze([write('one.csv', 'name\nplain\nsemi;colon\npipe|d\n')], 'one-column');
    assert.deepEqual(entry.a.columns.map((c) => c.name), ['name']);
    assert.equal(entry.a.rows, 3);
    assert.deepEqual(envelope.warnings, []);
  });
});

describe('stint analyze: - reads standard input', () => {
  test('stdin gives the file\'s analysis, its path named -', async () => {
    const path = write('stdin.csv', plain);
    const file = await analyze([path, ...ENGINE], 'stdin-file');
    const piped = await analyze(['-', ...ENGINE], 'stdin', plain.toString('utf8'));
    assertSameAnswer(piped.entry.a, file.entry.a, 'stdin gives the file\'s whole analysis');
    assert.equal(piped.entry.q, '-');
    const both = await runJson(['analyze', path, '-'], { env: home('stdin-both'), stdin: plain.toString('utf8') });
    assert.equal(both.run.code, 0);
    const entries = both.envelope.data!['established'] as Entry[];
    assert.deepEqual(entries.map((e) => e.q), [path, '-']);
    assert.deepEqual(analysisWithoutExtras(entries[1]!.a), analysisWithoutExtras(file.entry.a));
  });

  test('a call without - reads no stdin (a terminal or an open pipe on stdin does not matter)', async () => {
    // runJson leaves stdin an open pipe that is never written: reading it would hang until the guard kills it.
    const { run } = await runJson(['analyze', write('no-stdin.csv', 'a\n1\n')], { env: home('no-stdin'), killAfterMs: 60_000 });
    assert.equal(run.code, 0);
  });

  test('a paused analyze of stdin continues with its kept spool, to the file\'s analysis', async () => {
    const big = generateCsv(8, { rows: 400_000, columns: 6 });
    const path = write('paused.csv', big);
    const env = { ...home('paused'), STINT_CHECKPOINT_INTERVAL_MS: '0' };
    const args = ['analyze', '-', '--workers', '1', '--chunk-size', '64KiB', '--budget', '0'];
    const running = startCli(args, { env, stdin: big.toString('utf8') });
    // Signalled after its first 64 KiB chunk: most of the file is still to read, on any machine.
    assert.ok(await progressAbove(env.STINT_HOME, 1, running.done), 'the run got going');
    running.kill('SIGINT');
    const paused = await running.done;
    const reference = await analyze([path], 'paused-reference');
    assert.equal(paused.code, 130, paused.stdout);
    const next = (JSON.parse(paused.stdout) as { data: { continue_command: string } }).data.continue_command;
    assert.match(next, /< \S+\/stdin$/, 'the continuation reads the kept spool');
    const resumed = await runShell(next, env);
    assert.equal(resumed.code, 0, resumed.stdout);
    const envelope = JSON.parse(resumed.stdout) as { data: Record<string, unknown>; warnings: { code: string }[] };
    assert.deepEqual(analysisWithoutExtras(entryOf(envelope.data).a), analysisWithoutExtras(reference.entry.a));
    assert.deepEqual(envelope.warnings.map((w) => w.code), [], 'resumed, not started over');
  });
});

/** Waits until the only job under `stateDir` reports progress.done above `above`; false if the run ends first. */
async function progressAbove(stateDir: string, above: number, ended: Promise<unknown>): Promise<boolean> {
  let over = false;
  void ended.then(() => (over = true));
  for (;;) {
    if (over) return false;
    const jobs = existsSync(`${stateDir}/jobs`) ? readdirSync(`${stateDir}/jobs`) : [];
    for (const job of jobs) {
      try {
        const status = JSON.parse(readFileSync(`${stateDir}/jobs/${job}/status.json`, 'utf8')) as { progress?: { done: number } };
        if ((status.progress?.done ?? 0) > above) return true;
      } catch {
        // not written yet, or being replaced: look again
      }
    }
    await delay(10);
  }
}

describe('stint analyze: a gzip file killed mid-way', () => {
  test('kill -9 inside a compressed file, then the identical call: the uninterrupted answer', async () => {
    const big = generateCsv(77, { rows: 500_000, columns: 8, newlines: 0.05, crlf: true });
    const path = write('kill9.csv.gz', gzipSync(big, { level: 1 }));
    const args = ['analyze', path, '--workers', '1', '--chunk-size', '64KiB', '--budget', '0'];
    const reference = await runJson(args, { env: home('kill9-reference') });
    assert.equal(reference.run.code, 0);
    const total = (reference.envelope.data!['established'] as Entry[])[0]!.cite['size'] as number;
    const env = { ...home('kill9'), STINT_CHECKPOINT_INTERVAL_MS: '0' };
    let kills = 0;
    let final;
    for (let attempt = 0; attempt < 10 && !final; attempt++) {
      const running = startCli(args, { env });
      if (kills < 2 && (await progressAbove(env.STINT_HOME, total * (0.2 + 0.2 * kills), running.done))) {
        running.kill('SIGKILL');
        const killed = await running.done;
        if (killed.signal === 'SIGKILL') {
          kills++;
          assert.ok(readdirSync(`${env.STINT_HOME}/checkpoints`).length > 0, 'a checkpoint was left');
          continue;
        }
        final = killed;
        continue;
      }
      final = await running.done;
    }
    assert.ok(kills >= 1, `killed ${kills} times`);
    assert.ok(final, 'the work finished');
    assert.equal(final.code, 0, final.stdout);
    const resumed = JSON.parse(final.stdout) as { data: unknown; warnings: { code: string }[] };
    assert.deepEqual(resumed.warnings.map((w) => w.code), [], 'resumed, not started over');
    assertSameAnswer(resumed.data, reference.envelope.data, 'resumed after kill -9s: the uninterrupted answer');
    assert.deepEqual(readdirSync(`${env.STINT_HOME}/checkpoints`), [], 'a completed run leaves no checkpoint');
  });
});

describe('stint analyze: the header', () => {
  test('invalid UTF-8 in the header is warned as a row\'s is, its line listed', async () => {
    const path = write('bad-header.csv', Buffer.concat([Buffer.from('id,na'), Buffer.from([0xff]), Buffer.from('me\n1,x\n2,'), Buffer.from([0xfe]), Buffer.from('\n')]));
    const { entry, envelope } = await analyze([path], 'bad-header');
    assert.deepEqual(entry.a.columns.map((c) => c.name), ['id', 'na\ufffdme']);
    const warning = envelope.warnings.find((w) => w.code === 'INVALID_UTF8_REPLACED');
    assert.ok(warning, 'the header\'s bad bytes are warned');
    assert.deepEqual(warning.context, { path, count: 2, lines: [1, 3] });
    assert.match(warning.message, /the header among them/);
  });

  test('a malformed header names its reason once, with its line', async () => {
    const cases = [
      ['a,"b\n1,2\n', 'a quoted field is not closed'],
      ['a,"b"c\n1,2\n', 'characters follow a closing quote'],
      ['a,b"c\n1,2\n', 'a quote inside an unquoted field'],
    ] as const;
    for (const [k, [text, reason]] of cases.entries()) {
      const { run, envelope } = await runJson(['analyze', write(`malformed-${k}.csv`, text)], { env: home(`malformed-${k}`) });
      assert.equal(run.code, 4);
      assert.equal(envelope.error!.code, 'MALFORMED_CSV');
      assert.ok(envelope.error!.message.includes(reason), envelope.error!.message);
      assert.equal(envelope.error!.message.split('(line 1)').length, 2, `the line is named once: ${envelope.error!.message}`);
    }
  });
});

describe('stint analyze and import: files of another format', () => {
  const parquet = Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(64), Buffer.from([4, 0, 0, 0]), Buffer.from('PAR1')]);
  const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26)]);
  const files = [
    ['rows.ndjson', '{"id":1,"name":"a"}\n{"id":2,"name":"b"}\n', 'ndjson', /is NDJSON/],
    ['rows.jsonl', '{"id":1}\n\n{"id":2}\n', 'ndjson', /is NDJSON/],
    ['rows.json', '[{"id":1},{"id":2}]', 'json', /is JSON,/],
    ['pretty.json', '[\n  {"id": 1},\n  {"id": 2}\n]\n', 'json', /is JSON,/],
    ['no-extension', '{"id":1,"name":"a"}\n', 'json', /is JSON,/],
    ['rows.parquet', parquet, 'parquet', /is a Parquet file/],
    ['book.xlsx', zip, 'zip', /is a ZIP archive/],
  ] as const;

  test('each is named as what it is, NOT_CSV (exit 4) with what to do, by analyze and by import', async () => {
    for (const [name, bytes, format, said] of files) {
      const path = write(name, bytes);
      for (const args of [['analyze', path], ['import', path, '--into', world.path(`${name}.db`)]]) {
        const { run, envelope } = await runJson([...args, '--budget', '0'], { env: home(`format-${name}`) });
        assert.equal(run.code, 4, `${args[0]} ${name}: ${run.stdout}`);
        assert.equal(envelope.error!.code, 'NOT_CSV');
        assert.match(envelope.error!.message, said, envelope.error!.message);
        const fix = format === 'zip' ? /save the workbook's sheet as CSV/ : /duckdb -c "COPY \(FROM '.+'\) TO 'out\.csv'"/;
        assert.match(envelope.error!.fix_required ?? '', fix, `${args[0]} ${name}`);
        if (args[0] === 'analyze') {
          const gap = (envelope.data!['unresolved'] as { context?: { format?: string } }[])[0]!;
          assert.equal(gap.context?.format, format, name);
        }
      }
    }
  });

  test('a CSV whose header starts with { or [ is still CSV', async () => {
    for (const [k, text] of ['{id},[name]\n1,a\n', '[id],name\n1,a\n2,b\n'].entries()) {
      const { entry } = await analyze([write(`braces-${k}.csv`, text)], `braces-${k}`);
      assert.equal(entry.a.columns.length, 2, text);
    }
  });
});

describe('stint analyze --columns', () => {
  test('shows only the named columns, in the header\'s order', async () => {
    const path = write('cols.csv', 'id,name,score\n1,a,2.5\n2,b,3.5\n');
    const { entry } = await analyze([path, '--columns', 'score,id'], 'columns');
    assert.deepEqual(entry.a.columns.map((c) => c.name), ['id', 'score']);
    assert.equal(entry.a.rows, 2);
    assert.deepEqual(withoutExtras(entry.a.columns[1]!), { name: 'score', type: 'number', count: 2, nulls: 0, min: 2.5, max: 3.5, sum: 6, mean: 3,
      min_exact: '2.5', max_exact: '3.5', sum_exact: '6' });
  });

  test('an unknown name is an argument error that suggests the closest name', async () => {
    const path = write('cols-bad.csv', 'id,name,score\n1,a,2.5\n');
    const { run, envelope } = await runJson(['analyze', path, '--columns', 'id,scor'], { env: home('columns-bad') });
    assert.equal(run.code, 2, run.stdout);
    assert.equal(envelope.error!.code, 'COLUMN_NOT_FOUND');
    assert.match(envelope.error!.message, /scor/);
    assert.equal(envelope.error!.suggestion, 'did you mean score?');
    const none = await runJson(['analyze', path, '--columns', ' , '], { env: home('columns-none') });
    assert.equal(none.run.code, 2, none.run.stdout);
    assert.equal(none.envelope.error!.code, 'ARG_ERROR');
  });

  test('in text an unknown name is said once, with its suggestion, and the file named as not analyzed', async () => {
    const path = write('cols-text.csv', 'id,name,score\n1,a,2.5\n');
    const run = await runCli(['analyze', path, '--columns', 'scor', '--format', 'text'], { env: home('columns-text') });
    assert.equal(run.code, 2, run.stdout);
    assert.equal(run.stdout, `${path}: not analyzed\ncoverage: none\n`);
    assert.equal(run.stderr.split('--columns names scor').length, 2, run.stderr);
    assert.match(run.stderr, /COLUMN_NOT_FOUND.*\n.*did you mean score\?/);
  });
});

/** Records of a CSV text as csv-parse reads them (for respelling a table with another delimiter). */
function analyzeRecords(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let value = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { value += '"'; i++; }
      else if (c === '"') quoted = false;
      else value += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { fields.push(value); value = ''; }
    else if (c === '\n') { fields.push(value); records.push(fields); fields = []; value = ''; }
    else if (c !== '\r') value += c;
  }
  return records;
}

