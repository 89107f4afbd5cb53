// The model a fault schedule is checked against: the input it writes, the
// table an import of it must leave (append or upsert by key, exactly once),
// the exit codes each command may answer, and the error codes a schedule's
// faults can explain.
import { writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { random, valueOf } from './csv-generator.js';
import { Workload, type CsvPlan } from './fault-schedule.js';

/** The key column every generated file starts with: unique per row (append), repeating (upsert). */
export const KEY_COLUMN = 'k';
const VALUE_KINDS = ['integer', 'decimal', 'exponent', 'boolean', 'string', 'mixed', 'empty', 'bigint'] as const;

/** Writes the schedule's input: a key column, then generated values (quoted commas, newlines, Unicode...). */
export function writeFaultCsv(path: string, plan: CsvPlan, workload: Workload): void {
  const rnd = random(plan.seed);
  const eol = plan.crlf ? '\r\n' : '\n';
  const kinds = Array.from({ length: plan.columns }, () => VALUE_KINDS[Math.floor(rnd() * VALUE_KINDS.length)]!);
  const lines = [[KEY_COLUMN, ...kinds.map((kind, k) => `${kind}_${k}`)].join(',')];
  for (let row = 0; row < plan.rows; row++) {
    const key = workload === Workload.Upsert ? `u${Math.floor(rnd() * plan.keys)}` : `r${row}`;
    lines.push([key, ...kinds.map((kind) => valueOf(kind, rnd, plan.newlines, eol))].join(','));
  }
  writeFileSync(path, lines.join(eol) + eol);
}

/** CSV text as records (header first), read the way the tests read every CSV. */
export const csvRecords = (text: string): string[][] => parse(text, { bom: true, skip_empty_lines: true }) as string[][];

/**
 * What the table must hold after the whole schedule, header first.
 * Append: every input row once, in file order. Upsert: one row per key, at
 * the place (id) its key first got, holding the last row with that key.
 */
export function expectedTable(input: readonly string[][], workload: Workload): string[][] {
  if (workload !== Workload.Upsert) return [...input];
  const [header, ...rows] = input;
  const byKey = new Map<string, string[]>();
  for (const row of rows) byKey.set(row[0]!, row);
  return [header!, ...byKey.values()];
}

/** How an exported table differs from the expected one, row by row (by the key column). */
export interface TableDiff {
  readonly lost: number;
  readonly doubled: number;
  /** Rows present once whose values or place are wrong. */
  readonly wrong: number;
  readonly headerOk: boolean;
  /** The first few differences, for the report. */
  readonly examples: string[];
}

export function diffTables(actual: readonly string[][], expected: readonly string[][]): TableDiff {
  const examples: string[] = [];
  const note = (text: string) => examples.length < 5 && examples.push(text);
  const headerOk = JSON.stringify(actual[0]) === JSON.stringify(expected[0]);
  const seen = new Map<string, number>();
  for (const row of actual.slice(1)) seen.set(row[0]!, (seen.get(row[0]!) ?? 0) + 1);
  let lost = 0;
  let doubled = 0;
  for (const row of expected.slice(1)) {
    const count = seen.get(row[0]!) ?? 0;
    if (count === 0) {
      lost++;
      note(`key ${row[0]} lost`);
    }
    if (count > 1) {
      doubled += count - 1;
      note(`key ${row[0]} ${count} times`);
    }
  }
  let wrong = 0;
  if (lost === 0 && doubled === 0) {
    expected.slice(1).forEach((row, k) => {
      const got = actual[k + 1];
      if (JSON.stringify(got) === JSON.stringify(row)) return;
      wrong++;
      note(`row ${k + 1}: ${JSON.stringify(got)} != ${JSON.stringify(row)}`);
    });
  }
  return { lost, doubled, wrong, headerOk, examples };
}

/**
 * Whether an export taken mid-schedule is a state the table can have been
 * in: the header, then (append) a prefix of the input, or (upsert) a prefix
 * of the keys in first-seen order, each row one the input held for its key.
 */
export function isConsistentSnapshot(
  snapshot: readonly string[][],
  input: readonly string[][],
  workload: Workload,
): boolean {
  if (JSON.stringify(snapshot[0]) !== JSON.stringify(input[0])) return false;
  if (workload !== Workload.Upsert) return snapshot.every((row, k) => JSON.stringify(row) === JSON.stringify(input[k]));
  const versions = new Map<string, Set<string>>();
  for (const row of input.slice(1)) {
    if (!versions.has(row[0]!)) versions.set(row[0]!, new Set());
    versions.get(row[0]!)!.add(JSON.stringify(row));
  }
  const order = [...versions.keys()];
  return snapshot.slice(1).every((row, k) => row[0] === order[k] && versions.get(row[0]!)!.has(JSON.stringify(row)));
}

/** The command a command line runs, as the manifest names it. */
export const CommandName = {
  Import: 'import',
  Analyze: 'analyze',
  Export: 'export',
  JobWait: 'job.wait',
  JobCancel: 'job.cancel',
} as const;
export type CommandName = (typeof CommandName)[keyof typeof CommandName];

export function commandOfLine(line: string): CommandName {
  if (/ job wait /.test(line)) return CommandName.JobWait;
  if (/ job cancel /.test(line)) return CommandName.JobCancel;
  if (/ export /.test(line)) return CommandName.Export;
  return / import /.test(line) ? CommandName.Import : CommandName.Analyze;
}

/** Exit codes a signal handler may answer with, allowed only for a call that got that signal. */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

interface ManifestShape {
  readonly exit_codes: Record<string, unknown>;
  readonly commands: Record<string, { exit_codes: Record<string, unknown>; flags?: Record<string, unknown> }>;
}

/** What the built command declares, read from `stint manifest`. */
export interface Declared {
  /** Exit codes a call of this command may end with when no signal reached it. */
  exitsOf(command: CommandName): Set<number>;
  /** Whether the command takes this flag (export gains --budget once it honours one). */
  hasFlag(command: CommandName, flag: string): boolean;
}

export function declaredFrom(manifest: ManifestShape): Declared {
  const signalled: readonly number[] = Object.values(SIGNAL_EXIT);
  const global = Object.keys(manifest.exit_codes).map(Number).filter((code) => !signalled.includes(code));
  return {
    exitsOf: (command) => new Set([...global, ...Object.keys(manifest.commands[command]?.exit_codes ?? {}).map(Number)]),
    hasFlag: (command, flag) => Object.hasOwn(manifest.commands[command]?.flags ?? {}, flag),
  };
}

/** Error codes the faults of a schedule explain; any other one is a finding. */
export const EXPLAINED_ERRORS = {
  Incomplete: 'INCOMPLETE',
  /** Another process of the schedule holds the table. */
  Locked: 'DATABASE_LOCKED',
  /** Only after a SIGINT, or after a `job cancel` of the schedule. */
  Cancelled: 'CANCELLED',
  /** Only after a kill -9 of the schedule. */
  Lost: 'JOB_LOST',
} as const;

/** The invariants a schedule is checked against, by the name a report gives them. */
export const Invariant = {
  /** Every call that was not kill -9'd printed exactly one valid envelope (exit code = meta.exit_code, ok iff 0). */
  Envelope: 'one-valid-envelope',
  /** A SIGINT or SIGTERM that reached a call got an answer, not a death by that signal. */
  SignalAnswered: 'signal-answered',
  /** The exit code is in the table and declared by the call's command; 130/143 only for a call that got SIGINT/SIGTERM. */
  ExitCode: 'declared-exit-code',
  /** Every error code is one the schedule's faults explain. */
  ExplainedError: 'explained-error',
  /** progress.done of a job never goes back between answers. */
  Progress: 'progress-never-decreases',
  /** Following continue_command makes progress: never three continuations without growth. */
  Liveness: 'liveness',
  /** The work ends (exit 0, coverage complete) when driven to its end. */
  FinalAnswer: 'final-answer',
  /** The table holds every input row exactly once (append), or one row per key with its last value (upsert). */
  ExactlyOnce: 'exactly-once',
  /** analyze's final data equals an uninterrupted `--budget 0` run's. */
  AnalyzeEqual: 'analyze-equals-uninterrupted',
  /** An export either writes a state the table had, or leaves the output as it was. */
  ExportAtomic: 'export-atomic',
  /** An export to a symlink leaves the symlink in place. */
  ExportSymlink: 'export-keeps-symlink',
  /** No stint process of the schedule's STINT_HOME outlives it. */
  Orphans: 'no-orphan-process',
  /** No job is left running or paused. */
  StaleJobs: 'no-stale-job',
  /** No lease is left behind in a job folder (a kill -9'd holder's lease is harmless to the runtime, but stale). */
  StaleLease: 'no-stale-lease',
  /** No checkpoint is left behind once the work ended (STINT_HOME/checkpoints, ckpt: keys in the table). */
  Checkpoint: 'no-leftover-checkpoint',
  /** No call outlived the harness's guard. */
  Hang: 'no-hang',
} as const;
export type Invariant = (typeof Invariant)[keyof typeof Invariant];

export interface Violation {
  readonly invariant: Invariant;
  readonly detail: string;
}
