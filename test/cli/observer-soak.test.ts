import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Envelope } from '../../src/contract/envelope.js';
import { runJson } from '../helpers/run-cli.js';
import { programPath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';

// Identical calls attaching to one job while `job list` judges it over and
// over: the job's supervisor ends it with its own answer, and no call, no
// `job wait` after, no listing ever reports that finished job as lost or
// stalled. A few rounds here; STINT_SOAK_ROUNDS runs more.

const world = tempWorld('observer-soak');
const demo = programPath('demo-jobs');
const ROUNDS = Number(process.env['STINT_SOAK_ROUNDS'] ?? 3);
const CALLS = 15;
const STEPS = 60;
const SUM = (STEPS * (STEPS + 1)) / 2;
const GUARD = { killAfterMs: 120_000 };
type Response = Envelope<Record<string, unknown>>;

/** `job list` again and again until told to stop: every state it saw, per job. */
async function hammer(env: Record<string, string>, stop: { done: boolean }): Promise<Map<string, Set<string>>> {
  const seen = new Map<string, Set<string>>();
  while (!stop.done) {
    const { envelope } = await runJson(['job', 'list'], { program: demo, env, ...GUARD });
    assert.equal(envelope.meta.exit_code, 0);
    for (const view of envelope.data as unknown as { job_id: string; state: string }[]) {
      seen.set(view.job_id, (seen.get(view.job_id) ?? new Set()).add(view.state));
    }
  }
  return seen;
}

/** What a call answered: still running (14, naming its job), or the job's own answer. */
function assertGoingOrDone(envelope: Response, who: string): void {
  if (envelope.meta.exit_code === 14) return assert.equal((envelope.data as { state: string }).state, 'running', who);
  assert.equal(envelope.meta.exit_code, 0, `${who}: ${JSON.stringify(envelope.error)}`);
  assert.deepEqual(envelope.data, { steps: STEPS, sum: SUM }, who);
}

/** The ends written in the state folder, by job. */
function endsIn(home: string): Map<string, string> {
  const jobs = join(home, 'jobs');
  const ends = new Map<string, string>();
  for (const id of readdirSync(jobs)) {
    const path = join(jobs, id, 'end.json');
    if (!existsSync(path)) continue;
    ends.set(id, (JSON.parse(readFileSync(path, 'utf8')) as { status: { state: string } }).status.state);
  }
  return ends;
}

/** One round; whether its listing saw a job running (the window the race needs). */
async function round(n: number): Promise<boolean> {
  const env = { STINT_HOME: world.path(`home-${n}`), STINT_TEST_MODE: '1', STINT_CHECKPOINT_INTERVAL_MS: '0' };
  const args = ['tick', String(STEPS), '--step-ms', '20', '--budget', '300ms'];
  const stop = { done: false };
  const listing = hammer(env, stop);
  try {
    const call = () => runJson(args, { program: demo, env, ...GUARD });
    const calls = await Promise.all(Array.from({ length: CALLS }, call));
    const ids = new Set<string>();
    calls.forEach(({ envelope }, k) => {
      assertGoingOrDone(envelope, `call ${k + 1}`);
      if (envelope.meta.exit_code === 14) ids.add((envelope.data as { job_id: string }).job_id);
    });
    for (const id of ids) {
      const waited = await runJson(['job', 'wait', id, '--budget', '0'], { program: demo, env, ...GUARD });
      assertGoingOrDone(waited.envelope, `job wait ${id}`);
      assert.equal(waited.envelope.meta.exit_code, 0, 'the wait ends with the job');
    }
  } finally {
    // A failed call must fail the test, not leave the listing running until the file's guard.
    stop.done = true;
  }
  const listed = await listing;
  for (const [id, states] of listed) {
    assert.deepEqual([...states].filter((s) => s !== 'running' && s !== 'done'), [], `job list saw ${id} as`);
  }
  const ends = endsIn(env.STINT_HOME);
  assert.ok(ends.size >= 1 && ends.size < CALLS, `${ends.size} jobs for ${CALLS} calls: the calls attached`);
  assert.deepEqual([...ends.values()].filter((state) => state !== 'done'), [], 'every job ended done');
  return [...listed.values()].some((states) => states.has('running'));
}

const TITLE = `${CALLS} identical calls attach to one job while job list judges it`;
test(`${TITLE}: ${ROUNDS} rounds, 0 finished jobs reported otherwise`, async () => {
  let watched = 0;
  for (let n = 1; n <= ROUNDS; n++) if (await round(n)) watched++;
  assert.ok(watched >= 1, 'job list judged a running job in some round');
});
