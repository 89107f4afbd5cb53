import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { shellJoin } from '../../src/runtime/cli/shell-quote.js';
import { cleanEnv, runCli, runJson, runShell, type CliRun } from '../helpers/run-cli.js';
import { programPath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { until } from '../helpers/queue-worker-process.js';

const world = tempWorld('job-commands');
const demo = programPath('demo-jobs');
let homes = 0;
/** Each test owns its state folder; a 300 ms budget hands longer work to a job. */
const freshHome = () => ({ STINT_HOME: world.path(`home-${++homes}`), STINT_TEST_MODE: '1', AGENT_CALL_BUDGET_MS: '300' });
type Env = ReturnType<typeof freshHome>;

interface Incomplete { state: string; job_id: string; continue_command: string; cancel_command: string }
interface Listed { job_id: string; state: string; argv: string[]; age_ms: number; percent?: number }

const demoJson = (args: readonly string[], env: Env) => runJson(args, { program: demo, env });

/** A job that runs on in the background: `count` of `steps` steps, 20 ms each. */
async function runningJob(env: Env, steps: number): Promise<Incomplete> {
  const first = await demoJson(['count', String(steps), '--step-ms', '20'], env);
  assert.equal(first.run.code, 14, first.run.stdout);
  const data = first.envelope.data as unknown as Incomplete;
  assert.equal(data.state, 'running');
  return data;
}

/** A writer paused at its checkpoint: it stays exactly as it is until someone continues or cancels it. */
async function pausedJob(env: Env, name: string): Promise<Incomplete> {
  const first = await demoJson(['write', name, '400', '--step-ms', '20'], env);
  assert.equal(first.run.code, 14, first.run.stdout);
  const data = first.envelope.data as unknown as Incomplete;
  assert.equal(data.state, 'paused');
  return data;
}

const cancelMarker = (env: Env, id: string) => join(env.STINT_HOME, 'jobs', id, 'cancel');

async function finalOf(env: Env, id: string) {
  return demoJson(['job', 'wait', id, '--budget', '0'], env);
}

describe('job cancel asks first', () => {
  test('the manifest says so: interactive, --yes, --non-interactive, --dry-run, --idempotency-key', async () => {
    const manifest = await demoJson(['manifest'], freshHome());
    const commands = (manifest.envelope.data as { commands: Record<string, Record<string, unknown>> }).commands;
    for (const id of ['job.cancel', 'job.prune']) {
      const entry = commands[id]!;
      assert.equal(entry['danger_level'], 'destructive', id);
      assert.equal(entry['interactive'], true, id);
      const flags = Object.keys(entry['flags'] as object);
      for (const flag of ['yes', 'non-interactive', 'dry-run', 'idempotency-key']) assert.ok(flags.includes(flag), `${id} --${flag}`);
    }
    assert.equal(commands['job.list']!['interactive'], undefined, 'a safe command never asks');
  });

  test('without --yes it exits 2 CONFIRMATION_REQUIRED before any effect; the job runs on and ends normally', async () => {
    const env = freshHome();
    const job = await runningJob(env, 60);
    for (const extra of [[], ['--non-interactive']]) {
      const refused = await demoJson(['job', 'cancel', job.job_id, ...extra], env);
      assert.equal(refused.run.code, 2);
      assert.equal(refused.envelope.error!.code, 'CONFIRMATION_REQUIRED');
      assert.match(refused.envelope.error!.message, /add --yes/i);
      assert.equal(refused.envelope.meta['confirmed'], undefined);
    }
    assert.ok(!existsSync(cancelMarker(env, job.job_id)), 'no stop was asked of the job');
    const end = await finalOf(env, job.job_id);
    assert.equal(end.run.code, 0, 'the job ended on its own');
    assert.deepEqual(end.envelope.data, { steps: 60, sum: 1830 });
  });

  test('--dry-run exits 0 with what would be discarded and changes nothing', async () => {
    // The job is held at its first step until the preview was seen: it cannot end before, however slow the machine.
    const hold = world.path(`hold-${homes}`);
    writeFileSync(hold, '');
    const env = { ...freshHome(), DEMO_JOBS_HOLD: hold };
    const running = await runningJob(env, 60);
    const preview = await demoJson(['job', 'cancel', running.job_id, '--dry-run'], env);
    assert.equal(preview.run.code, 0);
    assert.equal(preview.envelope.meta['dry_run'], true);
    const data = preview.envelope.data as Record<string, unknown>;
    assert.equal(data['job_id'], running.job_id);
    assert.equal(data['effect'], 'would_cancel');
    // Held before its first safe point, the job has saved nothing yet: no checkpoint to discard.
    assert.deepEqual(data['would_discard'], { checkpoint: false, scratch_files: [] });
    assert.ok(!existsSync(cancelMarker(env, running.job_id)));
    rmSync(hold);
    assert.equal((await finalOf(env, running.job_id)).run.code, 0, 'the previewed job still completes');

    const paused = await pausedJob(env, 'kept');
    const writer = await demoJson(['job', 'cancel', paused.job_id, '--dry-run'], env);
    const said = writer.envelope.data as Record<string, unknown>;
    assert.equal(said['state'], 'paused');
    assert.match(String(said['kept']), /committed/, "a writer's committed work is said to stay");
    const status = await demoJson(['job', 'status', paused.job_id], env);
    assert.equal(status.run.code, 14);
    assert.equal((status.envelope.data as unknown as Incomplete).state, 'paused', 'still paused, not cancelled');
  });

  test('the printed cancel_command works verbatim through sh -c (it carries --yes)', async () => {
    const env = freshHome();
    for (const job of [await runningJob(env, 2000), await pausedJob(env, 'x y')]) {
      assert.match(job.cancel_command, / --yes$/);
      // The default budget, not the agent's 300 ms: a job just handed off may still be starting its supervisor,
      // and a cancel that outlasts its budget answers 14 (still running), as it should.
      const run = await runShell(job.cancel_command, { ...env, AGENT_CALL_BUDGET_MS: undefined });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const answer = JSON.parse(run.stdout) as { data: { state: string; effect: string }; meta: Record<string, unknown> };
      assert.equal(answer.data.state, 'cancelled');
      assert.equal(answer.data.effect, 'cancelled');
      assert.equal(answer.meta['confirmed'], true);
    }
  });

  test('--idempotency-key: the same key answers the first answer (noop); for another job it is a conflict', async () => {
    const env = freshHome();
    const [a, b] = [await pausedJob(env, 'a'), await pausedJob(env, 'b')];
    const first = await demoJson(['job', 'cancel', a.job_id, '--yes', '--idempotency-key', 'k-1'], env);
    assert.equal((first.envelope.data as Record<string, unknown>)['effect'], 'cancelled');
    const again = await demoJson(['job', 'cancel', a.job_id, '--yes', '--idempotency-key', 'k-1'], env);
    assert.equal(again.run.code, 0);
    assert.equal(again.envelope.meta['idempotency_hit'], true);
    assert.deepEqual(again.envelope.data, { ...first.envelope.data, effect: 'noop' });
    const other = await demoJson(['job', 'cancel', b.job_id, '--yes', '--idempotency-key', 'k-1'], env);
    assert.equal(other.run.code, 6);
    assert.equal(other.envelope.error!.code, 'IDEMPOTENCY_KEY_REUSED');
    const status = await demoJson(['job', 'status', b.job_id], env);
    assert.equal(status.run.code, 14, 'the other job is untouched');
  });
});

describe('job list, logs, prune, status and wait for people', () => {
  /** Three ended jobs and one paused, oldest first. */
  async function fourJobs(env: Env): Promise<string[]> {
    const ids: string[] = [];
    for (const steps of [3, 4, 5]) {
      await demoJson(['count', String(steps), '--step-ms', '1', '--budget', '0'], env);
    }
    const listed = await demoJson(['job', 'list'], env);
    for (const row of listed.envelope.data as unknown as Listed[]) ids.push(row.job_id);
    ids.push((await pausedJob(env, 'p')).job_id);
    return ids;
  }

  test('job list: rows with age, argv and percent; --state, --limit and --cursor page through every job once', async () => {
    const env = freshHome();
    const ids = await fourJobs(env);
    const all = await demoJson(['job', 'list'], env);
    const rows = all.envelope.data as unknown as Listed[];
    assert.deepEqual(rows.map((r) => r.job_id), ids);
    assert.deepEqual(rows[0]!.argv, ['count', '3', '--step-ms', '1', '--budget', '0']);
    assert.equal(rows[0]!.percent, 100);
    assert.ok(rows.every((r) => typeof r.age_ms === 'number'));

    const done = await demoJson(['job', 'list', '--state', 'done'], env);
    assert.deepEqual((done.envelope.data as unknown as Listed[]).map((r) => r.state), ['done', 'done', 'done']);
    const paused = await demoJson(['job', 'list', '--state', 'paused'], env);
    assert.deepEqual((paused.envelope.data as unknown as Listed[]).map((r) => r.job_id), [ids[3]]);

    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 3; page++) {
      const args = ['job', 'list', '--limit', '3', ...(cursor ? ['--cursor', cursor] : [])];
      const listed = await demoJson(args, env);
      seen.push(...(listed.envelope.data as unknown as Listed[]).map((r) => r.job_id));
      const pagination = listed.envelope.meta['pagination'] as { next_cursor: string | null; has_more: boolean; total: number };
      assert.equal(pagination.total, 4);
      assert.equal(pagination.has_more, pagination.next_cursor !== null);
      cursor = pagination.next_cursor;
      if (!cursor) break;
    }
    assert.deepEqual(seen, ids, 'two pages, every job once, in order');
    const bad = await demoJson(['job', 'list', '--cursor', 'nonsense'], env);
    assert.equal(bad.run.code, 2);
    const badState = await demoJson(['job', 'list', '--state', 'sleeping'], env);
    assert.equal(badState.run.code, 2);

    const text = await runCli(['job', 'list', '--format', 'text'], { program: demo, env });
    const lines = text.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^ID +STATE +AGE +DONE +RATE +ETA +COMMAND$/);
    assert.equal(lines.length, 5, text.stdout);
    assert.match(lines[1]!, new RegExp(`^${ids[0]} +done .* 100% .*demo-jobs count 3 --step-ms 1 --budget 0$`));
  });

  test('job logs: what a background job\'s process said; --tail; a foreground-only job has an empty log', async () => {
    const env = freshHome();
    const job = await runningJob(env, 30);
    await finalOf(env, job.job_id);
    let lines: string[] = [];
    // The supervisor says it ended just after it stored its answer: wait for that line, not for a time.
    for (let tries = 0; tries < 200 && !lines.some((line) => /ended with exit 0/.test(line)); tries++) {
      if (tries) await sleep(50);
      const logs = await demoJson(['job', 'logs', job.job_id], env);
      assert.equal(logs.run.code, 0);
      lines = (logs.envelope.data as { lines: string[] }).lines;
    }
    assert.ok(lines.some((line) => line.includes(`runs job ${job.job_id}`)), lines.join('\n'));
    assert.match(lines.at(-1)!, /ended with exit 0/);
    const tail = await demoJson(['job', 'logs', job.job_id, '--tail', '1'], env);
    assert.deepEqual((tail.envelope.data as { lines: string[] }).lines, [lines.at(-1)]);
    const text = await runCli(['job', 'logs', job.job_id, '--format', 'text'], { program: demo, env });
    assert.equal(text.stdout, lines.map((line) => `${line}\n`).join(''));

    const paused = await pausedJob(env, 'quiet');
    const none = await demoJson(['job', 'logs', paused.job_id], env);
    assert.deepEqual((none.envelope.data as { lines: string[] }).lines, []);
    assert.equal((await demoJson(['job', 'logs', 'count-00000000'], env)).run.code, 5);
  });

  test('job prune removes ended jobs only, after --yes; --dry-run lists them and changes nothing', async () => {
    const env = freshHome();
    const ids = await fourJobs(env);
    const listed = async () => ((await demoJson(['job', 'list'], env)).envelope.data as unknown as Listed[]).map((r) => r.job_id);
    const refused = await demoJson(['job', 'prune'], env);
    assert.equal(refused.run.code, 2);
    assert.equal(refused.envelope.error!.code, 'CONFIRMATION_REQUIRED');
    const preview = await demoJson(['job', 'prune', '--dry-run'], env);
    assert.equal(preview.run.code, 0);
    const would = preview.envelope.data as { effect: string; jobs: Listed[] };
    assert.equal(would.effect, 'would_remove');
    assert.deepEqual(would.jobs.map((j) => j.job_id), ids.slice(0, 3));
    assert.deepEqual(await listed(), ids, 'a dry run removes nothing');
    const pruned = await demoJson(['job', 'prune', '--yes'], env);
    assert.equal((pruned.envelope.data as { count: number }).count, 3);
    assert.deepEqual(await listed(), [ids[3]], 'the paused job stays');
    assert.equal((await demoJson(['job', 'wait', ids[0]!, '--budget', '0'], env)).run.code, 5);
  });

  test('job status --format text: a short block while it runs and once it ended; JSON stays the envelope', async () => {
    const env = freshHome();
    const job = await runningJob(env, 2000);
    // The block shows a share once the job has told its total: on a busy machine its first report can come late.
    const reported = async () => {
      const status = await demoJson(['job', 'status', job.job_id], env);
      return (status.envelope.data as { progress?: { total?: number } }).progress?.total !== undefined;
    };
    await until(reported, 'the job reports its progress');
    const run = await runCli(['job', 'status', job.job_id, '--format', 'text'], { program: demo, env });
    assert.equal(run.code, 14);
    const block = run.stdout;
    assert.match(block, new RegExp(`^job +${job.job_id}$`, 'm'));
    assert.match(block, /^command +demo-jobs count 2000 --step-ms 20$/m);
    assert.match(block, /^state +running$/m);
    assert.match(block, /^progress +\d+% \(\d+ of 2,000 steps\)/m);
    assert.match(block, /^started +\d+\w+ ago$/m);
    assert.match(block, new RegExp(`^next +.* job wait ${job.job_id}$`, 'm'));
    assert.match(block, new RegExp(`^cancel +.* job cancel ${job.job_id} --yes$`, 'm'));
    await runShell(job.cancel_command, env);
    const ended = await runCli(['job', 'status', job.job_id, '--format', 'text'], { program: demo, env });
    assert.match(ended.stdout, /^state +cancelled$/m);
    assert.match(ended.stdout, /^answer +exit 1 CANCELLED$/m);
    const json = await demoJson(['job', 'status', job.job_id], env);
    assert.equal(json.envelope.error!.code, 'CANCELLED', 'JSON is the stored final envelope');
  });

  test('job wait --format text shows the final answer as the command itself would', async () => {
    const env = freshHome();
    const job = await runningJob(env, 30);
    const waited = await runCli(['job', 'wait', job.job_id, '--budget', '0', '--format', 'text'], { program: demo, env });
    const direct = await runCli(['count', '30', '--step-ms', '1', '--budget', '0', '--format', 'text'], { program: demo, env: freshHome() });
    assert.equal(direct.code, 0);
    assert.equal(direct.stdout, 'counted 30 steps: sum 465\n');
    assert.equal(waited.code, 0);
    assert.equal(waited.stdout, direct.stdout);
  });
});

/** Runs a command line under a real pseudo-terminal `cols` wide, typing `input`; what the terminal showed. */
function inTerminal(line: string, env: Env, input = '', cols = 80): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', `stty cols ${cols}; ${line}; echo "exit=$?"`, '/dev/null'], {
      env: cleanEnv({ ...env, AGENT_CALL_BUDGET_MS: undefined, TERM: 'xterm' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stdin.end(input);
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout: stdout.replace(/\r/g, ''), stderr: '' });
    });
  });
}

const demoLine = (...args: string[]) => shellJoin([process.execPath, demo, ...args]);
const exitOf = (run: CliRun) => Number(/exit=(\d+)/.exec(run.stdout)?.[1]);

describe('job commands at a terminal', () => {
  test('job list and job status: a table with a header and a block, in plain text under NO_COLOR', async () => {
    const env = freshHome();
    const job = await runningJob(env, 2000);
    // 60 columns: narrower than the table however far the job got (a row is about 75 wide with nothing done yet).
    const list = await inTerminal(`NO_COLOR=1 ${demoLine('job', 'list')}`, env, '', 60);
    assert.equal(exitOf(list), 0, list.stdout);
    // Wider than the terminal: a record a job, its whole command line wrapped, nothing cut.
    assert.match(list.stdout, new RegExp(`^ID: ${job.job_id}\r?$`, 'm'), list.stdout);
    assert.match(list.stdout, /^ {2}STATE +running\r?$/m);
    assert.match(list.stdout.replace(/\s+/g, ' '), / demo-jobs count 2000 /);
    assert.ok(!list.stdout.includes('…'), 'nothing is cut');
    for (const line of list.stdout.split('\n')) assert.ok(line.length <= 60, line);
    assert.ok(!/\u001b\[/.test(list.stdout), 'no colour under NO_COLOR');
    const status = await inTerminal(`NO_COLOR=1 ${demoLine('job', 'status', job.job_id)}`, env);
    assert.equal(exitOf(status), 14);
    assert.match(status.stdout, /^state +running$/m);
    assert.match(status.stdout, /^progress +\d+% /m);
    assert.ok(!status.stdout.includes('"ok"'), 'no JSON for a person');
    await runShell(job.cancel_command, env);
  });

  test('job cancel asks y/N on the terminal: "n" leaves the job untouched, "y" cancels it', async () => {
    const env = freshHome();
    const job = await runningJob(env, 2000);
    const no = await inTerminal(demoLine('job', 'cancel', job.job_id), env, 'n\n');
    assert.match(no.stdout, new RegExp(`demo-jobs job cancel ${job.job_id} is destructive: .*Go ahead\\? \\[y/N\\]`));
    assert.equal(exitOf(no), 2);
    assert.match(no.stdout, /CONFIRMATION_REQUIRED/);
    assert.ok(!existsSync(cancelMarker(env, job.job_id)), 'no stop was asked of the job');
    const still = await demoJson(['job', 'status', job.job_id], env);
    assert.equal((still.envelope.data as unknown as Incomplete).state, 'running');

    const yes = await inTerminal(demoLine('job', 'cancel', job.job_id), env, 'y\n');
    assert.equal(exitOf(yes), 0, yes.stdout);
    assert.match(yes.stdout, /^state: cancelled$/m);
    // The answer said cancelled once the job stopped; whoever asks now agrees.
    // A generous limit (60 s): a loaded machine may take a while to reach the job's next safe point.
    for (let waited = 0; waited < 1_200; waited++) {
      const status = await demoJson(['job', 'status', job.job_id], env);
      if (status.run.code !== 14) {
        assert.equal(status.envelope.error!.code, 'CANCELLED');
        return;
      }
      await sleep(50);
    }
    assert.fail('the job never answered as cancelled');
  });
});
