import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Cancel, Host } from '../../src/runtime/authoring/host.js';

/** A timer on the fake clock. */
interface Timer {
  readonly seq: number;
  due: number;
  readonly every: number | undefined;
  readonly fn: () => void;
}

/**
 * A clock that moves only when told: timers, intervals and sleeps run in
 * the order of their due time (then of their creation), never on the wall
 * clock, so a test of the job lifecycle is the same on any machine.
 */
export class FakeClock {
  private readonly timers = new Map<number, Timer>();
  private seq = 0;
  /** Sleeps not yet over: a handler parked on the clock. */
  sleeping = 0;
  /** How far the wall clock (host.now) has been stepped from the clock timers run on (host.monotonic). */
  wallStep = 0;
  /** The boot the monotonic readings count from: hosts of one clock share it, as processes of one machine do. */
  readonly boot = 'fake-boot';

  constructor(public now: number = 1_700_000_000_000) {}

  setTimeout(fn: () => void, ms: number): Cancel {
    return this.add(fn, ms, undefined);
  }

  setInterval(fn: () => void, ms: number): Cancel {
    return this.add(fn, ms, Math.max(1, ms));
  }

  sleep(ms: number): Promise<void> {
    this.sleeping++;
    return new Promise((resolve) => this.setTimeout(() => {
      this.sleeping--;
      resolve();
    }, ms));
  }

  /** Moves the clock to the earliest due timer and runs every timer due then; false when none is set. */
  fireNext(): boolean {
    const next = [...this.timers.values()].sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
    if (!next) return false;
    this.now = Math.max(this.now, next.due);
    for (const timer of [...this.timers.values()].sort((a, b) => a.seq - b.seq)) {
      if (timer.due > this.now || !this.timers.has(timer.seq)) continue;
      if (timer.every === undefined) this.timers.delete(timer.seq);
      else timer.due += timer.every;
      timer.fn();
    }
    return true;
  }

  private add(fn: () => void, ms: number, every: number | undefined): Cancel {
    const seq = ++this.seq;
    this.timers.set(seq, { seq, due: this.now + Math.max(0, ms), every, fn });
    return () => void this.timers.delete(seq);
  }
}

/** How many real turns of the event loop the driver gives real I/O (LevelDB, files) before it moves the clock. */
const REAL_TURNS_GUARD = 200_000;

/**
 * Awaits `work`, moving the clock only while the handler is parked on it
 * (a fake sleep) and nothing else is pending: the run's own timers (budget,
 * watchdogs) then fire at exactly the fake times they name.
 */
export async function drive<T>(clock: FakeClock, work: Promise<T>): Promise<T> {
  let settled = false;
  work.then(() => (settled = true), () => (settled = true));
  for (let turns = 0; !settled; turns++) {
    if (turns > REAL_TURNS_GUARD) throw new Error('the work neither ended nor waited on the fake clock');
    await nextTurn();
    if (clock.sleeping > 0 && !settled) {
      // A few more turns, so that whatever the last wake-up started on real I/O has finished.
      for (let quiet = 0; quiet < 5; quiet++) await nextTurn();
      if (!settled) clock.fireNext();
      turns = 0;
    }
  }
  return work;
}

/** A host for running a program in this process: the test's argv, env and clock; what it writes, kept. */
export interface FakeHost extends Host {
  readonly clock: FakeClock;
  readonly out: string[];
  readonly err: string[];
  /** Delivers a signal to the listeners, as the real process's signal router does. */
  signal(signal: 'SIGINT' | 'SIGTERM'): void;
}

export function fakeHost(
  argv: readonly string[],
  env: Record<string, string>,
  cwd: string,
  clock: FakeClock,
): FakeHost {
  const out: string[] = [];
  const err: string[] = [];
  const listeners = { SIGINT: new Set<() => void>(), SIGTERM: new Set<() => void>() };
  return {
    argv, env, cwd, clock, out, err,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    programWords: () => ['count-tool'],
    readStdin: () => (async function* () {})(),
    writeStdout: async (text) => void out.push(text),
    writeStderr: (text) => void err.push(text),
    now: () => clock.now + clock.wallStep,
    monotonic: () => ({ ms: clock.now, boot: clock.boot }),
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    setInterval: (fn, ms) => clock.setInterval(fn, ms),
    sleep: (ms) => clock.sleep(ms),
    pid: process.pid,
    onSignal(signal, handler) {
      listeners[signal].add(handler);
      return () => void listeners[signal].delete(handler);
    },
    signal: (signal) => listeners[signal].forEach((handler) => handler()),
    selfCommand: () => {
      throw new Error('an in-process run cannot start a supervisor (detach: false commands only)');
    },
  };
}
