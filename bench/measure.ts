// Small timing helpers shared by the suites: every figure is a ratio
// against a baseline run in the same process, on the same machine and file.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';

export interface Timed {
  readonly ms: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  /** Peak resident set size in KiB, from GNU time, when asked for. */
  readonly peakRssKiB?: number;
}

/** Runs a command to its end; with `rss`, under /usr/bin/time to read its peak RSS. */
export function timeCommand(file: string, args: readonly string[], env: Record<string, string | undefined> = {}, rss = false): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const [cmd, cmdArgs] = rss ? ['/usr/bin/time', ['-f', 'STINT_BENCH_RSS=%M', file, ...args]] : [file, [...args]];
    const started = performance.now();
    const child = spawn(cmd, cmdArgs as string[], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      const match = /STINT_BENCH_RSS=(\d+)/.exec(stderr);
      resolve({ ms, stdout, stderr, code, ...(match ? { peakRssKiB: Number(match[1]) } : {}) });
    });
  });
}

/** A whole process's wall time, CPU time (user + system, every thread) and peak RSS, from GNU time. */
export interface ProcessCost {
  readonly wallMs: number;
  readonly cpuMs: number;
  /** Absent for work measured inside this process (its peak is this process's, not the work's). */
  readonly rssMiB?: number;
}

/** Runs `node args...` (or `file args...`) under GNU time to its end; rejects unless it exits 0. */
export function underGnuTime(
  args: readonly string[], env: Record<string, string>, file = process.execPath,
): Promise<Required<ProcessCost>> {
  const timed = ['-f', 'STINT_BENCH_COST %e %U %S %M', file, ...args];
  return new Promise((resolve, reject) => {
    const merged = { ...process.env, ...env };
    const child = spawn('/usr/bin/time', timed, { env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const match = /STINT_BENCH_COST ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      const failed = `${file} ${args[0]} ${args[1]} failed (${code}): ${stderr.slice(0, 300)}`;
      if (code !== 0 || !match) return reject(new Error(failed));
      const [, wall, user, system, rss] = match.map(Number) as number[];
      resolve({ wallMs: wall! * 1000, cpuMs: (user! + system!) * 1000, rssMiB: rss! / 1024 });
    });
  });
}

/** Work run in this process (DuckDB, polars): its CPU time is this process's over the call, every thread. */
export async function inThisProcess(work: () => Promise<unknown>): Promise<ProcessCost> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/** One side of a comparison: a name, and a run of it measured. */
export type Step = readonly [name: string, run: () => Promise<ProcessCost>];

/** Each step's runs, and the load average before and after them. */
export interface Rounds {
  readonly runs: Record<string, ProcessCost[]>;
  readonly load: string;
}

/** Runs the steps in rounds, every other round backwards, so that a machine whose load drifts favours none. */
export async function alternatingRounds(steps: readonly Step[], rounds: number): Promise<Rounds> {
  const runs: Record<string, ProcessCost[]> = Object.fromEntries(steps.map(([name]) => [name, []]));
  const before = loadavg()[0]!;
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of round % 2 ? [...steps].reverse() : steps) runs[name]!.push(await run());
  }
  return { runs, load: `load average ${before.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after` };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const mbps = (bytes: number, ms: number): number => bytes / 1e6 / (ms / 1000);

/** One line of the report: a name, a figure, and the target it is held to. */
export interface Figure {
  readonly suite: string;
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly target?: string;
  readonly detail?: string;
}

export function printFigures(figures: readonly Figure[]): void {
  for (const f of figures) {
    const value = f.unit === 'x' ? `${f.value.toFixed(2)}x` : `${f.value.toFixed(f.value >= 100 ? 0 : 2)} ${f.unit}`;
    console.log(`${f.suite.padEnd(8)} ${f.name.padEnd(58)} ${value.padStart(14)}${f.target ? `  (target ${f.target})` : ''}${f.detail ? `  ${f.detail}` : ''}`);
  }
}
