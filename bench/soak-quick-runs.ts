// Many quick default-worker calls in a row: does every call answer? Counts the
// calls with no answer (empty stdout), an exit code outside the table (a
// signal, an abort), or an answer that is not one parseable envelope whose
// meta.exit_code is the process's exit code.
//   node build/bench/soak-quick-runs.js [--runs 2000] [--parallel 1|2] [--file fixtures/csv/cities.csv]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ExitCode, SignalExitCode } from '../src/contract/exit-code.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STINT_BIN = join(REPO_ROOT, 'build', 'src', 'bin', 'stint.js');
const TABLE = new Set<number>([...Object.values(ExitCode), ...Object.values(SignalExitCode)]);

/** What went wrong with one call, or nothing. */
export const Fault = {
  NoAnswer: 'no_answer',
  ExitOutsideTable: 'exit_outside_table',
  BadEnvelope: 'bad_envelope',
} as const;
export type Fault = (typeof Fault)[keyof typeof Fault];

export interface SoakOptions {
  readonly runs: number;
  /** Calls at a time. */
  readonly parallel: number;
  readonly file: string;
}

export interface Sample {
  readonly fault: Fault;
  readonly code: number | null;
  readonly signal: string | null;
  readonly stderr: string;
}

export interface SoakReport {
  readonly runs: number;
  readonly parallel: number;
  readonly [Fault.NoAnswer]: number;
  readonly [Fault.ExitOutsideTable]: number;
  readonly [Fault.BadEnvelope]: number;
  /** Calls that answered properly with an exit code other than 0, by code. */
  readonly nonzero: Record<string, number>;
  /** The first few faulty calls: exit code or signal and the head of stderr. */
  readonly samples: readonly Sample[];
}

interface Call {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

function call(file: string, home: string): Promise<Call> {
  return new Promise((done, fail) => {
    const env: NodeJS.ProcessEnv = { ...process.env, STINT_HOME: home };
    delete env['AGENT_CALL_BUDGET_MS'];
    const child = spawn(process.execPath, [STINT_BIN, 'analyze', file], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.stdin.on('error', () => {});
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
}

/** The call's fault, if any. */
export function faultOf(run: Call): Fault | undefined {
  if (run.stdout.trim() === '') return Fault.NoAnswer;
  if (run.code === null || !TABLE.has(run.code)) return Fault.ExitOutsideTable;
  const lines = run.stdout.trimEnd().split('\n');
  if (lines.length !== 1) return Fault.BadEnvelope;
  try {
    const envelope = JSON.parse(lines[0]!) as { ok?: unknown; meta?: { exit_code?: unknown } };
    return typeof envelope.ok === 'boolean' && envelope.meta?.exit_code === run.code ? undefined : Fault.BadEnvelope;
  } catch {
    return Fault.BadEnvelope;
  }
}

/** The counts so far, kept as the calls end. */
class Tally {
  readonly faults: Record<Fault, number> = { [Fault.NoAnswer]: 0, [Fault.ExitOutsideTable]: 0, [Fault.BadEnvelope]: 0 };
  readonly nonzero: Record<string, number> = {};
  readonly samples: Sample[] = [];
  done = 0;

  add(run: Call): void {
    this.done++;
    const fault = faultOf(run);
    if (fault) {
      this.faults[fault]++;
      const sample = { fault, code: run.code, signal: run.signal, stderr: run.stderr.slice(0, 600) };
      if (this.samples.length < 5) this.samples.push(sample);
    } else if (run.code !== ExitCode.SUCCESS) {
      this.nonzero[String(run.code)] = (this.nonzero[String(run.code)] ?? 0) + 1;
    }
  }
}

/** Runs the calls, `parallel` at a time, each lane with its own state folder, and counts the faults. */
export async function soak(options: SoakOptions, onCall?: (done: number, faulty: number) => void): Promise<SoakReport> {
  const root = mkdtempSync(join(tmpdir(), 'stint-soak-'));
  const tally = new Tally();
  let started = 0;
  // Two identical calls in one state folder would share one job rather than run two pools side by side.
  const lane = async (_: unknown, laneIndex: number): Promise<void> => {
    while (started < options.runs) {
      started++; // claimed before the await, so that the lanes together make exactly `runs` calls
      tally.add(await call(options.file, join(root, `lane-${laneIndex}`)));
      onCall?.(tally.done, Object.values(tally.faults).reduce((a, b) => a + b, 0));
    }
  };
  try {
    await Promise.all(Array.from({ length: options.parallel }, lane));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const { faults, nonzero, samples } = tally;
  return { runs: tally.done, parallel: options.parallel, ...faults, nonzero, samples };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '2000' },
      parallel: { type: 'string', default: '2' },
      file: { type: 'string' },
    },
  });
  const file = resolve(values.file ?? join(REPO_ROOT, 'fixtures', 'csv', 'cities.csv'));
  const progress = (done: number, faulty: number) => {
    if (done % 100 === 0) process.stderr.write(`${done} calls, ${faulty} faulty\n`);
  };
  const report = await soak({ runs: Number(values.runs), parallel: Number(values.parallel), file }, progress);
  process.stdout.write(`${JSON.stringify(report)}\n`);
  const bad = report[Fault.NoAnswer] + report[Fault.ExitOutsideTable] + report[Fault.BadEnvelope];
  process.exitCode = bad === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
