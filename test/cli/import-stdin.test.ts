// `stint import -` reads standard input: piped whole it imports what the file imports; paused by its budget, its
// continue_command reads the kept spool and ends with the same table; a repeat of the same bytes writes nothing.
// Waits on facts (each call's answer); the loop is bounded by a count of calls, not by a clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { envelopeOf, runJson, runShell } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('import-stdin');
/** A guard against a loop that never ends: every call is expected to move the work. */
const MAX_CALLS = 400;

/** Quoted fields with commas, CRLF line ends: about 1.3 MB, many 16 KiB chunks. */
const text = 'id,name,qty\r\n'
  + Array.from({ length: 40_000 }, (_, k) => `${k},"name ${k}, the ${k % 13}th",${(k * 7919) % 1000}\r\n`).join('');

interface ImportData {
  readonly rows_imported: number;
  readonly effect: string;
  readonly continue_command?: string;
  readonly progress?: { readonly done: number };
}

const env = (home: string) => ({ STINT_HOME: world.path(home) });

async function exported(table: string, home: string): Promise<string> {
  const output = world.path(`${home}.export.csv`);
  const { envelope } = await runJson(['export', table, '--output', output, '--budget', '0'], { env: env(home) });
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  return readFileSync(output, 'utf8');
}

test('import - from a pipe: the table the file gives; the same bytes again write nothing', async () => {
  const file = world.path('in.csv');
  writeFileSync(file, text);
  const fromFile = await runJson(['import', file, '--into', world.path('file.db'), '--budget', '0'], { env: env('a') });
  assert.equal(fromFile.envelope.meta.exit_code, 0, JSON.stringify(fromFile.envelope.error));

  const table = world.path('stdin.db');
  const args = ['import', '-', '--into', table, '--budget', '0'];
  const piped = await runJson(args, { env: env('b'), stdin: text });
  assert.equal(piped.envelope.meta.exit_code, 0, JSON.stringify(piped.envelope.error));
  assert.equal((piped.envelope.data as unknown as ImportData).rows_imported, 40_000);
  assert.equal(await exported(table, 'b'), await exported(world.path('file.db'), 'a'));

  const again = await runJson(args, { env: env('b'), stdin: text });
  assert.equal(again.envelope.meta.exit_code, 0);
  assert.equal((again.envelope.data as unknown as ImportData).effect, 'noop', 'the same bytes are not imported twice');
});

test('import - paused by its budget: continue_command reads the kept spool to the table --budget 0 gives', async () => {
  const whole = world.path('whole.db');
  const base = ['import', '-', '--chunk-size', '16KiB'];
  const first = await runJson([...base, '--into', whole, '--budget', '0'], { env: env('c'), stdin: text });
  assert.equal(first.envelope.meta.exit_code, 0, JSON.stringify(first.envelope.error));

  const table = world.path('looped.db');
  let run = (await runJson([...base, '--into', table, '--budget', '300ms'], { env: env('d'), stdin: text })).run;
  let calls = 1;
  let best = -1;
  for (; run.code === 14; calls++) {
    assert.ok(calls < MAX_CALLS, `still 14 after ${calls} calls: ${run.stdout}`);
    const data = envelopeOf(run).data as unknown as ImportData;
    assert.match(data.continue_command!, / < \S+stdin'?$/, 'the continuation reads the kept spool');
    assert.ok(data.progress!.done >= best, `progress went back: ${data.progress!.done} after ${best}`);
    best = data.progress!.done;
    run = await runShell(data.continue_command!, env('d'), 300_000);
  }
  const end = envelopeOf(run);
  assert.equal(end.meta.exit_code, 0, JSON.stringify(end.error));
  assert.equal((end.data as unknown as ImportData).rows_imported, 40_000);
  assert.equal(await exported(table, 'd'), await exported(whole, 'c'));
});
