import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runJson, runShell } from '../helpers/run-cli.js';
import { programPath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { until } from '../helpers/queue-worker-process.js';

const world = tempWorld('program-state');
/** Two programs built on stint with the same command, arguments and version: only the program differs. */
const programs = { demo: programPath('demo-jobs'), other: programPath('other-jobs') };
const homes = { demo: world.path('demo-home'), other: world.path('other-home'), stint: world.path('stint-home') };
// Each program's own variable; STINT_HOME is stint's, so neither program may write there.
const env = {
  DEMO_JOBS_HOME: homes.demo,
  OTHER_JOBS_HOME: homes.other,
  STINT_HOME: homes.stint,
  STINT_TEST_MODE: '1',
  AGENT_CALL_BUDGET_MS: '300',
};
// A cancel waits for the job's supervisor to end it, and one just handed off may still be starting: its own
// budget (the default, not the agent's 300 ms) is the generous limit, not a claim about speed.
const cancelEnv = (shared: typeof env) => ({ ...shared, AGENT_CALL_BUDGET_MS: undefined });
type Name = keyof typeof programs;
type Handoff = { job_id: string; cancel_command: string };

const run = (name: Name, args: string[]) => runJson(args, { program: programs[name], env, cwd: world.dir });
const entries = (home: string, sub: string) => readdirSync(join(home, sub)).sort();

test('two programs of the same command and arguments keep their jobs, checkpoints and ids apart', async () => {
  // Long enough (20 s) to be running still at the end, however loaded the machine; both are cancelled below.
  const args = ['count', '1000', '--step-ms', '20'];
  const demo = await run('demo', args);
  const other = await run('other', args);
  assert.equal(demo.run.code, 14, demo.run.stdout);
  assert.equal(other.run.code, 14, other.run.stdout);
  const ids = { demo: (demo.envelope.data as Handoff).job_id, other: (other.envelope.data as Handoff).job_id };

  assert.deepEqual(entries(homes.demo, 'jobs'), [ids.demo]);
  assert.deepEqual(entries(homes.other, 'jobs'), [ids.other]);
  const checkpoints = { demo: entries(homes.demo, 'checkpoints'), other: entries(homes.other, 'checkpoints') };
  assert.equal(checkpoints.demo.length, 1, 'demo-jobs checkpoints in its own folder');
  assert.equal(checkpoints.other.length, 1, 'other-jobs checkpoints in its own folder');
  assert.notDeepEqual(checkpoints.demo, checkpoints.other, 'not the same invocation: not the same checkpoint');
  assert.equal(existsSync(homes.stint), false, "neither program touches stint's state folder");

  for (const [name, id] of [['demo', ids.demo], ['other', ids.other]] as const) {
    const listed = await run(name, ['job', 'list']);
    const listedIds = (listed.envelope.data as unknown as { job_id: string }[]).map((job) => job.job_id);
    assert.deepEqual(listedIds, [id], `${name} lists its own job only`);
  }

  for (const [name, foreign] of [['demo', ids.other], ['other', ids.demo]] as const) {
    for (const verb of [['wait', foreign, '--budget', '1s'], ['cancel', foreign, '--yes']]) {
      const answer = await run(name, ['job', ...verb]);
      assert.equal(answer.run.code, 5, `${name} job ${verb[0]} of the other program's job: ${answer.run.stdout}`);
      assert.equal(answer.envelope.error!.code, 'JOB_NOT_FOUND');
    }
  }

  for (const name of ['demo', 'other'] as const) {
    const cancel = await runShell((({ demo, other })[name].envelope.data as Handoff).cancel_command, cancelEnv(env));
    assert.equal(cancel.code, 0, `${name} cancels its own job: ${cancel.stdout}`);
  }
});

test('given one folder, two programs of the same command and arguments still are not the same invocation', async () => {
  const shared = world.path('shared-home');
  const sharedEnv = { ...env, DEMO_JOBS_HOME: shared, OTHER_JOBS_HOME: shared };
  const args = ['count', '1000', '--step-ms', '20'];
  const start = (name: Name) => runJson(args, { program: programs[name], env: sharedEnv, cwd: world.dir });
  const calls = await Promise.all([start('demo'), start('other')]);
  const data = calls.map((call) => call.envelope.data as Handoff);
  assert.deepEqual(calls.map((call) => call.run.code), [14, 14], calls.map((call) => call.run.stdout).join('\n'));
  assert.notEqual(data[0]!.job_id, data[1]!.job_id, 'one job each');
  assert.deepEqual(entries(shared, 'jobs'), data.map((d) => d.job_id).sort());
  // Each job's first checkpoint is written by its supervisor, which may still be starting when the call answers.
  await until(() => entries(shared, 'checkpoints').length === 2, 'one checkpoint each');
  assert.equal(entries(shared, 'checkpoints').length, 2, 'one checkpoint each');
  for (const { cancel_command } of data) {
    const cancel = await runShell(cancel_command, cancelEnv(sharedEnv));
    assert.equal(cancel.code, 0, `${cancel_command}: ${cancel.stdout}`);
  }
});
