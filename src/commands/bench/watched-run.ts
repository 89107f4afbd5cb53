import { spawn } from 'node:child_process';
import { StintError } from '../../contract/stint-error.js';
import { CHECKPOINT_INTERVAL_ENV } from '../../runtime/call/call-checkpoint.js';
import { StintCode } from '../stint-codes.js';

/** A command to measure, as words (no shell), with where and how it runs. */
export interface Target {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** When a watched run is sent SIGINT (at most once): at its first new progress, or once past a fraction. */
export type StopPolicy = { readonly kind: 'first' } | { readonly kind: 'past'; readonly fraction: number };

/** What one run showed on its heartbeat lines, and how it ended. */
export interface Watched {
  /** ms from spawn to the first report past `start`; undefined when none came. */
  readonly firstMs: number | undefined;
  /** Where the run started: 0 fresh, else its first report (a continuation reports its checkpoint first). */
  readonly start: number | undefined;
  readonly total: number | undefined;
  readonly last: number;
  readonly exitCode: number | null;
  /** The run's answer (the last line of stdout that parses as JSON). */
  readonly envelope: Record<string, unknown> | undefined;
  readonly stderrTail: string;
}

/** A heartbeat line that ends with its exact figures: `... 3.1 MiB/s, ETA 5s [12582912/30000000 bytes]`. */
const EXACT_AT_END = /\[(\d+)\/(\d+)[^\]]*\]\s*$/;
/** One that holds them in its body: `[0.8s] stint analyze: 5242998/33554450 bytes (15%)`. */
const EXACT_INSIDE = /(\d+)\/(\d+)/;

/** The done and total a `--heartbeat-ms` line shows, or undefined for any other line. */
export function progressOfLine(line: string): { done: number; total: number } | undefined {
  const match = EXACT_AT_END.exec(line) ?? EXACT_INSIDE.exec(line);
  return match ? { done: Number(match[1]), total: Number(match[2]) } : undefined;
}
/** Every millisecond: a heartbeat line shows a report at most this long after it was made. */
export const HEARTBEAT_MS = 1;

function lastJson(stdout: string): Record<string, unknown> | undefined {
  for (const line of stdout.trim().split('\n').reverse()) {
    try {
      const value: unknown = JSON.parse(line);
      if (value && typeof value === 'object') return value as Record<string, unknown>;
    } catch {
      // not this line
    }
  }
  return undefined;
}

/**
 * Runs the target with no budget and a heartbeat every millisecond, timing
 * from spawn to the first progress past where it started (the observation
 * costs at most HEARTBEAT_MS plus a pipe read), and sends SIGINT as `stop` says.
 */
export function watchRun(target: Target, stop: StopPolicy, fresh: boolean): Promise<Watched> {
  const args = [...target.argv.slice(1), '--budget', '0', '--heartbeat-ms', String(HEARTBEAT_MS)];
  // Progress is published once it is kept: a checkpoint at every safe point shows each one as it comes.
  const env = { ...target.env, [CHECKPOINT_INTERVAL_ENV]: '0' };
  // A benchmark times the machine itself: its own clock, not a Host's.
  const started = performance.now();
  const child = spawn(target.argv[0]!, args, { cwd: target.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let firstMs: number | undefined;
  let start: number | undefined = fresh ? 0 : undefined;
  let total: number | undefined;
  let last = 0;
  let signalled = false;
  let stdout = '';
  let pending = '';
  let stderrTail = '';
  const onLine = (line: string) => {
    const shown = progressOfLine(line);
    if (!shown) return;
    const { done } = shown;
    total = shown.total;
    last = done;
    start ??= done;
    if (firstMs === undefined && done > start) firstMs = performance.now() - started;
    const due = stop.kind === 'first' ? firstMs !== undefined : total > 0 && done >= stop.fraction * total;
    if (due && !signalled) signalled = child.kill('SIGINT');
  };
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    const lines = (pending + text).split('\n');
    pending = lines.pop()!;
    stderrTail = (stderrTail + text).slice(-2000);
    for (const line of lines) onLine(line);
  });
  return new Promise((resolve, reject) => {
    child.on('error', (error) => reject(new StintError(StintCode.BenchTargetFailed,
      `${target.argv[0]} could not be started: ${error.message}`, { context: { command: target.argv[0] } })));
    child.on('close', (code) => {
      onLine(pending);
      resolve({ firstMs, start, total, last, exitCode: code, envelope: lastJson(stdout), stderrTail });
    });
  });
}

/** Runs a command line an answer gave (`cancel_command`) through the shell, as its caller would. */
export function runShell(command: string, target: Target): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: target.cwd, env: target.env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
}
