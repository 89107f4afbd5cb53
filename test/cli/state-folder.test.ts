// The state folder is ours or refused, and every file in it is untrusted input. Tests run as root here (as CI
// does): "another user" is `nobody`, made the owner with chown; a test that cannot chown says so and skips.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync, chownSync, existsSync, lchownSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { runJson } from '../helpers/run-cli.js';
import { programPath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('state-folder');
const NOBODY = { uid: 65534, gid: 65534 };
const NO_CHOWN = (() => {
  const probe = world.path('chown-probe');
  writeFileSync(probe, '');
  try {
    chownSync(probe, NOBODY.uid, NOBODY.gid);
    return false;
  } catch {
    return 'cannot give a file to another user here (these tests need root, as CI has)';
  }
})();

let folders = 0;
/** A folder (0755) another user owns, so that a chmod or a write into it would show. */
function foreignFolder(): string {
  const dir = world.path(`foreign-${++folders}`);
  mkdirSync(dir);
  chmodSync(dir, 0o755);
  chownSync(dir, NOBODY.uid, NOBODY.gid);
  return dir;
}

/** What is in a folder and how it is set: a refusal leaves all three as they were. */
const snapshot = (dir: string) => {
  const stats = statSync(dir);
  return { entries: readdirSync(dir), mode: stats.mode & 0o7777, uid: stats.uid };
};

async function refused(home: string, why: RegExp) {
  const calls = [['job', 'list'], ['analyze', join(world.dir, 'in.csv'), '--budget', '0']];
  writeFileSync(join(world.dir, 'in.csv'), 'a,b\n1,2\n');
  for (const args of calls) {
    const { run, envelope } = await runJson(args, { env: { STINT_HOME: home } });
    assert.equal(run.code, 4, `${args[0]}: ${run.stdout}`);
    assert.equal(envelope.error!.code, 'STATE_DIR_UNSAFE');
    assert.match(envelope.error!.message, why);
  }
}

describe('a state folder someone else controls is refused (STATE_DIR_UNSAFE, 4), nothing outside it touched', () => {
  test('a STINT_HOME symlink another user planted, to their folder', { skip: NO_CHOWN }, async () => {
    const target = foreignFolder();
    const link = world.path('planted-link');
    symlinkSync(target, link);
    lchownSync(link, NOBODY.uid, NOBODY.gid);
    const before = snapshot(target);
    await refused(link, /symlink owned by uid 65534/);
    assert.deepEqual(snapshot(target), before, 'the target is neither chmod-ed nor written');
  });

  test('our own symlink to a folder another user owns', { skip: NO_CHOWN }, async () => {
    const target = foreignFolder();
    const link = world.path('own-link');
    symlinkSync(target, link);
    const before = snapshot(target);
    await refused(link, /owned by uid 65534/);
    assert.deepEqual(snapshot(target), before);
  });

  test("a folder another user owns, and a folder inside one of theirs", { skip: NO_CHOWN }, async () => {
    const theirs = foreignFolder();
    const before = snapshot(theirs);
    await refused(theirs, /owned by uid 65534/);
    await refused(join(theirs, 'stint'), /owned by uid 65534, not this user or root/);
    assert.deepEqual(snapshot(theirs), before, 'no folder made inside theirs');
  });

  test('a folder of ours that group or others can write, and one inside the folder', async () => {
    const open = world.path('world-writable');
    mkdirSync(open);
    chmodSync(open, 0o777);
    await refused(open, /writable by group or others \(mode 0777\)/);
    assert.equal(statSync(open).mode & 0o7777, 0o777, 'refused, not chmod-ed');
    assert.deepEqual(readdirSync(open), []);

    const home = world.path('inner-writable');
    assert.equal((await runJson(['job', 'list'], { env: { STINT_HOME: home } })).run.code, 0);
    chmodSync(join(home, 'jobs'), 0o770);
    await refused(home, /jobs is writable by group or others \(mode 0770\)/);
  });

  test('our own folders, through our own symlink, are used as they are (0755 is not chmod-ed)', async () => {
    const real = world.path('own-real');
    mkdirSync(real);
    chmodSync(real, 0o755);
    const link = world.path('own-real-link');
    symlinkSync(real, link);
    const { run } = await runJson(['job', 'list'], { env: { STINT_HOME: link } });
    assert.equal(run.code, 0, run.stdout);
    assert.equal(statSync(real).mode & 0o7777, 0o755);
    assert.ok(existsSync(join(real, 'jobs')));
  });
});

describe('a tampered job.json is refused (JOB_RECORD_INVALID, 4), never printed or run', () => {
  const program = programPath('demo-jobs');
  const home = world.path('tamper-home');
  const marker = world.path('tampered-words-ran');
  const env = { DEMO_JOBS_HOME: home, STINT_HOME: home, AGENT_CALL_BUDGET_MS: '300' };
  const args = ['count', '100000', '--step-ms', '20'];

  test('its programWords edited: job status, wait and cancel, the identical call and follow refuse it;'
    + ' listings leave it out', async () => {
    const started = await runJson(args, { program, env, cwd: world.dir });
    assert.equal(started.run.code, 14, started.run.stdout);
    const id = (started.envelope.data as { job_id: string }).job_id;
    const other = await runJson(['count', '100001', '--step-ms', '20'], { program, env, cwd: world.dir });
    assert.equal(other.run.code, 14, other.run.stdout);
    const otherId = (other.envelope.data as { job_id: string }).job_id;
    const file = join(home, 'jobs', id, 'job.json');
    const record = JSON.parse(readFileSync(file, 'utf8')) as { programWords: string[] };
    writeFileSync(file, JSON.stringify({ ...record, programWords: ['sh', '-c', `touch ${marker}; echo`] }));
    try {
      // stint follow runs the demo program's call and would run whatever continue_command it printed.
      const calls = [
        { call: ['job', 'status', id], program },
        { call: ['job', 'wait', id, '--budget', '1s'], program },
        { call: ['job', 'cancel', id, '--yes'], program },
        { call: args, program },
        { call: ['follow', '--', process.execPath, program, ...args] },
      ];
      for (const { call, ...how } of calls) {
        const { run, envelope } = await runJson(call, { ...how, env, cwd: world.dir });
        assert.equal(run.code, 4, `${call.join(' ')}: ${run.stdout}`);
        assert.equal(envelope.error!.code, 'JOB_RECORD_INVALID');
        assert.doesNotMatch(run.stdout, /touch /, 'the tampered words are not printed');
      }
      // Its log is the job's output, not a command: shown as it is, the record's words neither printed nor run.
      const logs = await runJson(['job', 'logs', id], { program, env, cwd: world.dir });
      assert.equal(logs.run.code, 0, logs.run.stdout);
      assert.doesNotMatch(logs.run.stdout, /touch /);
      assert.equal(existsSync(marker), false, 'nor run');
      // A listing leaves it out, warns of it by id, and still lists the other jobs.
      for (const call of [['job', 'list'], ['job', 'prune', '--dry-run']]) {
        const { run, envelope } = await runJson(call, { program, env, cwd: world.dir });
        assert.equal(run.code, 0, `${call.join(' ')}: ${run.stdout}`);
        assert.doesNotMatch(run.stdout, /touch /, 'the tampered words are not printed');
        assert.deepEqual(envelope.warnings.map((w) => [w.code, w.context?.['job_id']]), [['JOB_RECORD_INVALID', id]]);
        const listed = call[1] === 'list' ? (envelope.data as unknown as { job_id: string }[]) : undefined;
        if (listed) assert.deepEqual(listed.map((job) => job.job_id), [otherId]);
      }
    } finally {
      // Its supervisor still holds the true record: put it back and cancel the jobs.
      writeFileSync(file, JSON.stringify(record));
      for (const job of [id, otherId]) {
        const cancel = await runJson(['job', 'cancel', job, '--yes'], { program, env, cwd: world.dir });
        assert.equal(cancel.run.code, 0, cancel.run.stdout);
      }
    }
  });
});
