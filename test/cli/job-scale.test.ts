import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runJson } from '../helpers/run-cli.js';
import { programPath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('job-scale');
const demo = programPath('demo-jobs');
const JOBS = 150;
const env = { STINT_HOME: world.path('home'), STINT_TEST_MODE: '1' };
const demoJson = (args: readonly string[]) => runJson(args, { program: demo, env });

interface Listed { job_id: string; state: string }
interface Pagination { total: number; has_more: boolean; next_cursor: string | null }
interface Page { data: Listed[]; meta: { pagination: Pagination } }

/**
 * One real finished job, its folder copied under new ids (each a later creation time); their ids, oldest first.
 * Its end is moved two minutes back: the index keeps only ends that have stood a minute.
 */
async function seedEndedJobs(): Promise<string[]> {
  assert.equal((await demoJson(['count', '3', '--step-ms', '1', '--budget', '0'])).run.code, 0);
  const jobs = join(env.STINT_HOME, 'jobs');
  const [first] = readdirSync(jobs);
  // The end (end.json) is what readers take; status.json repeats its status for whoever reads the file itself.
  const endPath = join(jobs, first!, 'end.json');
  const end = JSON.parse(readFileSync(endPath, 'utf8')) as { status: { updatedAt: number; endedAt: number } };
  const { status } = end;
  const earlier = { ...status, updatedAt: status.updatedAt - 120_000, endedAt: status.endedAt - 120_000 };
  writeFileSync(endPath, JSON.stringify({ ...end, status: earlier }));
  writeFileSync(join(jobs, first!, 'status.json'), JSON.stringify(earlier));
  const record = JSON.parse(readFileSync(join(jobs, first!, 'job.json'), 'utf8')) as { createdAt: number };
  const ids = [first!];
  for (let k = 1; k < JOBS; k++) {
    const id = `count-${(0x10000000 + k).toString(16)}`;
    cpSync(join(jobs, first!), join(jobs, id), { recursive: true });
    writeFileSync(join(jobs, id, 'job.json'), JSON.stringify({ ...record, id, createdAt: record.createdAt + k }));
    ids.push(id);
  }
  return ids;
}

async function listAll(): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Page = (await demoJson(['job', 'list', ...(cursor ? ['--cursor', cursor] : [])])).envelope as never;
    assert.equal(page.meta.pagination.total, JOBS);
    ids.push(...page.data.map((row) => row.job_id));
    cursor = page.meta.pagination.next_cursor;
  } while (cursor !== null);
  return ids;
}

const indexLines = () => readFileSync(join(env.STINT_HOME, 'ended-jobs'), 'utf8').split('\n').filter(Boolean);

test(`${JOBS} ended jobs: listed from the index of ended jobs in pages, pruned with a summary answer`, async () => {
  const ids = await seedEndedJobs();
  assert.deepEqual(await listAll(), ids, 'every job once, oldest first');
  assert.equal(indexLines().length, JOBS, 'each ended job learned once');
  appendFileSync(join(env.STINT_HOME, 'ended-jobs'), '{"id": torn\n');
  assert.deepEqual(await listAll(), ids, 'the same listing from the index, a torn line skipped');

  const preview = await demoJson(['job', 'prune', '--dry-run']);
  const pruned = await demoJson(['job', 'prune', '--yes']);
  for (const [answer, effect] of [[preview, 'would_remove'], [pruned, 'removed']] as const) {
    const data = answer.envelope.data as { effect: string; count: number; states: object; jobs: Listed[]; truncated: boolean };
    assert.deepEqual({ ...data, jobs: data.jobs.map((job) => job.job_id) },
      { effect, count: JOBS, states: { done: JOBS }, jobs: ids.slice(0, 100), truncated: true });
  }
  const after = (await demoJson(['job', 'list'])).envelope as unknown as Page;
  assert.deepEqual([after.data, after.meta.pagination.total], [[], 0]);
  assert.equal((await demoJson(['job', 'wait', ids[0]!, '--budget', '0'])).run.code, 5, 'a pruned job is gone');
  assert.deepEqual(indexLines(), [], 'the lines of pruned jobs are dropped');
  assert.deepEqual(readdirSync(join(env.STINT_HOME, 'jobs')), []);

  // Each call deletes at least one moved-aside folder, however slow the disk.
  const waiting = () => readdirSync(join(env.STINT_HOME, 'pruned')).length;
  const left = waiting();
  assert.ok(left < JOBS, `${left} folders left to delete`);
  const again = await demoJson(['job', 'prune', '--yes']);
  assert.equal((again.envelope.data as { count: number }).count, 0);
  assert.ok(waiting() < Math.max(1, left), `${waiting()} left after ${left}`);
});
