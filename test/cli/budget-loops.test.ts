// Loops of continue_command at 100 ms budgets, as an agent with a tight budget runs them: every call moves the
// work, so the loop finishes an import, an export and an analyze, locally and through --queue (a real
// redis-server and `stint worker` processes; skipped with the reason when there is none), each ending with the
// answer the work gives with --budget 0. Waits on facts (a call's answer), never on time; loops are bounded by a
// generous count of calls, not by a clock.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Envelope } from '../../src/contract/envelope.js';
import { shellQuote } from '../../src/runtime/cli/shell-quote.js';
import { generateCsv } from '../helpers/csv-generator.js';
import { STINT_BIN } from '../helpers/paths.js';
import { redisMissing, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv, envelopeOf, runJson, runShell, type CliRun } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('budget-loops');
/** A guard against a loop that never ends, not a measure: every call is expected to move the work. */
const MAX_CALLS = 400;
const BUDGET = '100ms';
let homes = 0;
/** A state folder of its own, test mode on, and the budget a `job wait` continuation gets from the environment. */
const freshEnv = () =>
  ({ STINT_HOME: world.path(`home-${++homes}`), STINT_TEST_MODE: '1', AGENT_CALL_BUDGET_MS: '100' });

type Json = Envelope<Record<string, unknown>>;

/** A folder holding the input as `in.csv`, so that two runs name the same relative paths in their answers. */
function folderWithInput(name: string): string {
  const dir = world.path(name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(world.path('input.csv'), `${dir}/in.csv`);
  return dir;
}

/** The work with --budget 0, in `cwd`. */
async function whole(args: readonly string[], cwd: string, env: Record<string, string>): Promise<Json> {
  const { envelope } = await runJson([...args, '--budget', '0'], { cwd, env, killAfterMs: 300_000 });
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  return envelope;
}

/** The first call at a 100 ms budget, then continue_command verbatim while it answers 14; the last answer. */
async function loop(
  args: readonly string[], cwd: string, env: Record<string, string>,
): Promise<{ end: Json; calls: number }> {
  let run: CliRun = (await runJson([...args, '--budget', BUDGET], { cwd, env })).run;
  let calls = 1;
  let best = -1;
  for (; run.code === 14; calls++) {
    assert.ok(calls < MAX_CALLS, `still 14 after ${calls} calls at ${BUDGET}: ${run.stdout}`);
    const data = envelopeOf(run).data as { continue_command: string; progress: { done: number } };
    assert.ok(data.progress.done >= best, `progress went back: ${data.progress.done} after ${best}`);
    best = data.progress.done;
    run = await runShell(`cd ${shellQuote(cwd)} && ${data.continue_command}`, env, 300_000);
  }
  return { end: envelopeOf(run), calls };
}

/** The table's rows, exported whole. */
async function rowsOf(table: string, cwd: string, env: Record<string, string>): Promise<string> {
  const out = `${cwd}/rows-of-${homes}.csv`;
  await whole(['export', table, '--output', out], cwd, env);
  const text = readFileSync(out, 'utf8');
  rmSync(out);
  return text;
}

before(() => {
  // Several 64 KiB chunks, quoted fields with newlines: the loop crosses many safe points.
  writeFileSync(world.path('input.csv'), generateCsv(7, { rows: 12_000, columns: 5, newlines: 0.02 }));
});

/** The checks of one setting: local threads, or the chunks through a queue (`extra`, the call's --queue). */
function loops(label: string, extra: () => string[], skip: string | false): void {
  describe(`${label}: loops of continue_command at ${BUDGET} finish the work`, { skip }, () => {
    test('import: the same table, row for row, and the same answer as --budget 0', async () => {
      const args = ['import', 'in.csv', '--into', 't.db', '--chunk-size', '64KiB', ...extra()];
      const reference = folderWithInput(`import-whole-${label}`);
      const expected = await whole(args, reference, freshEnv());
      const looped = folderWithInput(`import-loop-${label}`);
      const env = freshEnv();
      const { end, calls } = await loop(args, looped, env);
      assert.equal(end.meta.exit_code, 0, JSON.stringify(end.error));
      assert.ok(calls > 1, 'the work took more than one call');
      assert.equal(JSON.stringify(end.data), JSON.stringify(expected.data));
      assert.equal(await rowsOf('t.db', looped, env), await rowsOf('t.db', reference, freshEnv()));
    });

    test('analyze: the whole data, byte for byte as JSON', async () => {
      const args = ['analyze', 'in.csv', '--chunk-size', '64KiB', ...extra()];
      const dir = folderWithInput(`analyze-${label}`);
      const expected = await whole(args, dir, freshEnv());
      const { end, calls } = await loop(args, dir, freshEnv());
      assert.equal(end.meta.exit_code, 0, JSON.stringify(end.error));
      assert.ok(calls > 1, 'the work took more than one call');
      assert.equal(JSON.stringify(end.data), JSON.stringify(expected.data));
    });
  });
}

describe('export', () => {
  test(`loops of continue_command at ${BUDGET} finish an export: the same file and answer as --budget 0`, async () => {
    const dir = folderWithInput('export');
    const table = freshEnv();
    await whole(['import', 'in.csv', '--into', 't.db'], dir, table);
    const args = ['export', 't.db', '--output', 'out.csv'];
    // The same output path in the same folder, each run with a state folder of its own (no shared job).
    const expected = await whole(args, dir, freshEnv());
    const bytes = readFileSync(`${dir}/out.csv`, 'utf8');
    rmSync(`${dir}/out.csv`);
    const { end, calls } = await loop(args, dir, freshEnv());
    assert.equal(end.meta.exit_code, 0, JSON.stringify(end.error));
    assert.ok(calls > 1, 'the work took more than one call');
    // The loop's last answer is the run's own (never a replay of it marked noop), as the work gives it at --budget 0.
    assert.equal(end.meta['idempotency_hit'], undefined, 'the last answer is the run\'s own, not a replay');
    assert.equal(JSON.stringify(end.data), JSON.stringify(expected.data));
    assert.equal(readFileSync(`${dir}/out.csv`, 'utf8'), bytes);
  });
});

test('a continuation given a larger --budget keeps it: its continue_command names the budget it was given', async () => {
  const dir = world.path('larger');
  mkdirSync(dir, { recursive: true });
  // Thousands of synced commits: no machine finishes this in one call of 300 ms.
  writeFileSync(`${dir}/in.csv`, generateCsv(3, { rows: 100_000, columns: 5, newlines: 0 }));
  const env = freshEnv();
  const args = ['import', 'in.csv', '--into', 't.db', '--chunk-size', '4KiB'];
  const first = envelopeOf((await runJson([...args, '--budget', BUDGET], { cwd: dir, env })).run);
  assert.equal(first.meta.exit_code, 14);
  const line = (first.data as { continue_command: string }).continue_command;
  assert.match(line, /--budget 100ms/);
  const larger = line.replace('--budget 100ms', '--budget 300ms');
  const next = envelopeOf(await runShell(`cd ${shellQuote(dir)} && ${larger}`, env));
  assert.equal(next.meta.exit_code, 14);
  assert.equal(next.meta['budget_ms'], 300);
  assert.equal((next.data as { continue_command: string }).continue_command, larger);
});

loops('local', () => [], false);

const missing = redisMissing();
let redis: RedisServer | undefined;
const workers: ChildProcess[] = [];
before(async () => {
  if (missing) return;
  redis = await startRedis();
  for (let i = 0; i < 2; i++) {
    const args = [STINT_BIN, 'worker', '--queue', redis.url, '--concurrency', '1', '--lock-duration', '2s'];
    workers.push(spawn(process.execPath, args, { env: cleanEnv({}), stdio: 'ignore' }));
  }
});
after(async () => {
  const ends = workers.filter((worker) => worker.exitCode === null && worker.signalCode === null)
    .map((worker) => new Promise((resolve) => worker.once('close', resolve)));
  for (const worker of workers) worker.kill('SIGTERM');
  await Promise.all(ends);
  await redis?.stop();
});
loops('through --queue', () => ['--queue', redis!.url], missing ? `no redis-server: ${missing}` : false);
