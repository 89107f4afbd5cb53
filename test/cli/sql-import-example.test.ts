// The guide's SQL importer (docs/examples/sql-import), built, run as its users run it: into a real
// embedded Postgres (PGlite) on disk, killed with SIGKILL at random points, and continued.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cleanEnv, envelopeOf, runJson, runShell, type CliRun } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { random } from '../helpers/csv-generator.js';

const PROGRAM = join(REPO_ROOT, 'build', 'docs', 'examples', 'sql-import', 'sqlimport.js');
const ROWS = 40_000;
const CHUNK_BYTES = 16 * 1024;
const KILLS = 10;
const HEARTBEAT = /\] sqlimport import: .* \[(\d+)\/(\d+) bytes\]/;

const world = tempWorld('sql-import');
let homes = 0;
const freshEnv = (extra: Record<string, string> = {}) => ({ SQLIMPORT_HOME: world.path(`home-${++homes}`), ...extra });

/** id,name,amount rows; names vary in length so chunks cut rows at varied points. */
function writeCsv(path: string, seed: number): string[][] {
  const rnd = random(seed);
  const rows: string[][] = [];
  for (let id = 1; id <= ROWS; id++) {
    const name = `n${Math.floor(rnd() * 36 ** 6).toString(36)}`.repeat(1 + Math.floor(rnd() * 3));
    rows.push([String(id), name, (Math.floor(rnd() * 1_000_000) / 100).toFixed(2)]);
  }
  writeFileSync(path, ['id,name,amount', ...rows.map((r) => r.join(','))].join('\n') + '\n');
  return rows;
}

/** What the table holds, read once every process that wrote it has ended (a PGlite folder has one user at a time). */
async function tableOf(dir: string): Promise<{ rows: string[][]; distinct: number; watermarks: number }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dir);
  try {
    const all = await db.query<{ id: number; name: string; amount: string }>(
      'select id, name, amount::text as amount from rows order by id',
    );
    const distinct = await db.query<{ n: number }>('select count(distinct id)::int as n from rows');
    const marks = await db.query<{ n: number }>('select count(*)::int as n from stint_sink_marks');
    return {
      rows: all.rows.map((r) => [String(r.id), r.name, r.amount]),
      distinct: distinct.rows[0]!.n,
      watermarks: marks.rows[0]!.n,
    };
  } finally {
    await db.close();
  }
}

/** The program running, watched through its heartbeat: `reach(n)` resolves once its committed bytes reach n. */
function start(args: readonly string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [PROGRAM, ...args], { env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let committed = -1;
  let total = Infinity;
  const waiters: { bytes: number; resolve: (reached: boolean) => void }[] = [];
  const settle = (ended: boolean) => {
    for (const waiter of [...waiters]) {
      if (!ended && committed < waiter.bytes) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(!ended);
    }
  };
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
    for (const m of c.matchAll(new RegExp(HEARTBEAT, 'g'))) [committed, total] = [Number(m[1]), Number(m[2])];
    settle(false);
  });
  child.stdin.end();
  const guard = setTimeout(() => child.kill('SIGKILL'), 300_000);
  const done = new Promise<CliRun>((resolve) => child.on('close', (code, signal) => {
    clearTimeout(guard);
    settle(true);
    resolve({ code, signal, stdout, stderr, program: PROGRAM, env: cleanEnv(env) });
  }));
  return {
    done,
    total: () => total,
    committed: () => committed,
    /** True once the heartbeat shows `bytes` committed; false if the process ended first. */
    reach: (bytes: number) => new Promise<boolean>((resolve) => {
      waiters.push({ bytes, resolve });
      settle(false);
    }),
    kill: () => child.kill('SIGKILL'),
  };
}

/** Until `path` exists or the process ends (a fact, polled; the process's end is the guard). */
async function appears(path: string, ended: () => boolean): Promise<boolean> {
  while (!existsSync(path)) {
    if (ended()) return false;
    await sleep(5);
  }
  return true;
}

test('kill -9 at random points, each time the identical command again: every row exactly once', async (t) => {
  const seed = Number(process.env['SQL_IMPORT_SEED'] ?? Math.floor(Math.random() * 1e9));
  t.diagnostic(`seed ${seed} (rerun with SQL_IMPORT_SEED=${seed})`);
  const rnd = random(seed);
  const csv = world.path('rows.csv');
  const expected = writeCsv(csv, seed);
  const into = world.path('kill9-db');
  const env = freshEnv();
  const args = ['import', csv, '--into', into, '--chunk-size', String(CHUNK_BYTES), '--heartbeat-ms', '10'];
  args.push('--budget', '0');
  let kills = 0;
  let final: CliRun | undefined;
  for (let attempt = 0; attempt < 80 && !final; attempt++) {
    const running = start(args, env);
    let ended = false;
    void running.done.then(() => (ended = true));
    if (kills === 0) {
      // The first kill lands while the database folder is being created (beside its final name).
      if (await appears(`${into}.new`, () => ended)) running.kill();
    } else if (kills < KILLS) {
      // Anywhere in the next two chunks after this run's first commit (the file has about 64).
      if (await running.reach(0)) {
        const target = running.committed() + Math.floor(rnd() * 2 * CHUNK_BYTES);
        if ((await running.reach(target)) && running.committed() < running.total()) running.kill();
      }
    }
    const run = await running.done;
    if (run.signal === 'SIGKILL') kills++;
    else final = run;
  }
  t.diagnostic(`${kills} kills, ${ROWS} rows`);
  assert.equal(kills, KILLS, `killed ${kills} times`);
  assert.equal(final!.code, 0, final!.stdout + final!.stderr);
  assert.deepEqual(envelopeOf(final!).data, { imported: ROWS });
  const table = await tableOf(into);
  assert.equal(table.rows.length, ROWS, 'as many rows as the file has');
  assert.equal(table.distinct, ROWS, 'no id twice');
  assert.equal(table.watermarks, 1, "one watermark: this run's");
  assert.deepEqual(table.rows, expected, 'the table equals the file');
});

test('a budget pauses with 14; following continue_command ends with every row once', async () => {
  const csv = world.path('budget.csv');
  const expected = writeCsv(csv, 11);
  const into = world.path('budget-db');
  const home = world.path(`home-${++homes}`);
  // A call that answers before its first commit (opening the database took the whole budget) moved nothing:
  // the next one gets twice the budget, so the loop ends on any machine.
  let budget = 100;
  const call = (line: string) =>
    runShell(line, { SQLIMPORT_HOME: home, AGENT_CALL_BUDGET_MS: String(budget) }, 300_000);
  const first = `${process.execPath} ${PROGRAM} import ${csv} --into ${into} --chunk-size 128KiB`;
  let envelope = envelopeOf(await call(first));
  let pauses = 0;
  let done = 0;
  while (envelope.meta.exit_code === 14 && pauses < 100) {
    pauses++;
    const data = envelope.data as { continue_command: string; progress: { done: number } };
    if (data.progress.done <= done) budget *= 2;
    done = Math.max(done, data.progress.done);
    envelope = envelopeOf(await call(data.continue_command));
  }
  assert.ok(pauses >= 1, 'the budget paused it at least once');
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope));
  assert.deepEqual(envelope.data, { imported: ROWS });
  const table = await tableOf(into);
  assert.equal(table.distinct, ROWS);
  assert.deepEqual(table.rows, expected);
});

test('a bad row answers the program\'s own code, BAD_ROW, with its declared exit and line; the rows before it stay', async () => {
  const csv = world.path('bad-row.csv');
  const rows = Array.from({ length: 3000 }, (_, k) => `${k + 1},name${k},${k}.50`);
  rows[2499] = 'x2500,broken,1.00'; // line 2501 of the file (the header is line 1)
  writeFileSync(csv, ['id,name,amount', ...rows].join('\n') + '\n');
  const into = world.path('bad-row-db');
  const { run, envelope } = await runJson(['import', csv, '--into', into, '--chunk-size', '8KiB'], {
    program: PROGRAM, env: freshEnv({ AGENT_CALL_BUDGET_MS: '0' }),
  });
  assert.equal(run.code, 4, run.stdout + run.stderr);
  assert.equal(envelope.error?.code, 'BAD_ROW');
  assert.equal(envelope.error?.retryable, false);
  assert.equal(envelope.error?.context?.['line'], 2501);
  const table = await tableOf(into);
  assert.ok(table.rows.length < 2500, `only rows before the bad line are committed (${table.rows.length})`);
  assert.deepEqual(table.rows, rows.slice(0, table.rows.length).map((r) => r.split(',')));
});
