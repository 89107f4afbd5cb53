// Are budgets kept? Calls of analyze (which detaches at its budget) and import (which pauses) at budgets of
// 500 ms, 1 s and 5 s, each call timed twice: `meta.duration_ms` (what the call reports: from its start to
// its answer) and the caller's view (spawn to exit, Node's start-up and the process's end included). Figures:
// p50, p99 and max of each, and the share of calls whose answer came within the budget.
//
//   BENCH_BUDGET_CALLS=100   calls per case (default 100)
//   BENCH_BUDGET_SPIN=2      that many processes spinning on a core beside the calls (the loaded case)
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { STINT_BIN } from '../test/helpers/paths.js';
import { timeCommand, type Figure } from './measure.js';
import { dataFile, home } from './suites.js';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const BUDGETS_MS = [500, 1_000, 5_000] as const;

interface Answer {
  readonly meta: { readonly exit_code: number; readonly duration_ms: number };
  readonly data: { readonly job_id?: string; readonly continue_command?: string } | null;
}

/** One call's two times. */
interface Timing {
  readonly reported: number;
  readonly caller: number;
}

/** The `q` quantile of `values` (nearest rank: p99 of 100 calls is the 99th smallest). */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

async function call(args: readonly string[], state: string): Promise<{ timing: Timing; answer: Answer }> {
  const run = await timeCommand(process.execPath, [STINT_BIN, ...args], { STINT_HOME: state });
  const answer = JSON.parse(run.stdout) as Answer;
  return { timing: { reported: answer.meta.duration_ms, caller: run.ms }, answer };
}

/** analyze's first call on a fresh state folder, each time; its background job is cancelled before the next. */
async function analyzeCalls(file: string, budgetMs: number, calls: number): Promise<Timing[]> {
  const timings: Timing[] = [];
  for (let k = 0; k < calls; k++) {
    const state = home('budget-analyze');
    const { timing, answer } = await call(['analyze', file, '--budget', `${budgetMs}ms`], state);
    timings.push(timing);
    const id = answer.data?.job_id;
    if (answer.meta.exit_code === 14 && id) {
      const cancel = [STINT_BIN, 'job', 'cancel', id, '--yes', '--budget', '0'];
      await timeCommand(process.execPath, cancel, { STINT_HOME: state });
    }
    rmSync(state, { recursive: true, force: true });
  }
  return timings;
}

/** import calls as an agent makes them: the call, then its continue_command; a new import once one finishes. */
async function importCalls(file: string, budgetMs: number, calls: number): Promise<Timing[]> {
  const timings: Timing[] = [];
  let fresh = true;
  let state = '';
  let table = '';
  for (let k = 0; k < calls; k++) {
    if (fresh) {
      state = home('budget-import');
      table = join(state, 'table.db');
    }
    const { timing, answer } = await call(['import', file, '--into', table, '--budget', `${budgetMs}ms`], state);
    timings.push(timing);
    fresh = answer.meta.exit_code !== 14;
    if (fresh) rmSync(state, { recursive: true, force: true });
  }
  rmSync(state, { recursive: true, force: true });
  return timings;
}

function figuresOf(command: string, budgetMs: number, timings: readonly Timing[], spin: number): Figure[] {
  const name = `${command} at ${budgetMs} ms${spin ? `, ${spin} spinning` : ''}`;
  const late = spin ? 500 : 100;
  const of = (pick: (t: Timing) => number, what: string, target?: string): Figure => {
    const values = timings.map(pick);
    const within = values.filter((v) => v <= budgetMs).length / values.length;
    const detail = `p50 ${quantile(values, 0.5).toFixed(0)} ms, p99 ${quantile(values, 0.99).toFixed(0)} ms, `
      + `${(within * 100).toFixed(0)} % within the budget, ${values.length} calls`;
    return { suite: 'budget', name: `${name}: ${what} max`, value: Math.max(...values), unit: 'ms', detail,
      ...(target ? { target } : {}) };
  };
  return [
    of((t) => t.reported, 'meta.duration_ms', `99 % <= ${budgetMs}, max <= ${budgetMs + late}`),
    of((t) => t.caller, 'spawn to exit'),
  ];
}

/** Processes that keep a core each busy while the calls run. */
function spinners(count: number): ChildProcess[] {
  return Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

export async function budgetSuite(gib: number): Promise<Figure[]> {
  const calls = Number(process.env['BENCH_BUDGET_CALLS'] ?? 100);
  const spin = Number(process.env['BENCH_BUDGET_SPIN'] ?? 0);
  // Large enough that no call finishes the work within 5 s.
  const analyzed = dataFile('big', Math.round(gib * GiB));
  const imported = dataFile('import', 300 * MiB);
  const busy = spinners(spin);
  const figures: Figure[] = [];
  try {
    for (const budgetMs of BUDGETS_MS) {
      figures.push(...figuresOf('analyze', budgetMs, await analyzeCalls(analyzed, budgetMs, calls), spin));
      figures.push(...figuresOf('import', budgetMs, await importCalls(imported, budgetMs, calls), spin));
    }
  } finally {
    for (const spinner of busy) spinner.kill('SIGKILL');
  }
  return figures;
}
