// One schedule from seed to verdict: write its input, run its steps, drive
// the work to the end, then check what it left (table or analysis,
// processes, jobs, checkpoints) against the model.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { shellJoin } from '../../src/runtime/cli/shell-quote.js';
import { STINT_BIN } from './paths.js';
import { runJson } from './run-cli.js';
import { describeSchedule, generateSchedule, Workload, type Schedule } from './fault-schedule.js';
import {
  csvRecords, diffTables, expectedTable, Invariant, writeFaultCsv, type Declared, type Violation,
} from './fault-model.js';
import { faultWorld, ScheduleRunner, type Call, type FaultWorld } from './fault-runner.js';
import {
  leftoverCheckpoints, lingeringProcesses, processesOf, staleJobs, staleLeases, tableCheckpoints,
} from './fault-state.js';
import { isSameAnswer } from './same-answer.js';

export interface Verdict {
  readonly schedule: Schedule;
  readonly violations: readonly Violation[];
  /** Drives that escalated after three continuations without progress (see ScheduleRunner.stalls). */
  readonly stalls: number;
  /** Calls a signal ended before stint's code ran (Node still starting). */
  readonly startupDeaths: number;
  readonly calls: number;
  readonly kills: number;
  readonly rowsLost: number;
  readonly rowsDoubled: number;
  /** Calls (not kill -9'd) without one valid envelope of a declared exit code, or that hung. */
  readonly improperAnswers: number;
  /** Every call with its exit, for a failure's report. */
  readonly trace: readonly string[];
}

const IMPROPER: readonly Invariant[] = [Invariant.Envelope, Invariant.SignalAnswered, Invariant.ExitCode, Invariant.Hang];

/** The data of an uninterrupted `analyze --budget 0` on one thread (the schedule's chunk size), in a folder of its own. */
async function referenceAnalysis(world: FaultWorld, schedule: Schedule): Promise<unknown> {
  const { STINT_TEST_SLOW_SAVE: _, ...unslowed } = world.env;
  const env = { ...unslowed, STINT_HOME: join(world.dir, 'reference-home') };
  const args = ['analyze', world.input, '--budget', '0', '--chunk-size', schedule.chunkSize, '--workers', '1'];
  const { envelope } = await runJson(args, { env, killAfterMs: 180_000 });
  return envelope.data;
}

/** The table as `stint export` writes it now. */
async function finalTable(runner: ScheduleRunner, world: FaultWorld): Promise<string[][] | undefined> {
  const out = join(world.dir, 'final.csv');
  const line = shellJoin([process.execPath, STINT_BIN, 'export', world.db, '--output', out]);
  const call = await runner.call('final export', line);
  return call.envelope?.meta.exit_code === 0 ? csvRecords(readFileSync(out, 'utf8')) : undefined;
}

/** A call (analyze itself, or a job command relaying its job's answer) that answered the finished analysis. */
const finishedAnalysis = (call: Call): boolean =>
  call.envelope?.meta.exit_code === 0 && call.envelope.meta.command === 'analyze';

async function checkResult(
  runner: ScheduleRunner,
  world: FaultWorld,
  input: string[][],
  reference: unknown,
): Promise<{ lost: number; doubled: number }> {
  const { schedule } = runner;
  const violate = (invariant: Invariant, detail: string) => runner.violations.push({ invariant, detail });
  const final = await runner.drive();
  const data = final?.envelope?.data as { coverage?: string } | undefined;
  if (final && (final.envelope!.meta.exit_code !== 0 || data?.coverage !== 'complete')) {
    violate(Invariant.FinalAnswer, `the last answer is exit ${final.envelope!.meta.exit_code}, coverage ${data?.coverage}`);
  }
  if (schedule.workload === Workload.Analyze) {
    // The whole answer, estimates included, of every call that finished the work (a repeat, a concurrent call,
    // a budget that sufficed, a job wait, the last drive): neither the stops nor the thread count may change it.
    for (const call of runner.calls.filter(finishedAnalysis)) {
      if (isSameAnswer(call.envelope!.data, reference)) continue;
      const got = JSON.stringify(call.envelope!.data).slice(0, 300);
      const want = JSON.stringify(reference).slice(0, 300);
      violate(Invariant.AnalyzeEqual, `${call.label}: data ${got} differs from the uninterrupted run's ${want}`);
    }
    if (!runner.calls.some(finishedAnalysis)) violate(Invariant.AnalyzeEqual, 'no call answered the analysis');
    return { lost: 0, doubled: 0 };
  }
  const table = await finalTable(runner, world);
  if (!table) {
    violate(Invariant.ExactlyOnce, 'the final export failed');
    return { lost: 0, doubled: 0 };
  }
  const diff = diffTables(table, expectedTable(input, schedule.workload));
  if (!diff.headerOk || diff.lost + diff.doubled + diff.wrong > 0) {
    const header = diff.headerOk ? '' : ', header differs';
    const counts = `${diff.lost} rows lost, ${diff.doubled} doubled, ${diff.wrong} wrong${header}`;
    violate(Invariant.ExactlyOnce, `${counts}: ${diff.examples.join('; ')}`);
  }
  return { lost: diff.lost, doubled: diff.doubled };
}

/** What the schedule left: processes of its STINT_HOME, unfinished jobs, leases, checkpoints. */
async function checkLeftovers(runner: ScheduleRunner, world: FaultWorld): Promise<void> {
  const violate = (invariant: Invariant, detail: string) => runner.violations.push({ invariant, detail });
  const lingering = await lingeringProcesses(world.home);
  if (lingering.length > 0) {
    violate(Invariant.Orphans, lingering.map((p) => `pid ${p.pid}: ${p.cmdline.slice(0, 200)}`).join('; '));
    // Processes this schedule started (they carry its STINT_HOME): end them, each by its pid.
    for (const p of lingering) process.kill(p.pid, 'SIGKILL');
  }
  // Liveness is judged by whoever looks: a job whose process a kill -9 ended is `running` on disk until
  // someone does. Look once, as a caller would, then nothing may be left running, paused or leased.
  const look = await runner.call('job list', shellJoin([process.execPath, STINT_BIN, 'job', 'list']));
  if (look.envelope?.meta.exit_code !== 0) violate(Invariant.Envelope, `job list answered ${look.run?.stdout.slice(0, 200)}`);
  const stale = staleJobs(world.home);
  if (stale.length > 0) violate(Invariant.StaleJobs, stale.join('; '));
  const leases = staleLeases(world.home);
  if (leases.length > 0) violate(Invariant.StaleLease, leases.join('; '));
  const inTable = runner.schedule.workload === Workload.Analyze ? [] : await tableCheckpoints(world.db);
  const checkpoints = [...leftoverCheckpoints(world.home), ...inTable];
  if (checkpoints.length > 0) violate(Invariant.Checkpoint, checkpoints.join(', '));
}

function traceOf(runner: ScheduleRunner): string[] {
  return runner.calls.map((c) => {
    const envelope = c.envelope;
    const job = (envelope?.data as { job_id?: string } | null | undefined)?.job_id;
    const end = envelope
      ? `exit ${envelope.meta.exit_code}${envelope.error ? ` ${envelope.error.code}` : ''}${job ? ` (${job})` : ''}`
      : `no envelope (exit ${c.run?.code}, signal ${c.run?.signal})`;
    const sent = c.sent.length > 0 ? ` [sent ${c.sent.join(',')}]` : '';
    return `${c.label} (pid ${c.pid ?? '-'})${sent}: ${end}`;
  });
}

/** Runs the schedule of a seed in `dir` (removed afterwards) and gives its verdict. */
export async function runSchedule(seed: number, declared: Declared, dir: string): Promise<Verdict> {
  const schedule = generateSchedule(seed);
  const world = faultWorld(dir, schedule.slowSave);
  try {
    writeFaultCsv(world.input, schedule.csv, schedule.workload);
    const input = csvRecords(readFileSync(world.input, 'utf8'));
    const reference = schedule.workload === Workload.Analyze ? await referenceAnalysis(world, schedule) : undefined;
    const runner = new ScheduleRunner(schedule, world, declared, input);
    for (const [k, step] of schedule.steps.entries()) await runner.step(step, k);
    const { lost, doubled } = await checkResult(runner, world, input, reference);
    await checkLeftovers(runner, world);
    return {
      schedule,
      violations: runner.violations,
      stalls: runner.stalls.length,
      startupDeaths: runner.startupDeaths,
      calls: runner.calls.length,
      kills: runner.kills,
      rowsLost: lost,
      rowsDoubled: doubled,
      improperAnswers: runner.violations.filter((v) => IMPROPER.includes(v.invariant)).length,
      trace: traceOf(runner),
    };
  } finally {
    // Should a check itself have thrown: no process of this schedule outlives it.
    for (const p of processesOf(world.home)) process.kill(p.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A failed verdict for people: the schedule, every finding, every call. */
export function describeVerdict(verdict: Verdict): string {
  return [
    describeSchedule(verdict.schedule),
    'violations:',
    ...verdict.violations.map((v) => `  [${v.invariant}] ${v.detail}`),
    'calls:',
    ...verdict.trace.map((line) => `  ${line}`),
  ].join('\n');
}
