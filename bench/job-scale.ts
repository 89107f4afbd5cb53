// Figures of the job commands with a state folder of 10,000 ended jobs, and
// of the start-up window (spawn to stint's signal handlers). Absolute times
// on a shared machine: CPU time is given beside wall time, and the load.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { REPO_ROOT, STINT_BIN } from '../test/helpers/paths.js';
import { median, type Figure } from './measure.js';

const JOBS = 10_000;
const PROBE = join(REPO_ROOT, 'build', 'bench', 'startup-probe.js');

interface Measured {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly bytes: number;
  readonly code: number | null;
}

type Add = (name: string, value: number, unit: string, target?: string, detail?: string) => void;

/** Runs stint under GNU time: wall time, user + system CPU time and the answer's size. */
function measure(args: readonly string[], home: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'STINT_BENCH_CPU=%U %S', process.execPath, STINT_BIN, ...args], {
      env: { ...process.env, STINT_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let bytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const [user, system] = (/STINT_BENCH_CPU=(\S+) (\S+)/.exec(stderr) ?? []).slice(1).map(Number);
      resolve({ wallMs: performance.now() - started, cpuMs: ((user ?? NaN) + (system ?? NaN)) * 1000, bytes, code });
    });
  });
}

/** A state folder of `count` ended jobs: one real finished analyze, its folder copied under new ids. */
export function seedEndedJobs(home: string, count: number): void {
  mkdirSync(home, { recursive: true });
  const small = join(REPO_ROOT, 'fixtures', 'csv', 'cities.csv');
  spawnSync(process.execPath, [STINT_BIN, 'analyze', small], { env: { ...process.env, STINT_HOME: home } });
  const jobs = join(home, 'jobs');
  const [first] = readdirSync(jobs);
  if (!first) throw new Error('the seed analyze left no job');
  // Ended an hour ago, as jobs a prune finds usually are (a listing indexes ends that stood a minute). The end
  // that stands is end.json's; status.json mirrors it.
  const hourEarlier = (status: { updatedAt: number; endedAt: number }) =>
    ({ ...status, updatedAt: status.updatedAt - 3_600_000, endedAt: status.endedAt - 3_600_000 });
  const statusPath = join(jobs, first, 'status.json');
  writeFileSync(statusPath, JSON.stringify(hourEarlier(JSON.parse(readFileSync(statusPath, 'utf8')))));
  const endPath = join(jobs, first, 'end.json');
  const end = JSON.parse(readFileSync(endPath, 'utf8')) as { status: { updatedAt: number; endedAt: number } };
  writeFileSync(endPath, JSON.stringify({ ...end, status: hourEarlier(end.status) }));
  const record = JSON.parse(readFileSync(join(jobs, first, 'job.json'), 'utf8')) as { createdAt: number };
  for (let k = 1; k < count; k++) {
    const id = `analyze-${(0x10000000 + k).toString(16)}`;
    cpSync(join(jobs, first), join(jobs, id), { recursive: true });
    writeFileSync(join(jobs, id, 'job.json'), JSON.stringify({ ...record, id, createdAt: record.createdAt + k }));
  }
}

/** job list with 10,000 jobs against job list of an empty state folder; job prune --yes over the 10,000. */
export async function jobScaleFigures(work: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  const add: Add = (name, value, unit, target, detail) =>
    void figures.push({ suite: 'scale', name, value, unit, ...(target ? { target } : {}),
      ...(detail ? { detail } : {}) });
  const empty = join(work, `scale-empty-${process.pid}`);
  const full = join(work, `scale-full-${process.pid}`);
  mkdirSync(empty, { recursive: true });
  seedEndedJobs(full, JOBS);
  // The first listing reads every job's files and learns the index of ended jobs; later ones read the index.
  const learning = await measure(['job', 'list'], full);
  add(`first job list, ${JOBS} jobs (learns the index; CPU)`, learning.cpuMs, 'ms', undefined,
    `wall ${learning.wallMs.toFixed(0)} ms`);
  // Alternating, so that a change of load during the runs favours neither side.
  const bare: Measured[] = [];
  const listed: Measured[] = [];
  for (let k = 0; k < 3; k++) {
    bare.push(await measure(['job', 'list'], empty));
    listed.push(await measure(['job', 'list'], full));
  }
  const cpu = (all: Measured[]) => median(all.map((m) => m.cpuMs));
  const wall = (all: Measured[]) => median(all.map((m) => m.wallMs));
  add(`job list, ${JOBS} jobs / no jobs (CPU)`, cpu(listed) / cpu(bare), 'x', undefined,
    `CPU ${cpu(listed).toFixed(0)} / ${cpu(bare).toFixed(0)} ms,`
    + ` wall ${wall(listed).toFixed(0)} / ${wall(bare).toFixed(0)} ms`);
  add(`job list, ${JOBS} jobs: answer size`, listed[0]!.bytes / 1024, 'KiB', undefined, 'the first 100 jobs (--limit)');
  const pruned = await measure(['job', 'prune', '--yes'], full);
  if (pruned.code !== 0) throw new Error(`job prune failed with ${pruned.code}`);
  const left = readdirSync(join(full, 'pruned')).length;
  add(`job prune --yes, ${JOBS} ended jobs (wall)`, pruned.wallMs, 'ms', undefined,
    `CPU ${pruned.cpuMs.toFixed(0)} ms; ${left} folders left to delete by later calls`);
  add(`job prune --yes, ${JOBS} ended jobs: answer size`, pruned.bytes / 1024, 'KiB', undefined,
    'count, states and the first 100 jobs');
  rmSync(full, { recursive: true, force: true });
  startupWindow(empty, add);
  rmSync(empty, { recursive: true, force: true });
  return figures;
}

/** Spawn to the first module Node runs, and spawn to stint's SIGINT listener, medians of 15 `--version` runs. */
function startupWindow(home: string, add: Add): void {
  const node: number[] = [];
  const stint: number[] = [];
  for (let k = 0; k < 15; k++) {
    const spawned = performance.timeOrigin + performance.now();
    const run = spawnSync(process.execPath, ['--import', PROBE, STINT_BIN, '--version'], {
      env: { ...process.env, STINT_HOME: home }, encoding: 'utf8',
    });
    const probe = /STINT_STARTUP_PROBE (.*)/.exec(run.stderr);
    if (!probe) throw new Error(`no probe line: ${run.stderr.slice(0, 300)}`);
    const { origin, firstModule, handler } = JSON.parse(probe[1]!) as Record<string, number>;
    node.push(origin! - spawned + firstModule!);
    stint.push(origin! - spawned + handler!);
  }
  add('spawn to the first module (Node\'s own start-up)', median(node), 'ms');
  add('spawn to stint\'s signal handlers', median(stint), 'ms', undefined,
    `stint's part ${(median(stint) - median(node)).toFixed(1)} ms (median of the differences: `
    + `${median(stint.map((s, k) => s - node[k]!)).toFixed(1)} ms)`);
}
