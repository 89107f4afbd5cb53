// Small timing helpers shared by the suites: every figure is a ratio
// against a baseline run in the same process, on the same machine and file.
import { spawn } from 'node:child_process';

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
  readonly rssMiB: number;
}

/** Runs `node args...` under GNU time to its end; rejects unless it exits 0. */
export function underGnuTime(args: readonly string[], env: Record<string, string>): Promise<ProcessCost> {
  const timed = ['-f', 'STINT_BENCH_COST %e %U %S %M', process.execPath, ...args];
  return new Promise((resolve, reject) => {
    const merged = { ...process.env, ...env };
    const child = spawn('/usr/bin/time', timed, { env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const match = /STINT_BENCH_COST ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      if (code !== 0 || !match) return reject(new Error(`${args[1]} failed (${code}): ${stderr.slice(0, 300)}`));
      const [, wall, user, system, rss] = match.map(Number) as number[];
      resolve({ wallMs: wall! * 1000, cpuMs: (user! + system!) * 1000, rssMiB: rss! / 1024 });
    });
  });
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
