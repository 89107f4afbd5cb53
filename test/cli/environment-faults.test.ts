// Faults of the machine around a call: a full disk, a state folder that
// refuses writes, garbled stored state, an input cut short, deleted or
// growing mid-run. Each ends in a coded answer, nothing committed is lost,
// never a stack trace or a hang.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  appendFileSync, chmodSync, chownSync, closeSync, lchownSync, mkdirSync, openSync, readdirSync, rmSync, statSync, symlinkSync,
  truncateSync, writeFileSync, writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { Level } from 'level';
import { envelopeOf, runJson, startCli } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';
import { csvFileRecords, tableRecords } from '../helpers/table-rows.js';
import { generateCsv } from '../helpers/csv-generator.js';
import { STINT_BIN } from '../helpers/paths.js';
import { mountTmpfs, remount, tmpfsMissing, unmount } from '../helpers/tmpfs.js';
import { typedCsv } from '../helpers/typed-csv.js';
import { assertTableEquals } from '../helpers/sqlite-table.js';
import { assertDuckDbTableEquals } from '../helpers/duckdb-table.js';

const world = tempWorld('env-faults');
let homes = 0;
const freshHome = (root = world.dir) => ({ STINT_HOME: join(root, `home-${++homes}`), STINT_TEST_MODE: '1' });
const records = csvFileRecords;
const HEARTBEAT = /\] stint (?:import|analyze): .* \[([1-9]\d*)\//;

const exported = (db: string, env: Record<string, string>) => tableRecords(db, world.path(`export-${++homes}.csv`), env);

let mounts: string[] = [];
/** The full-disk and read-only tests need a tmpfs of their own; where none can be mounted they say so and skip. */
const NO_MOUNT = tmpfsMissing(world.dir);
let input: string;
let expected: string[][];
before(() => {
  input = world.path('rows.csv');
  writeFileSync(input, generateCsv(11, { rows: 120_000, columns: 5, newlines: 0.02 }));
  expected = records(input);
});
after(() => {
  for (const dir of mounts.reverse()) unmount(dir);
  mounts = [];
});

describe('a full disk', () => {
  test('under the table: NO_SPACE (12, retryable), and the same call completes exactly once when there is room', { skip: NO_MOUNT }, async () => {
    const disk = world.path('table-disk');
    assert.ok(mountTmpfs(disk, '3m'));
    mounts.push(disk);
    const env = freshHome();
    const args = ['import', input, '--into', join(disk, 't.db'), '--chunk-size', '64KiB', '--budget', '0'];
    const full = await runJson(args, { env });
    assert.equal(full.run.code, 12, full.run.stdout);
    assert.equal(full.envelope.error!.code, 'NO_SPACE');
    assert.equal(full.envelope.error!.retryable, true);
    remount(disk, 'size=64m');
    const again = await runJson(args, { env });
    assert.equal(again.run.code, 0, again.run.stdout);
    assert.deepEqual(await exported(join(disk, 't.db'), env), expected);
  });

  test('under the state folder: NO_SPACE (12), and the same call succeeds when there is room', { skip: NO_MOUNT }, async () => {
    const disk = world.path('state-disk');
    assert.ok(mountTmpfs(disk, '16k'));
    mounts.push(disk);
    const env = freshHome(disk);
    const full = await runJson(['analyze', input, '--budget', '0'], { env });
    assert.equal(full.run.code, 12, full.run.stdout);
    assert.equal(full.envelope.error!.code, 'NO_SPACE');
    remount(disk, 'size=16m');
    const again = await runJson(['analyze', input, '--budget', '0'], { env });
    assert.equal(again.run.code, 0, again.run.stdout);
    const clean = await runJson(['analyze', input, '--budget', '0'], { env: freshHome() });
    assert.deepEqual(again.envelope.data, clean.envelope.data);
  });
});

describe('a full disk under a database target', () => {
  const TYPED_ROWS = 120_000;
  for (const kind of ['sqlite', 'duckdb'] as const) {
    test(`${kind}: NO_SPACE (12, retryable); the same call completes exactly once when there is room`,
      { skip: NO_MOUNT }, async () => {
        const file = world.path(`typed-${kind}.csv`);
        writeFileSync(file, typedCsv(8, TYPED_ROWS));
        const disk = world.path(`${kind}-disk`);
        assert.ok(mountTmpfs(disk, '3m'));
        mounts.push(disk);
        const env = freshHome();
        const db = join(disk, `t.${kind}`);
        const args = ['import', file, '--into', `${kind}:${db}`, '--table', 'typed', '--chunk-size', '64KiB',
          '--budget', '0'];
        const full = await runJson(args, { env });
        assert.equal(full.run.code, 12, full.run.stdout);
        assert.equal(full.envelope.error!.code, 'NO_SPACE');
        assert.equal(full.envelope.error!.retryable, true);
        remount(disk, 'size=256m');
        const again = await runJson(args, { env });
        assert.equal(again.run.code, 0, again.run.stdout);
        if (kind === 'sqlite') assertTableEquals(db, 'typed', records(file));
        else await assertDuckDbTableEquals(db, 'typed', records(file), 'id');
      });
  }
});

describe('a full disk under an export', () => {
  test('NO_SPACE (12) leaves no partial file behind, so the next export there succeeds once there is room', { skip: NO_MOUNT }, async () => {
    const env = freshHome();
    const source = world.path('export-source.csv');
    writeFileSync(source, generateCsv(17, { rows: 20_000, columns: 4 }));
    const db = world.path('export-source.db');
    assert.equal((await runJson(['import', source, '--into', db, '--budget', '0'], { env })).run.code, 0);
    const disk = world.path('export-disk');
    assert.ok(mountTmpfs(disk, '64k'));
    mounts.push(disk);
    const args = ['export', db, '--output', join(disk, 'out.csv'), '--budget', '0'];
    const full = await runJson(args, { env });
    assert.equal(full.run.code, 12, full.run.stdout);
    assert.equal(full.envelope.error!.code, 'NO_SPACE');
    assert.deepEqual(readdirSync(disk), [], 'neither the target nor a partial file');
    remount(disk, 'size=16m');
    const again = await runJson(args, { env });
    assert.equal(again.run.code, 0, again.run.stdout);
    assert.deepEqual(records(join(disk, 'out.csv')), records(source));
    assert.deepEqual(readdirSync(disk), ['out.csv']);
  });
});

describe('a state folder that refuses writes', () => {
  test('read-only: STATE_DIR_UNUSABLE (4), naming the folder', { skip: NO_MOUNT }, async () => {
    const disk = world.path('ro-disk');
    assert.ok(mountTmpfs(disk, '1m'));
    mounts.push(disk);
    const env = freshHome(disk);
    assert.equal((await runJson(['analyze', input, '--budget', '0'], { env })).run.code, 0);
    remount(disk, 'ro');
    const refused = await runJson(['analyze', input, '--budget', '0'], { env });
    assert.equal(refused.run.code, 4, refused.run.stdout);
    assert.equal(refused.envelope.error!.code, 'STATE_DIR_UNUSABLE');
    assert.equal((refused.envelope.error!.context as { path: string }).path, env.STINT_HOME);
  });

  test('a path through a regular file: STATE_DIR_UNUSABLE (4)', async () => {
    writeFileSync(world.path('plain-file'), '');
    const env = { STINT_HOME: world.path('plain-file', 'home') };
    const refused = await runJson(['import', input, '--into', world.path('never.db'), '--budget', '0'], { env });
    assert.equal(refused.run.code, 4, refused.run.stdout);
    assert.equal(refused.envelope.error!.code, 'STATE_DIR_UNUSABLE');
  });
});

describe('garbled stored state', () => {
  test("a framework checkpoint garbled after kill -9: discarded with CHECKPOINT_DISCARDED, the result is right", async () => {
    const env = freshHome();
    const big = world.path('garble.csv');
    writeFileSync(big, generateCsv(12, { rows: 400_000, columns: 4 }));
    const args = ['analyze', big, '--budget', '0', '--workers', '1', '--chunk-size', '64KiB'];
    const running = startCli([...args, '--heartbeat-ms', '10'], { env: { ...env, STINT_CHECKPOINT_INTERVAL_MS: '0' } });
    assert.ok(await running.stderrLine(HEARTBEAT));
    running.kill('SIGKILL');
    await running.done;
    const checkpoints = join(env.STINT_HOME, 'checkpoints');
    for (const key of readdirSync(checkpoints)) {
      for (const name of readdirSync(join(checkpoints, key))) {
        const file = join(checkpoints, key, name);
        if (statSync(file).isFile() && name !== 'LOCK') writeFileSync(file, 'garbage, not LevelDB');
      }
    }
    const again = await runJson(args, { env });
    assert.equal(again.run.code, 0, again.run.stdout);
    assert.ok(again.envelope.warnings.some((w) => w.code === 'CHECKPOINT_DISCARDED'), JSON.stringify(again.envelope.warnings));
    const clean = await runJson(args, { env: freshHome() });
    assert.deepEqual(again.envelope.data, clean.envelope.data);
  });

  test("an import's record garbled in its table: TABLE_UNREADABLE (4), nothing imported twice", async () => {
    const env = freshHome();
    const db = world.path('garbled-record.db');
    const args = ['import', input, '--into', db, '--idempotency-key', 'g'];
    assert.equal((await runJson(args, { env })).run.code, 0);
    const table = new Level<string, string>(db);
    await table.put('run:g', 'not msgpack \u00c1\u00c1');
    await table.close();
    const again = await runJson(args, { env });
    assert.equal(again.run.code, 4, again.run.stdout);
    assert.equal(again.envelope.error!.code, 'TABLE_UNREADABLE');
    assert.deepEqual(await exported(db, env), expected);
  });
});

describe('an input that changes mid-run', () => {
  test('cut short during analyze: INPUT_TRUNCATED (4), not a hang', async () => {
    const file = world.path('shrinking.csv');
    writeFileSync(file, generateCsv(13, { rows: 400_000, columns: 4 }));
    const running = startCli(['analyze', file, '--budget', '0', '--workers', '1', '--chunk-size', '64KiB', '--heartbeat-ms', '10'], { env: freshHome() });
    assert.ok(await running.stderrLine(HEARTBEAT));
    truncateSync(file, 100);
    const run = await running.done;
    assert.equal(run.code, 4, run.stdout);
    assert.equal(envelopeOf(run).error!.code, 'INPUT_TRUNCATED');
  });

  test('cut short during import: INPUT_TRUNCATED (4); restored, the same call completes exactly once', async () => {
    const env = freshHome();
    const file = world.path('import-shrinking.csv');
    const original = generateCsv(14, { rows: 200_000, columns: 4 });
    writeFileSync(file, original);
    const db = world.path('shrinking.db');
    const args = ['import', file, '--into', db, '--chunk-size', '64KiB', '--budget', '0'];
    const running = startCli([...args, '--heartbeat-ms', '10'], { env });
    assert.ok(await running.stderrLine(HEARTBEAT));
    truncateSync(file, 100);
    const run = await running.done;
    assert.equal(run.code, 4, run.stdout);
    assert.equal(envelopeOf(run).error!.code, 'INPUT_TRUNCATED');
    writeFileSync(file, original);
    const again = await runJson(args, { env });
    assert.equal(again.run.code, 0, again.run.stdout);
    assert.deepEqual(await exported(db, env), records(file));
  });

  test('deleted during import: the run answers with a code; restored, the same call completes exactly once', async () => {
    const env = freshHome();
    const file = world.path('deleted.csv');
    const original = generateCsv(15, { rows: 200_000, columns: 4 });
    writeFileSync(file, original);
    const db = world.path('deleted.db');
    const args = ['import', file, '--into', db, '--chunk-size', '64KiB', '--budget', '0'];
    const running = startCli([...args, '--heartbeat-ms', '10'], { env });
    assert.ok(await running.stderrLine(HEARTBEAT));
    rmSync(file);
    const run = await running.done;
    // The open file keeps its bytes (Linux), so the run may finish; a worker that opens it anew cannot.
    assert.ok([0, 7].includes(run.code!), run.stdout);
    assert.ok(run.code === 0 || envelopeOf(run).error!.code === 'FILE_UNREADABLE', run.stdout);
    writeFileSync(file, original);
    const again = await runJson(args, { env });
    assert.equal(again.run.code, 0, again.run.stdout);
    assert.deepEqual(await exported(db, env), records(file));
  });

  test('growing during import: the run takes the rows it saw; the same call then adds only the new ones', async () => {
    const env = freshHome();
    const file = world.path('growing.csv');
    writeFileSync(file, generateCsv(16, { rows: 200_000, columns: 4 }));
    const db = world.path('growing.db');
    const args = ['import', file, '--into', db, '--chunk-size', '64KiB', '--budget', '0'];
    const running = startCli([...args, '--heartbeat-ms', '10'], { env });
    assert.ok(await running.stderrLine(HEARTBEAT));
    const width = records(file)[0]!.length;
    appendFileSync(file, Array.from({ length: 1000 }, (_, k) => `${Array(width).fill(`late${k}`).join(',')}\n`).join(''));
    const run = await running.done;
    assert.equal(run.code, 0, run.stdout);
    const again = await runJson(args, { env });
    assert.equal(again.run.code, 0, again.run.stdout);
    assert.deepEqual(await exported(db, env), records(file));
  });
});

// Every command of the manifest under every fault of its state folder: each exit is one the command declares,
// and none is GENERAL_ERROR (an environment fault is a known state, never "unknown").
describe('every command × every state-folder fault: each exit is declared in its manifest entry', () => {
  const JOB = 'analyze-0123abcd';
  const small = world.path('small.csv');
  const table = world.path('small.db');
  /** How each command is called; a command the manifest lists but this table lacks fails the test. */
  const calls: Record<string, string[]> = {
    analyze: ['analyze', small, '--budget', '0'],
    bench: ['bench', '--suite', 'checkpoint', '--size', '1MiB', '--samples', '1', '--workers', '1'],
    'bench.resume': ['bench', 'resume', '--', process.execPath, STINT_BIN, 'analyze', small],
    export: ['export', table, '--output', world.path('small-out.csv'), '--budget', '0'],
    follow: ['follow', '--', process.execPath, STINT_BIN, 'analyze', small],
    import: ['import', small, '--into', world.path('small-into.db'), '--budget', '0'],
    'job.cancel': ['job', 'cancel', JOB, '--yes'],
    'job.list': ['job', 'list'],
    'job.logs': ['job', 'logs', JOB],
    'job.prune': ['job', 'prune', '--yes'],
    'job.status': ['job', 'status', JOB],
    'job.wait': ['job', 'wait', JOB, '--budget', '1s'],
    'job.watch': ['job', 'watch', JOB],
    manifest: ['manifest'],
    worker: ['worker', '--queue', 'redis://127.0.0.1:9'],
    'worker.list': ['worker', 'list', '--queue', 'redis://127.0.0.1:9'],
  };
  const JOB_COMMANDS = ['job.cancel', 'job.list', 'job.logs', 'job.prune', 'job.status', 'job.wait', 'job.watch'];
  let declared: Record<string, Set<number>>;

  before(async () => {
    writeFileSync(small, generateCsv(21, { rows: 50, columns: 3 }));
    const made = await runJson(['import', small, '--into', table, '--budget', '0'], { env: freshHome() });
    assert.equal(made.run.code, 0, made.run.stdout);
    const manifest = (await runJson(['manifest'], { env: freshHome() })).envelope.data as unknown as {
      commands: Record<string, { exit_codes: Record<string, unknown> }>;
      exit_codes: Record<string, unknown>;
    };
    const shared = Object.keys(manifest.exit_codes).map(Number);
    declared = Object.fromEntries(Object.entries(manifest.commands)
      .map(([id, entry]) => [id, new Set([...shared, ...Object.keys(entry.exit_codes).map(Number)])]));
  });

  test('the table of calls covers every command the manifest lists', () => {
    assert.deepEqual(Object.keys(calls).sort(), Object.keys(declared).sort());
  });

  /** Runs every command with STINT_HOME = `home`; each answer is checked, and returned for more checks. */
  async function everyCommand(fault: string, home: string) {
    const answers: Record<string, { code: number; error: string | undefined }> = {};
    for (const [id, args] of Object.entries(calls)) {
      const { run, envelope } = await runJson(args, { env: { STINT_HOME: home, STINT_TEST_MODE: '1' } });
      const code = run.code!;
      assert.ok(declared[id]!.has(code), `${fault}: ${id} exited ${code}, not in its manifest entry: ${run.stdout}`);
      assert.notEqual(code, 1, `${fault}: ${id} answered GENERAL_ERROR: ${run.stdout}`);
      answers[id] = { code, error: envelope.error?.code };
    }
    return answers;
  }

  const refusedWith = (answers: Awaited<ReturnType<typeof everyCommand>>, code: string) => {
    for (const id of JOB_COMMANDS) assert.deepEqual(answers[id], { code: 4, error: code }, id);
  };

  test('missing and uncreatable (a path through a regular file)', async () => {
    writeFileSync(world.path('matrix-file'), '');
    refusedWith(await everyCommand('uncreatable', world.path('matrix-file', 'home')), 'STATE_DIR_UNUSABLE');
  });

  test('unwritable (a read-only file system)', { skip: NO_MOUNT }, async () => {
    const disk = world.path('matrix-ro');
    assert.ok(mountTmpfs(disk, '1m'));
    mounts.push(disk);
    const home = join(disk, 'home');
    assert.equal((await runJson(['job', 'list'], { env: { STINT_HOME: home } })).run.code, 0);
    remount(disk, 'ro');
    const answers = await everyCommand('read-only', home);
    // A read-only folder can still be read (no such job: 5); the calls that must write there are refused.
    for (const id of ['analyze', 'import', 'export', 'follow']) {
      assert.deepEqual(answers[id], { code: 4, error: 'STATE_DIR_UNUSABLE' }, id);
    }
    assert.deepEqual(answers['job.status'], { code: 5, error: 'JOB_NOT_FOUND' });
  });

  test('full (no byte left under the state folder)', { skip: NO_MOUNT }, async () => {
    const disk = world.path('matrix-full');
    assert.ok(mountTmpfs(disk, '256k'));
    mounts.push(disk);
    const home = join(disk, 'home');
    assert.equal((await runJson(['job', 'list'], { env: { STINT_HOME: home } })).run.code, 0);
    fillDisk(disk);
    const answers = await everyCommand('full', home);
    assert.equal(answers['analyze']!.code, 12, 'analyze needs room for its checkpoint: NO_SPACE');
  });

  test('symlinked to a folder another user owns', async () => {
    const { link, target } = foreignLink('matrix');
    refusedWith(await everyCommand('symlinked', link), 'STATE_DIR_UNSAFE');
    assert.deepEqual(readdirSync(target), [], 'nothing written through the link');
    assert.equal(statSync(target).mode & 0o777, 0o755, 'its mode untouched');
  });
});

/** Fills the file system at `dir` to its last byte. */
function fillDisk(dir: string): void {
  const block = Buffer.alloc(4096, 1);
  const fd = openSync(join(dir, 'filler'), 'w');
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    closeSync(fd);
  }
}

/** The uid and gid of a user that is not us: `nobody`. */
const NOBODY = { uid: 65534, gid: 65534 };

/** A symlink planted by another user, to a folder of theirs (0755): what a state folder must never be. */
function foreignLink(name: string): { link: string; target: string } {
  const target = world.path(`${name}-foreign`);
  const link = world.path(`${name}-link`);
  mkdirSync(target, { mode: 0o755 });
  chmodSync(target, 0o755);
  chownSync(target, NOBODY.uid, NOBODY.gid);
  symlinkSync(target, link);
  lchownSync(link, NOBODY.uid, NOBODY.gid);
  return { link, target };
}
