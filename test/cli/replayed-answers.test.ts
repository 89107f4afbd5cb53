// A replayed answer is still true: a repeat of a writer's key is given the kept answer only while what it
// claims holds (the export's file, the import's rows, an author's file), and a paused run's continue_command
// continues that run, never an earlier finished one.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Level } from 'level';
import { envelopeOf, runJson, runShell, startCli } from '../helpers/run-cli.js';
import { programPath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { csvFileRecords } from '../helpers/table-rows.js';
import { generateCsv } from '../helpers/csv-generator.js';

const world = tempWorld('replayed-answers');
let homes = 0;
const freshHome = () => ({ STINT_HOME: world.path(`home-${++homes}`) });
const partialsIn = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.partial'));
type Paused = { state: string; continue_command: string };

const input = world.path('rows.csv');
const table = world.path('rows.db');
let rows: string[][];
before(async () => {
  writeFileSync(input, generateCsv(31, { rows: 200_000, columns: 4 }));
  rows = csvFileRecords(input);
  const made = await runJson(['import', input, '--into', table, '--budget', '0', '--no-sync'], { env: freshHome() });
  assert.equal(made.run.code, 0, made.run.stdout);
});

/** Stops an export at a safe point once rows move (SIGTERM, so whatever the machine's speed): 14, paused. */
async function pausedExport(output: string, env: Record<string, string>): Promise<Paused> {
  const running = startCli(['export', table, '--output', output, '--budget', '0', '--heartbeat-ms', '10'], { env });
  assert.ok(await running.stderrLine(/\] stint export: .* \[[1-9]\d*\/\d+ rows\]/), 'rows are moving');
  running.kill('SIGTERM');
  const run = await running.done;
  assert.equal(run.code, 14, run.stdout);
  return envelopeOf(run).data as unknown as Paused;
}

describe('export', () => {
  test("its file deleted, a paused export's continue_command writes a real export, not the earlier answer", async () => {
    const env = freshHome();
    const dir = world.path('deleted');
    const output = join(dir, 'd.csv');
    mkdirSync(dir);
    const first = await runJson(['export', table, '--output', output, '--budget', '0'], { env });
    assert.equal(first.run.code, 0, first.run.stdout);
    rmSync(output);
    const paused = await pausedExport(output, env);
    assert.equal(paused.state, 'paused');
    assert.match(paused.continue_command, /--idempotency-key auto-/, 'the continuation names the key');
    assert.equal(partialsIn(dir).length, 1, 'its partial file waits beside the target');

    const continued = await runShell(paused.continue_command, env);
    assert.equal(continued.code, 0, continued.stdout);
    const answer = envelopeOf(continued);
    assert.deepEqual(answer.data, first.envelope.data, 'the same answer as the first export, effect and all');
    assert.equal(answer.meta['idempotency_hit'], undefined, 'not a replay');
    assert.deepEqual(csvFileRecords(output), rows, 'the file exists and equals the table');
    assert.deepEqual(partialsIn(dir), [], 'no partial file left');
  });

  test('a repeated key whose file was changed or removed exports again; while it is untouched, it replays', async () => {
    const env = freshHome();
    const output = world.path('keyed.csv');
    const args = ['export', table, '--output', output, '--budget', '0', '--idempotency-key', 'e1'];
    const first = await runJson(args, { env });
    assert.equal(first.run.code, 0, first.run.stdout);
    const replay = await runJson(args, { env });
    assert.deepEqual(replay.envelope.data, { ...first.envelope.data, effect: 'noop' }, 'the file is untouched');
    // An edit in place that keeps the size and sets the modification time back, then an edit, then removal.
    const sameSize = () => {
      const { atime, mtime } = statSync(output);
      const text = readFileSync(output, 'utf8');
      const edited = text.replace(/[0-9]/, (digit) => String((Number(digit) + 1) % 10));
      assert.ok(edited !== text && edited.length === text.length, 'one digit changed, the size kept');
      writeFileSync(output, edited);
      utimesSync(output, atime, mtime);
    };
    for (const change of [sameSize, () => writeFileSync(output, 'edited\n'), () => rmSync(output)]) {
      change();
      const again = await runJson(args, { env });
      assert.equal(again.run.code, 0, again.run.stdout);
      assert.deepEqual(again.envelope.data, first.envelope.data, 'a new run: written again, not "noop"');
      assert.deepEqual(csvFileRecords(output), rows);
    }
  });
});

describe('import', () => {
  test("a repeated key whose rows were cleared from the table imports them again, once", async () => {
    const env = freshHome();
    const small = world.path('small.csv');
    writeFileSync(small, generateCsv(32, { rows: 500, columns: 3 }));
    const db = world.path('cleared.db');
    const args = ['import', small, '--into', db, '--budget', '0', '--idempotency-key', 'i1'];
    assert.equal((await runJson(args, { env })).run.code, 0);
    assert.equal((await runJson(args, { env })).envelope.data!['effect'], 'noop', 'the rows are there: a replay');
    const level = new Level<string, string>(db);
    for await (const key of level.keys({ gte: 'row:', lt: 'row;' })) await level.del(key);
    await level.close();
    const again = await runJson(args, { env });
    assert.equal(again.run.code, 0, again.run.stdout);
    assert.equal(again.envelope.data!['effect'], 'written', 'the claim no longer holds: a new run');
    assert.equal(again.envelope.data!['rows_imported'], 500);
    const out = world.path('cleared.csv');
    assert.equal((await runJson(['export', db, '--output', out, '--budget', '0'], { env })).run.code, 0);
    assert.deepEqual(csvFileRecords(out), csvFileRecords(small), 'each row once');
  });
});

describe("an author's writer", () => {
  const program = programPath('file-writer');
  const run = (args: string[], env: Record<string, string>) => runJson(args, { program, env });

  test('with answerHolds: a repeat whose file is gone or changed writes it again; an intact one replays', async () => {
    const env = freshHome();
    const file = world.path('saved.txt');
    const args = ['save', 'hello', '--to', file, '--idempotency-key', 's1'];
    const first = await run(args, env);
    assert.equal(first.run.code, 0, first.run.stdout);
    assert.equal((await run(args, env)).envelope.data!['effect'], 'noop');
    for (const change of [() => rmSync(file), () => writeFileSync(file, 'other')]) {
      change();
      const again = await run(args, env);
      assert.deepEqual(again.envelope.data, first.envelope.data, 'a new run, not "noop"');
      assert.equal(readFileSync(file, 'utf8'), 'hello');
    }
  });

  test('without it, the kept answer is given as it is: the framework cannot see what the effect was', async () => {
    const env = freshHome();
    const file = world.path('noted.txt');
    const args = ['note', 'hello', '--to', file, '--idempotency-key', 'n1'];
    assert.equal((await run(args, env)).run.code, 0);
    rmSync(file);
    const again = await run(args, env);
    assert.equal(again.envelope.data!['effect'], 'noop');
    assert.equal(existsSync(file), false, 'which is why a writer whose effect can vanish declares answerHolds');
  });
});
