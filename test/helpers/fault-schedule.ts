// Random fault schedules from a seed: which work, which input, and which
// faults land on which call. Pure and deterministic (mulberry32, never
// Math.random), so a failing seed replays the same schedule.
import { random } from './csv-generator.js';

/** The work a schedule drives to its end. */
export const Workload = { Append: 'import-append', Upsert: 'import-upsert', Analyze: 'analyze' } as const;
export type Workload = (typeof Workload)[keyof typeof Workload];

/** What happens to the call (or calls) of one step. */
export const Fault = {
  /** Nothing but the step's own budget: it may run out at any moment. */
  Budget: 'budget',
  Sigint: 'sigint',
  Sigterm: 'sigterm',
  KillFront: 'kill9-front',
  /** analyze only: after a 14 `running`, kill -9 the detached supervisor. */
  KillSupervisor: 'kill9-supervisor',
  /** `stint job cancel <id>` of the step's job, while it runs or once it paused. */
  Cancel: 'cancel',
  /** The same command line twice in a row. */
  Repeat: 'repeat',
  /** The same command line twice at once. */
  Concurrent: 'concurrent',
  /** import only: `stint export` of the table, alone or beside an import call, maybe signalled. */
  Export: 'export',
} as const;
export type Fault = (typeof Fault)[keyof typeof Fault];

/** What a signal aimed at an export is. */
export const ExportFault = { None: 'none', Sigint: 'sigint', Sigterm: 'sigterm', Kill: 'kill9' } as const;
export type ExportFault = (typeof ExportFault)[keyof typeof ExportFault];

/** When a signal, kill or cancel lands: some ms after the spawn, or after the first progress line. */
export const Anchor = { Spawn: 'spawn', Progress: 'progress' } as const;
export type Anchor = (typeof Anchor)[keyof typeof Anchor];

/** Which command line a step runs: the last continue_command (if any), or the original call. */
export const Target = { Continue: 'continue', Original: 'original' } as const;
export type Target = (typeof Target)[keyof typeof Target];

export interface CsvPlan {
  readonly seed: number;
  readonly rows: number;
  readonly columns: number;
  /** Chance that a string field holds a (quoted) newline. */
  readonly newlines: number;
  readonly crlf: boolean;
  /** Distinct values of the key column (upsert: fewer than rows, so keys repeat). */
  readonly keys: number;
}

export interface ExportPlan {
  readonly fault: ExportFault;
  /** Run beside an import call of the step (else alone). */
  readonly besideImport: boolean;
  /** The --output path is a symlink to another file. */
  readonly symlink: boolean;
  /** Used only when the built export declares --budget. */
  readonly budgetMs: number;
}

export interface Step {
  readonly fault: Fault;
  /** The --budget of the step's calls, in ms; 0 = none (only with a signal, kill or cancel). */
  readonly budgetMs: number;
  readonly target: Target;
  readonly anchor: Anchor;
  readonly delayMs: number;
  readonly export?: ExportPlan;
}

export interface Schedule {
  readonly seed: number;
  readonly workload: Workload;
  readonly csv: CsvPlan;
  readonly chunkSize: string;
  readonly workers: number;
  /** Every call names the same --idempotency-key (else the writer derives its own). */
  readonly explicitKey: boolean;
  readonly steps: readonly Step[];
  /** The --budget of the original call when the schedule drives the work to its end. */
  readonly driveBudgetMs: number;
  /**
   * analyze only: every `every`th checkpoint save of a call takes `ms` longer (STINT_TEST_SLOW_SAVE), so budgets
   * end with a save in flight and their stops are forced, answered from the last checkpoint.
   */
  readonly slowSave?: { readonly every: number; readonly ms: number };
}

const COMMON_FAULTS = [Fault.Budget, Fault.Sigint, Fault.Sigterm, Fault.KillFront, Fault.Cancel, Fault.Repeat, Fault.Concurrent];
const FAULTS_OF: Readonly<Record<Workload, readonly Fault[]>> = {
  [Workload.Append]: [...COMMON_FAULTS, Fault.Export],
  [Workload.Upsert]: [...COMMON_FAULTS, Fault.Export],
  [Workload.Analyze]: [...COMMON_FAULTS, Fault.KillSupervisor],
};
/** A few hundred ms: never tuned to the machine, the invariants hold wherever it lands. */
const BUDGETS_MS = [150, 250, 400, 600, 900] as const;
const CHUNK_SIZES = ['4KiB', '8KiB', '16KiB', '64KiB'] as const;
/** Faults that end a call on their own, so the call may run without a budget. */
const STOPPING: readonly Fault[] = [Fault.Sigint, Fault.Sigterm, Fault.KillFront, Fault.Cancel];

/** The seeds CI runs: a fixed set that covers every workload, every fault and slow saves (a unit test keeps it so). */
export const CI_SEEDS: readonly number[] = [1, 2, 3, 7, 8, 10, 28, 30, 39, 43, 45, 51, 53, 375];

type Rnd = () => number;
const pick = <T>(rnd: Rnd, items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
const between = (rnd: Rnd, low: number, high: number): number => low + Math.floor(rnd() * (high - low + 1));

/** Rows per chunk size: small chunks (a synced commit each) get small files, so a schedule stays short. */
const ROWS_OF_CHUNK: Readonly<Record<(typeof CHUNK_SIZES)[number], readonly [number, number]>> = {
  '4KiB': [20, 30],
  '8KiB': [20, 50],
  '16KiB': [30, 80],
  '64KiB': [50, 150],
};

function csvPlan(rnd: Rnd, workload: Workload, chunkSize: (typeof CHUNK_SIZES)[number]): CsvPlan {
  const [low, high] = ROWS_OF_CHUNK[chunkSize];
  const rows = between(rnd, low, high) * 1000;
  return {
    seed: between(rnd, 1, 2 ** 31 - 1),
    rows,
    columns: between(rnd, 3, 6),
    newlines: pick(rnd, [0, 0.02, 0.05]),
    crlf: rnd() < 0.3,
    keys: workload === Workload.Upsert ? Math.max(10, Math.floor(rows * pick(rnd, [0.05, 0.3, 0.7]))) : rows,
  };
}

function exportPlan(rnd: Rnd): ExportPlan {
  return {
    fault: pick(rnd, Object.values(ExportFault)),
    besideImport: rnd() < 0.5,
    symlink: rnd() < 0.3,
    budgetMs: pick(rnd, BUDGETS_MS),
  };
}

function step(rnd: Rnd, workload: Workload): Step {
  const fault = pick(rnd, FAULTS_OF[workload]);
  const unbounded = STOPPING.includes(fault) && rnd() < 0.5;
  return {
    fault,
    budgetMs: unbounded ? 0 : pick(rnd, BUDGETS_MS),
    target: rnd() < 0.6 ? Target.Continue : Target.Original,
    anchor: rnd() < 0.35 ? Anchor.Spawn : Anchor.Progress,
    delayMs: between(rnd, 0, 400),
    ...(fault === Fault.Export ? { export: exportPlan(rnd) } : {}),
  };
}

/** The schedule of a seed: the same seed always gives the same schedule. */
export function generateSchedule(seed: number): Schedule {
  const rnd = random(seed);
  const workload = pick(rnd, Object.values(Workload));
  const chunkSize = pick(rnd, CHUNK_SIZES);
  const csv = csvPlan(rnd, workload, chunkSize);
  const workers = between(rnd, 1, 2);
  const explicitKey = workload !== Workload.Analyze && rnd() < 0.5;
  const steps = Array.from({ length: between(rnd, 2, 5) }, () => step(rnd, workload));
  const driveBudgetMs = pick(rnd, BUDGETS_MS);
  // Drawn last, so that every other part of a seed's schedule is what it was before slow saves existed.
  const slowSave = slowSavePlan(rnd, workload, chunkSize);
  const slow = slowSave ? { slowSave } : {};
  return { seed, workload, csv, chunkSize, workers, explicitKey, steps, driveBudgetMs, ...slow };
}

/** Slow saves on half the analyze schedules of larger chunks: about ten of them a pass, so a schedule stays short. */
function slowSavePlan(rnd: Rnd, workload: Workload, chunkSize: (typeof CHUNK_SIZES)[number]): Schedule['slowSave'] {
  if (workload !== Workload.Analyze || rnd() < 0.5) return undefined;
  const every = ({ '4KiB': [40, 60], '8KiB': [20, 30], '16KiB': [10, 20], '64KiB': [3, 6] } as const)[chunkSize];
  return { every: pick(rnd, every), ms: pick(rnd, [300, 700]) };
}

function describeStep(s: Step, k: number): string {
  const when = `${s.anchor === Anchor.Spawn ? 'spawn' : 'progress'}+${s.delayMs}ms`;
  const e = s.export;
  const exp = e ? ` export(${e.fault}${e.besideImport ? ', beside import' : ''}${e.symlink ? ', symlink' : ''})` : '';
  return `  ${k + 1}. ${s.fault} budget=${s.budgetMs}ms target=${s.target} at=${when}${exp}`;
}

const slowSaveText = ({ slowSave: slow }: Schedule) => (slow ? `, every ${slow.every}th save ${slow.ms}ms slower` : '');

/** The schedule for people: what ran, and the line that replays it. */
export function describeSchedule(s: Schedule): string {
  const c = s.csv;
  return [
    `seed ${s.seed}: ${s.workload}, ${c.rows} rows x ${c.columns + 1} columns ` +
      `(csv seed ${c.seed}, keys ${c.keys}, newlines ${c.newlines}${c.crlf ? ', CRLF' : ''}), ` +
      `chunk ${s.chunkSize}, workers ${s.workers}${s.explicitKey ? ', explicit --idempotency-key' : ''}, ` +
      `drive budget ${s.driveBudgetMs}ms${slowSaveText(s)}`,
    ...s.steps.map(describeStep),
    `replay: STINT_FAULT_SEED=${s.seed} node --test --test-timeout=300000 build/test/cli/fault-injection.test.js`,
  ].join('\n');
}
