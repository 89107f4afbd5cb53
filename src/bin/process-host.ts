import { realpathSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isatty } from 'node:tty';
import type { Host } from '../runtime/authoring/host.js';
import { systemMonotonic } from '../runtime/authoring/monotonic-clock.js';
import { realFileOf, realOr } from '../runtime/cli/path-lookup.js';
import { installSignalRouter, markAnswered, onSignal } from './signal-router.js';

/**
 * How a shell in this working directory can run this program again, with this same Node: the bare name when
 * PATH finds this very program and its `#!/usr/bin/env node` line would find this Node, else this Node and the
 * script's absolute path (a call started as `node …/stint.js` continues on that Node, not on PATH's).
 */
export function programInvocation(scriptArg: string, env: NodeJS.ProcessEnv, execPath: string): string[] {
  const script = isAbsolute(scriptArg) ? scriptArg : resolve(scriptArg);
  let real: string;
  try {
    real = realpathSync(script);
  } catch {
    return [execPath, script];
  }
  // Under npm (npx, npm run) PATH holds node_modules/.bin folders that the
  // caller's own shell does not: a bare name found there would not run later.
  const underNpm = env['npm_command'] !== undefined || env['npm_lifecycle_event'] !== undefined;
  const skip = (dir: string) => underNpm && /[/\\]node_modules[/\\]\.bin$/.test(dir);
  const name = basename(script);
  if (realFileOf(name, env, skip) === real && realFileOf('node', env, skip) === realOr(execPath)) return [name];
  // The real file, not a link in a cache (npx links the package into its own folder).
  return [execPath, real];
}

/** The real process as a Host. */
export function processHost(): Host {
  let invocation: string[] | undefined;
  installSignalRouter();
  return {
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    // isatty, not process.stdin: touching process.stdin opens it, and a
    // command that does not declare stdin must never hold it.
    stdoutIsTTY: isatty(1),
    stderrIsTTY: isatty(2),
    stdinIsTTY: isatty(0),
    // Node updates a terminal stream's columns on SIGWINCH: reading it at each frame follows a resize.
    stderrColumns: () => (process.stderr.isTTY ? process.stderr.columns : undefined),
    stdoutColumns: () => (process.stdout.isTTY ? process.stdout.columns : undefined),
    programWords: () => (invocation ??= programInvocation(process.argv[1] ?? '', process.env, process.execPath)),
    readStdin: () => process.stdin,
    writeStdout: (text) => new Promise((done) => {
      markAnswered();
      if (text.length === 0) return done();
      process.stdout.write(text, () => done());
    }),
    writeStderr: (text) => {
      if (text.length > 0) process.stderr.write(text);
    },
    now: () => Date.now(),
    monotonic: systemMonotonic,
    setTimeout: (fn, ms) => {
      const timer = setTimeout(fn, Math.max(0, ms)).unref();
      return () => clearTimeout(timer);
    },
    setInterval: (fn, ms) => {
      const timer = setInterval(fn, ms).unref();
      return () => clearInterval(timer);
    },
    sleep: (ms) => sleep(Math.max(0, ms)),
    pid: process.pid,
    onSignal,
    selfCommand: () => ({ file: process.execPath, args: [...process.execArgv, resolve(process.argv[1] ?? '')] }),
  };
}
