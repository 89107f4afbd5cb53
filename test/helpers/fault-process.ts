// One call of a fault schedule: a command line run through `sh -c exec`, as
// an agent runs continue_command, so that a signal sent to the pid reaches
// the stint process itself.
import { spawn } from 'node:child_process';
import { readlinkSync, realpathSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { cleanEnv, ranBy, type CliRun } from './run-cli.js';

/** A guard, not a speed assertion: a call still running after this is a hang. */
export const HANG_GUARD_MS = 180_000;
/** The line `--heartbeat-ms` prints at the first progress report. */
const HEARTBEAT = /\] stint (import|analyze|export): \d+/;
const NODE = realpathSync(process.execPath);

export interface LineProcess {
  readonly pid: number;
  readonly done: Promise<CliRun & { hung: boolean }>;
  ended(): boolean;
  /** Resolves once the first progress line is out, or the process ended. */
  progressed(): Promise<void>;
  /** Resolves once the shell has exec'd node (or the process ended): a signal then reaches stint. */
  execd(): Promise<void>;
}

export function startLine(line: string, env: Record<string, string>): LineProcess {
  const lineEnv = cleanEnv(env);
  const child = spawn('sh', ['-c', `exec ${line}`], { env: lineEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let finished = false;
  let hung = false;
  let onProgress: () => void = () => {};
  const progress = new Promise<void>((resolve) => (onProgress = resolve));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (HEARTBEAT.test(stderr)) onProgress();
  });
  // Like an agent's pipe: open, never written.
  child.stdin.on('error', () => {});
  const guard = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, HANG_GUARD_MS);
  const done = new Promise<CliRun & { hung: boolean }>((resolve) => {
    child.on('close', (code, signal) => {
      finished = true;
      clearTimeout(guard);
      onProgress();
      resolve({ code, signal, stdout, stderr, hung, ...ranBy(line, lineEnv) });
    });
  });
  const pid = child.pid!;
  return {
    pid,
    done,
    ended: () => finished,
    progressed: () => progress,
    async execd() {
      for (let waited = 0; !finished && waited < 5_000; waited += 5) {
        try {
          if (readlinkSync(`/proc/${pid}/exe`) === NODE) return;
        } catch {
          return;
        }
        await sleep(5);
      }
    },
  };
}
