// A real `<program> worker` process for the queue tests: its JSON lines on stderr as they come, and its end.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { STINT_BIN } from './paths.js';
import { cleanEnv, type CliRun } from './run-cli.js';

export type WorkerEvent = Record<string, unknown> & { event: string };

export type WorkerEnd = CliRun;

export interface WorkerOptions {
  readonly program?: string;
  readonly prefix?: readonly string[];
  readonly extra?: readonly string[];
}

export class WorkerProcess {
  readonly events: WorkerEvent[] = [];
  readonly child: ChildProcess;
  readonly done: Promise<WorkerEnd>;
  /** `prefix` runs before node (e.g. `unshare --mount ...`); `extra`: more `worker` flags. */
  constructor(url: string, env: Record<string, string> = {}, options: WorkerOptions = {}) {
    const args = [options.program ?? STINT_BIN, 'worker', '--queue', url, '--concurrency', '1', '--lock-duration', '2s',
      '--format', 'json', ...(options.extra ?? [])];
    const [command, ...rest] = [...(options.prefix ?? []), process.execPath, ...args];
    const workerEnv = cleanEnv(env);
    this.child = spawn(command!, rest, { env: workerEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let partial = '';
    this.child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    this.child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const lines = (partial + text).split('\n');
      partial = lines.pop()!;
      for (const line of lines) if (line.startsWith('{')) this.events.push(JSON.parse(line) as WorkerEvent);
    });
    const guard = setTimeout(() => this.child.kill('SIGKILL'), 240_000);
    this.done = new Promise((resolve) => this.child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr, program: args[0]!, env: workerEnv });
    }));
  }
  of(kind: string): WorkerEvent[] {
    return this.events.filter((e) => e.event === kind);
  }
  started(): WorkerEvent | undefined {
    return this.of('started')[0];
  }
  async stop(): Promise<WorkerEnd> {
    this.child.kill('SIGTERM');
    return this.done;
  }
}

/** Resolves once `fact` holds; a guard (not a speed assertion) fails a test that would otherwise hang. */
export async function until(fact: () => boolean | Promise<boolean>, what: string, guardMs = 90_000): Promise<void> {
  const limit = Date.now() + guardMs;
  while (!(await fact())) {
    if (Date.now() > limit) throw new Error(`gave up waiting: ${what}`);
    await delay(50);
  }
}

export async function startWorkers(
  url: string, count: number, env: Record<string, string> = {}, options: WorkerOptions = {},
): Promise<WorkerProcess[]> {
  const started = Array.from({ length: count }, () => new WorkerProcess(url, env, options));
  await until(() => started.every((w) => w.started() !== undefined), 'the workers start');
  return started;
}
