import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeBigCsv } from '../helpers/big-csv.js';
import { REPO_ROOT, STINT_BIN } from '../helpers/paths.js';
import { runJson, runShell } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';

// docs/agents.md prints these two files (test/unit/authoring-guide.test.ts keeps
// them the same text); here they run as printed, with the built stint on PATH as `stint`.
const world = tempWorld('agent-examples');
const AGENT_LOOP = join(REPO_ROOT, 'build', 'docs', 'examples', 'agent', 'agent-loop.js');
const FOLLOW_SH = join(REPO_ROOT, 'docs', 'examples', 'agent', 'follow.sh');
const bin = world.path('bin');
mkdirSync(bin);
symlinkSync(STINT_BIN, join(bin, 'stint'));
const onPath = (extra: Record<string, string> = {}) =>
  ({ PATH: `${bin}:${process.env['PATH']}`, STINT_HOME: world.path(`home-${Math.random()}`), ...extra });
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

const big = world.path('big.csv');
writeBigCsv(big, 16 * 1024 * 1024, 7);

test('the TypeScript loop continues to the whole answer, and never calls a partial one whole', async () => {
  // --budget 1ms hands the first call off to a job: the loop must continue it.
  const env = onPath({ AGENT_CALL_BUDGET_MS: '2000' });
  const line = `stint analyze ${quote(big)} --budget 1ms --workers 1`;
  const done = await runShell(`${quote(process.execPath)} ${quote(AGENT_LOOP)} ${quote(line)}`, env);
  assert.equal(done.code, 0, done.stderr);
  assert.deepEqual(JSON.parse(done.stdout), { status: 'done', exit_code: 0, whole: true });

  const partial = `stint analyze ${quote(big)} ${quote(world.path('missing.csv'))}`;
  const some = await runShell(`${quote(process.execPath)} ${quote(AGENT_LOOP)} ${quote(partial)}`, env);
  assert.equal(some.code, 1);
  assert.deepEqual(JSON.parse(some.stdout), { status: 'done', exit_code: 3, whole: false });
});

test('the shell loop (stint follow) prints the rows and columns of the whole analysis', async () => {
  const whole = await runJson(['analyze', big, '--budget', '0'], { env: onPath() });
  const stats = (whole.envelope.data as { established: { a: { rows: number; columns: unknown[] } }[] }).established[0]!.a;
  const run = await runShell(`sh ${quote(FOLLOW_SH)} ${quote(big)}`, onPath({ AGENT_CALL_BUDGET_MS: '1000' }));
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { rows: stats.rows, columns: stats.columns.length });

  const missing = await runShell(`sh ${quote(FOLLOW_SH)} ${quote(world.path('missing.csv'))}`, onPath());
  assert.equal(missing.code, 5);
  assert.match(missing.stderr, /^failed \(5\): .*does not exist/m);
});
