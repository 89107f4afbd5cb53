import { spawn } from 'node:child_process';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Envelope } from '../../src/contract/envelope.js';
import { assertEnvelope } from './schemas.js';
import { assertIncompleteSchema, assertOutputSchema } from './output-schemas.js';
import { assertEstimateBounds } from './estimate-bounds.js';
import { STATE_DIR_ENV, stateDirEnvOf } from '../../src/runtime/storage/state-dir.js';
import { SDK_NODE_NOTICE_OFF } from '../../src/engine/worker/remote-s3.js';
import { programPath, STINT_BIN } from './paths.js';
import { tempWorld } from './temp-world.js';

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The program script that ran, when known: its manifest gives the answer's output schema. */
  readonly program?: string;
  /** The environment it ran with (its manifest is asked with the same). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface RunOptions {
  readonly env?: Record<string, string | undefined>;
  readonly cwd?: string;
  /** Give stdin this text and close it. By default stdin is a pipe that stays open and is never written. */
  readonly stdin?: string;
  /** A guard, not an assertion of speed: a hung command fails the test instead of the suite. */
  readonly killAfterMs?: number;
  /** Run this script instead of stint's bin (a program built on stint). */
  readonly program?: string;
}

/**
 * The state variables of the programs tests run: stint's STINT_HOME and each
 * fixture program's own (a fixture's file is named as its program).
 */
const STATE_VARS = [STATE_DIR_ENV, ...fixturePrograms().map(stateDirEnvOf)];

function fixturePrograms(): string[] {
  const scripts = readdirSync(dirname(programPath('any'))).filter((file) => file.endsWith('.js'));
  return scripts.map((file) => file.slice(0, -'.js'.length));
}

let fallbackHome: string | undefined;
/** For a test that names no state folder: it still never writes into the user's real one. */
const defaultHome = (): string => (fallbackHome ??= tempWorld('state').dir);

/**
 * The environment a test child gets: no inherited budget, color or state settings.
 * A test's STINT_HOME (else a temporary folder) is the state folder of whichever
 * program it runs, unless the test names that program's own variable.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  // The AWS SDK's switch for its Node version notice: stint sets it itself, and the tests see what users see.
  const dropped = ['AGENT_CALL_BUDGET_MS', 'NO_COLOR', 'FORCE_COLOR', 'CI', SDK_NODE_NOTICE_OFF, ...STATE_VARS];
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !dropped.includes(key)) env[key] = value;
  }
  const home = extra[STATE_DIR_ENV] ?? defaultHome();
  for (const name of STATE_VARS) env[name] = home;
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs the built command as a subprocess and collects everything it says. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const program = options.program ?? STINT_BIN;
    const env = cleanEnv(options.env);
    const child = spawn(process.execPath, [program, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    if (options.stdin !== undefined) child.stdin.end(options.stdin);
    child.stdin.on('error', () => {});
    const guard = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr, program, env });
    });
  });
}

/**
 * Parses stdout as exactly one JSON document, validates it against the
 * envelope schema and checks the contract every response keeps.
 */
export function envelopeOf(run: CliRun): Envelope<Record<string, unknown>> {
  assert.equal(run.signal, null, `killed by ${run.signal}; stderr: ${run.stderr}`);
  const text = run.stdout;
  assert.ok(text.endsWith('\n'), `stdout should end with a newline: ${JSON.stringify(text.slice(-200))}`);
  assert.equal(text.trimEnd().split('\n').length, 1, `stdout should be one line: ${text.slice(0, 500)}`);
  const envelope = JSON.parse(text) as Envelope<Record<string, unknown>>;
  assertEnvelope(envelope);
  if (run.program !== undefined) assertOutputSchema(envelope, run.program, run.env ?? cleanEnv());
  assertIncompleteSchema(envelope);
  assertEstimateBounds(envelope.data);
  assert.equal(envelope.meta.exit_code, run.code, 'meta.exit_code equals the process exit code');
  assert.equal(envelope.ok, run.code === 0, 'ok iff exit 0');
  assert.ok(!/\u001b\[/.test(text), 'no ANSI on stdout');
  return envelope;
}

/** Runs and returns the validated envelope with the run. */
export async function runJson(args: readonly string[], options: RunOptions = {}): Promise<{ run: CliRun; envelope: Envelope<Record<string, unknown>> }> {
  const run = await runCli(args, options);
  return { run, envelope: envelopeOf(run) };
}

/** A command started in the background, watched through its streams. */
export interface RunningCli {
  readonly pid: number;
  /** Resolves with the first stderr line matching, or undefined if the process ends first. */
  stderrLine(pattern: RegExp): Promise<RegExpMatchArray | undefined>;
  kill(signal: NodeJS.Signals): void;
  readonly done: Promise<CliRun>;
}

export function startCli(args: readonly string[], options: RunOptions & { detached?: boolean } = {}): RunningCli {
  const program = options.program ?? STINT_BIN;
  const env = cleanEnv(options.env);
  const child = spawn(process.execPath, [program, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray | undefined) => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      const match = stderr.split('\n').map((line) => line.match(waiter.pattern)).find(Boolean);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    check();
  });
  child.stdin!.on('error', () => {});
  if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  const guard = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 120_000);
  const done = new Promise<CliRun>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      for (const waiter of waiters.splice(0)) waiter.resolve(undefined);
      resolve({ code, signal, stdout, stderr, program, env });
    });
  });
  return {
    pid: child.pid!,
    stderrLine: (pattern) => new Promise((resolve) => {
      waiters.push({ pattern, resolve });
      check();
    }),
    kill: (signal) => child.kill(signal),
    done,
  };
}

/**
 * The program a shell line runs, for its answer's output schema: a continue_command begins with its program's
 * script, a test's own line with node and then the script. Unknown (not checked) otherwise.
 */
export function ranBy(line: string, env: Readonly<Record<string, string>>): Pick<CliRun, 'program' | 'env'> {
  const words = line.replace(/^exec /, '').split(' ');
  const script = words[0] === process.execPath ? words[1] : words[0];
  return script?.startsWith('/') && script.endsWith('.js') ? { program: script, env } : {};
}

/** Runs a command line through sh -c, exactly as an agent runs continue_command; killed if it hangs. */
export function runShell(
  line: string,
  env: Record<string, string | undefined> = {},
  killAfterMs = 120_000,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const shellEnv = cleanEnv(env);
    const child = spawn('sh', ['-c', line], { env: shellEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.stdin.on('error', () => {});
    const guard = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr, ...ranBy(line, shellEnv) });
    });
  });
}
