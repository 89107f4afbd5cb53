// What a person at a terminal sees: the progress bar, a notice for INCOMPLETE against a labelled error, warnings
// when stdout is sent to a file, and NO_COLOR. Every command runs in a real pseudo-terminal (test/helpers/pty.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeBigCsv } from '../helpers/big-csv.js';
import { framesOf, inTerminal, STINT, visibleLines, withoutAnsi } from '../helpers/pty.js';
import { runJson } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';
import { displayWidth } from '../../src/runtime/cli/text-table.js';

const world = tempWorld('terminal');
let homes = 0;
const freshHome = (extra: Record<string, string> = {}) => ({ STINT_HOME: world.path(`home-${++homes}`), ...extra });
const COLUMNS = 60;
/** Big enough that the first progress report comes long before the end (32 MiB in 256 KiB chunks). */
const BIG_BYTES = 32 * 1024 * 1024;
const big = world.path('big.csv');
writeBigCsv(big, BIG_BYTES, 11);

/** The progress frames of `label`, as the terminal received them (each piece written after a \r). */
const barFrames = (screen: string, label: string) =>
  framesOf(withoutAnsi(screen)).filter((frame) => frame.startsWith(`${label} `));
const percentOf = (frame: string) => Number(/ (\d+)% /.exec(frame)?.[1]);

describe('the progress bar', () => {
  test('a completed analyze ends on a frame at 100 %, and no frame is wider than the terminal', async () => {
    const out = world.path('analyze.json');
    const line = `${STINT} analyze ${big} --chunk-size 256KiB --workers 1 > ${out}`;
    const run = await inTerminal(line, { env: freshHome(), columns: COLUMNS });
    assert.equal(run.code, 0, run.screen);
    const frames = barFrames(run.screen, 'stint analyze');
    // The first report (after the first chunk) draws at once and the end draws the last frame: two at least.
    assert.ok(frames.length >= 2, run.screen);
    assert.ok(percentOf(frames[0]!) < 100, `the first frame: ${frames[0]}`);
    assert.match(frames.at(-1)!, /^stint analyze \[#+\] 100% /, 'the last frame shows the whole work done');
    for (const frame of framesOf(run.screen)) {
      assert.ok(withoutAnsi(frame).length <= COLUMNS, `${JSON.stringify(frame)} is wider than ${COLUMNS} columns`);
    }
    const shown = visibleLines(run.screen).filter((text) => text.trim() !== '');
    assert.match(shown.at(-1)!, /100%/, 'what stays on the screen is the final frame');
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).meta.exit_code, 0);
  });

  test('an import has a bar with a percentage and the rows beside, ending at 100 %', async () => {
    const out = world.path('import.json');
    const line = `${STINT} import ${big} --into ${world.path('bar.db')} --chunk-size 256KiB > ${out}`;
    const run = await inTerminal(line, { env: freshHome(), columns: 100 });
    assert.equal(run.code, 0, run.screen);
    const frames = barFrames(run.screen, 'stint import');
    assert.ok(frames.length >= 2, run.screen);
    for (const frame of frames) assert.match(frame, /^stint import \[[#-]+\] \d+% [\d.]+( [KMG]iB)?\/[\d.]+ [KMG]iB /);
    assert.match(frames[0]!, / \d+ rows? /, 'the rows imported so far, beside the bytes');
    assert.equal(percentOf(frames.at(-1)!), 100);
    const rows = JSON.parse(readFileSync(out, 'utf8')).data.rows_imported as number;
    assert.ok(rows > 0);
  });

  test('a narrow terminal gets a shorter line, never a wrapped one', async () => {
    for (const columns of [40, 100]) {
      const line = `${STINT} analyze ${big} --chunk-size 256KiB --workers 1 > /dev/null`;
      const run = await inTerminal(line, { env: freshHome(), columns });
      assert.equal(run.code, 0, run.screen);
      assert.ok(barFrames(run.screen, 'stint analyze').length >= 2, run.screen);
      for (const frame of framesOf(run.screen)) assert.ok(withoutAnsi(frame).length <= columns, frame);
    }
  });
});

describe('notice and error', () => {
  test('INCOMPLETE reads as a notice with the command to continue, not as an error', async () => {
    const env = freshHome();
    const run = await inTerminal(`${STINT} analyze ${big} --budget 1ms --chunk-size 256KiB`, { env });
    assert.equal(run.code, 14, run.screen);
    const screen = withoutAnsi(run.screen);
    assert.doesNotMatch(screen, /error/i, 'no error label');
    assert.doesNotMatch(run.screen, /\u001b\[31m/, 'nothing red');
    const notice = /^stint analyze: (.*)$/m.exec(screen)?.[1];
    assert.ok(notice && /budget/.test(notice), screen);
    const continueWith = /^ {2}continue with: (.+?)\r?$/m.exec(screen)?.[1];
    assert.match(continueWith ?? '', /job wait analyze-[0-9a-f]+$/);
    assert.match(screen, /^ {2}cancel with: +.*job cancel analyze-[0-9a-f]+/m);
    // The job the notice names goes on; waiting for it ends it cleanly.
    const id = /(analyze-[0-9a-f]+)$/.exec(continueWith!)![1]!;
    const end = await runJson(['job', 'wait', id, '--budget', '0'], { env });
    assert.equal(end.run.code, 0);
  });

  test('Ctrl-C (SIGINT) reads as a notice with the command that continues, not as a red error', async () => {
    // A checkpoint after every chunk: the first comes after 256 KiB of 32 MiB, long before the end on any machine.
    const env = freshHome({ STINT_CHECKPOINT_INTERVAL_MS: '0' });
    const out = world.path('interrupted.json');
    // Interrupted once its first checkpoint is written (a fact), while the work is surely not done.
    const line = `${STINT} analyze ${big} --workers 1 --chunk-size 256KiB --budget 0 > ${out} & pid=$!; `
      + `until [ -n "$(ls ${env.STINT_HOME}/checkpoints 2>/dev/null)" ]; do sleep 0.02; done; `
      + 'kill -INT $pid; wait $pid';
    const run = await inTerminal(line, { env });
    const envelope = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(run.code, 130, run.screen);
    assert.equal(envelope.error.code, 'CANCELLED');
    const screen = withoutAnsi(run.screen);
    assert.doesNotMatch(screen, /error/i, 'no error label');
    assert.doesNotMatch(run.screen, /\u001b\[31m/, 'nothing red');
    assert.ok(screen.includes(`continue with: ${envelope.data.continue_command}`), screen);
  });

  for (const columns of [80, 200]) {
    test(`Ctrl-C while the identical call waits on its background job, at ${columns} columns: text naming how to`
      + ' wait again', async () => {
      const env = freshHome();
      const args = ['analyze', big, '--chunk-size', '256KiB', '--workers', '1'];
      const first = await runJson([...args, '--budget', '1ms'], { env });
      assert.equal(first.run.code, 14, first.run.stdout);
      const id = (first.envelope.data as { job_id: string }).job_id;
      // The job's process is held still, so it cannot end while the identical call waits on it.
      const status = () => JSON.parse(readFileSync(`${env.STINT_HOME}/jobs/${id}/status.json`, 'utf8'));
      const supervisor = status().pid as number;
      // Held once it has progress to show (a fact): the waiting call's heartbeat then has a line to say.
      while (!(status().progress?.done > 0)) await sleep(20);
      process.kill(supervisor, 'SIGSTOP');
      try {
        const err = world.path(`attached-${columns}.err`);
        // Interrupted once its first heartbeat line says it waits (a fact); stdout stays the terminal.
        const line = `${STINT} ${args.join(' ')} --heartbeat-ms 100 2> ${err} & pid=$!; `
          + `until grep -q 'stint analyze' ${err} 2>/dev/null; do sleep 0.02; done; kill -INT $pid; wait $pid`;
        const run = await inTerminal(line, { env, columns });
        assert.equal(run.code, 130, run.screen);
        assert.doesNotMatch(run.screen, /\{"ok"/, 'no raw envelope at the terminal');
        const said = readFileSync(err, 'utf8');
        assert.match(said, new RegExp(`Stopped waiting by SIGINT; job ${id} goes on in the background`));
        assert.match(said, new RegExp(`continue with: .*job wait ${id}\\r?$`, 'm'));
        assert.equal(status().state, 'running', 'the job itself goes on');
      } finally {
        process.kill(supervisor, 'SIGCONT');
      }
      const end = await runJson(['job', 'wait', id, '--budget', '0'], { env });
      assert.equal(end.run.code, 0);
    });
  }

  test('stdout sent to a file: the notice still reaches the terminal, the file holds the envelope', async () => {
    const env = freshHome();
    const out = world.path('paused.json');
    const line = `${STINT} import ${big} --into ${world.path('paused.db')} --budget 1ms --chunk-size 256KiB > ${out}`;
    const run = await inTerminal(line, { env });
    assert.equal(run.code, 14, run.screen);
    const envelope = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(envelope.error.code, 'INCOMPLETE');
    const screen = withoutAnsi(run.screen);
    assert.doesNotMatch(screen, /error/i);
    assert.ok(screen.includes(`continue with: ${envelope.data.continue_command}`), screen);
    assert.ok(screen.includes(envelope.error.message), 'the same sentence as the envelope');
  });

  test('a real error is labelled, red, and also said when stdout goes to a file', async () => {
    const seen = await inTerminal(`${STINT} analyze ${world.path('nope.csv')}`, { env: freshHome() });
    assert.equal(seen.code, 5);
    assert.match(withoutAnsi(seen.screen), /^stint: error \[FILE_NOT_FOUND, exit 5\] /m);
    assert.match(seen.screen, /\u001b\[31m/, 'an error is red at a terminal');
    const out = world.path('error.json');
    const line = `${STINT} analyze ${world.path('nope.csv')} > ${out}`;
    const redirected = await inTerminal(line, { env: freshHome() });
    assert.equal(redirected.code, 5);
    assert.match(withoutAnsi(redirected.screen), /error \[FILE_NOT_FOUND, exit 5\]/);
    assert.doesNotMatch(readFileSync(out, 'utf8'), /\u001b/, 'no ANSI on stdout');
  });

  test('warnings reach the terminal when stdout goes to a file, in words, counted right', async () => {
    const ragged = world.path('ragged.csv');
    writeFileSync(ragged, 'a,b\n1,2\n3\n4,5\n');
    const out = world.path('ragged.json');
    const run = await inTerminal(`${STINT} analyze ${ragged} > ${out}`, { env: freshHome() });
    assert.equal(run.code, 0, run.screen);
    const screen = withoutAnsi(run.screen);
    const said = /stint: warning \[RAGGED_ROWS\] .*: 1 row does not have the header's 2 fields and was left out/;
    assert.match(screen, said);
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).warnings[0].code, 'RAGGED_ROWS');
  });
});

describe('NO_COLOR', () => {
  test('removes every escape: error, warning, notice and bar', async () => {
    const ragged = world.path('ragged-plain.csv');
    writeFileSync(ragged, 'a,b\n1,2\n3\n');
    const lines = [
      `${STINT} analyze ${world.path('nope.csv')}`,
      `${STINT} analyze ${ragged} > /dev/null`,
      `${STINT} analyze ${big} --budget 1ms`,
      `${STINT} analyze ${big} --chunk-size 256KiB --workers 1 > /dev/null`,
    ];
    for (const line of lines) {
      const env = freshHome({ NO_COLOR: '1' });
      const run = await inTerminal(line, { env });
      assert.ok(run.screen.length > 0, line);
      assert.doesNotMatch(run.screen, /\u001b/, `${line}: ${JSON.stringify(run.screen)}`);
      // The notice's job goes on in the background: it ends before the test does.
      const job = /job wait (analyze-[0-9a-f]+)/.exec(run.screen)?.[1];
      assert.equal(job !== undefined, line.includes('--budget 1ms'), `${line}: a job when, and only when, its budget ran out`);
      if (job) assert.equal((await runJson(['job', 'wait', job, '--budget', '0'], { env })).run.code, 0);
    }
  });
});

describe('text tables', () => {
  test('analyze --format text fits the terminal: aligned rows when they fit, else a record at a time, nothing cut', async () => {
    const narrow = world.path('narrow.csv');
    writeFileSync(narrow, 'city,pop\n東京,14\nOslo,1\n');
    const fits = await inTerminal(`${STINT} analyze ${narrow} --format text`, { env: freshHome(), columns: 80 });
    const rows = visibleLines(withoutAnsi(fits.screen)).filter((line) => line.startsWith('  '));
    const header = rows.find((line) => line.trimStart().startsWith('column'))!;
    const city = rows.find((line) => line.trimStart().startsWith('city'))!;
    assert.equal(city.indexOf('string'), header.indexOf('type'), `columns align: ${fits.screen}`);

    const wide = world.path('wide.csv');
    const long = 'a value far longer than any column of a sixty-cell terminal could show whole, however it is laid out';
    writeFileSync(wide, `city,note\n東京,"${long}"\nOslo,"two\nlines"\n`);
    const run = await inTerminal(`${STINT} analyze ${wide} --format text`, { env: freshHome(), columns: 60 });
    assert.equal(run.code, 0, run.screen);
    const lines = visibleLines(withoutAnsi(run.screen)).filter((line) => line.length > 0);
    for (const line of lines) assert.ok(displayWidth(line) <= 60, `wider than 60 cells: ${line}`);
    assert.ok(!lines.some((line) => line.includes('…')), 'no value is cut');
    assert.ok(lines.join(' ').replace(/\s+/g, ' ').includes(long), 'the long value is shown whole, wrapped');
    assert.ok(lines.some((line) => line.includes('two\\nlines')), 'a newline inside a value is shown escaped');
    const records = lines.filter((line) => line.trim().startsWith('column: '));
    assert.deepEqual(records.map((line) => line.trim()), ['column: city', 'column: note'], `one record a column: ${run.screen}`);
    const note = lines.slice(lines.findIndex((line) => line.trim() === 'column: note')).map((line) => line.trim());
    for (const label of ['type', 'count', 'null %', 'distinct', 'most frequent (count)']) {
      assert.ok(note.some((line) => line.startsWith(`${label} `)), `${label} in the one record of note: ${run.screen}`);
    }
  });
});

describe('analyze at 80 and 200 columns', () => {
  // The file of the complaint: dates and names were cut (`2019-01-…`, `order_da…`) at 80 columns.
  const orders = world.path('orders.csv');
  const names = ['Ada Lovelace', 'Grace Hopper', 'Katherine Johnson', 'Edsger Dijkstra'];
  const lines = Array.from({ length: 400 }, (_, i) =>
    `${1000 + i},2019-01-${String(1 + (i % 28)).padStart(2, '0')},${names[i % 4]},${(i * 7.25).toFixed(2)},shipped`);
  writeFileSync(orders, `order_id,order_date,customer_name,amount,status\n${lines.join('\n')}\n`);
  for (const columns of [80, 200]) {
    test(`at ${columns} columns every line fits and every name and value is whole`, async () => {
      const run = await inTerminal(`${STINT} analyze ${orders} --format text`, { env: freshHome(), columns });
      assert.equal(run.code, 0, run.screen);
      const shown = visibleLines(withoutAnsi(run.screen)).filter((line) => line.length > 0);
      for (const line of shown) assert.ok(displayWidth(line) <= columns, `wider than ${columns} cells: ${line}`);
      assert.ok(!shown.some((line) => line.includes('…')), `no value is cut: ${run.screen}`);
      const screen = shown.join('\n');
      for (const whole of ['order_date', 'customer_name', '2019-01-01', '2019-01-28', 'Katherine Johnson', '2892.75']) {
        assert.ok(screen.includes(whole), `${whole} shown whole at ${columns} columns: ${run.screen}`);
      }
    });
  }
});

describe('help at the terminal', () => {
  const words = (text: string) => text.split(/\s+/).filter((word) => word !== '').join(' ');
  for (const columns of [80, 200]) {
    test(`help is wrapped to ${columns} columns: no line wider, no word cut or lost`, async () => {
      for (const args of [['import', '--help'], ['--help'], ['job', 'cancel', '--help']]) {
        const run = await inTerminal(`${STINT} ${args.join(' ')}`, { env: freshHome(), columns });
        assert.equal(run.code, 0, run.screen);
        const shown = visibleLines(withoutAnsi(run.screen));
        for (const text of shown) {
          const said = `${args.join(' ')}: ${JSON.stringify(text)} is wider than ${columns}`;
          assert.ok(displayWidth(text) < columns, said);
        }
        // Piped, help is as written: the same words in the same order.
        const piped = await runJson([...args, '--format', 'json'], { env: freshHome() });
        assert.ok(words(shown.join('\n')).includes(words(piped.run.stderr)), `${args.join(' ')}: ${run.screen}`);
      }
    });
  }
});
