import { setTimeout as sleep } from 'node:timers/promises';
import type { Host } from '../../runtime/authoring/host.js';
import { systemMonotonic } from '../../runtime/authoring/monotonic-clock.js';

/**
 * The host of an analysis `stint bench` runs inside its own process: the real
 * clock and environment (with the benchmark's overrides), no terminal, no
 * stdin, nothing written. Only a call context is built on it, never a program.
 */
export function quietHost(cwd: string, env: Readonly<Record<string, string | undefined>>): Host {
  const timer = (handle: NodeJS.Timeout) => {
    handle.unref();
    return () => clearTimeout(handle);
  };
  return {
    argv: [],
    env,
    cwd,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    programWords: () => [],
    readStdin: async function* () {},
    writeStdout: async () => {},
    writeStderr: () => {},
    now: () => Date.now(),
    monotonic: systemMonotonic,
    setTimeout: (fn, ms) => timer(setTimeout(fn, Math.max(0, ms))),
    setInterval: (fn, ms) => timer(setInterval(fn, ms)),
    sleep: (ms) => sleep(Math.max(0, ms)),
    pid: process.pid,
    onSignal: () => () => {},
    selfCommand: () => ({ file: process.execPath, args: [] }),
  };
}
