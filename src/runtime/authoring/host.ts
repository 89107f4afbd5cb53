import type { MonotonicReading } from './monotonic-clock.js';

/** Cancels a timer (Host.setTimeout, Host.setInterval); calling it again does nothing. */
export type Cancel = () => void;

/**
 * The process as the runtime sees it. Only `src/bin` builds one from the
 * real process; tests and embedders build their own
 * (a fake clock and timers make the job lifecycle testable in process).
 */
export interface Host {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  /** The terminal's width in columns when stderr is one (read at each call: it follows a resize). */
  readonly stderrColumns?: () => number | undefined;
  /** The terminal's width in columns when stdout is one: what a text table fits. */
  readonly stdoutColumns?: () => number | undefined;
  /** How a shell in `cwd` runs this program again on this Node: its bare name when PATH finds both, else both paths. */
  programWords(): readonly string[];
  /** The caller's stdin, read only for a command that declares stdin. */
  readStdin(): AsyncIterable<Uint8Array>;
  /** Resolves once the text is handed to the OS (so an exit right after loses nothing). */
  writeStdout(text: string): Promise<void>;
  writeStderr(text: string): void;
  /** Milliseconds since the epoch: every clock reading of the runtime but a file's age (file-age.ts) is this. */
  now(): number;
  /** A clock no wall-clock step moves (see monotonic-clock.ts): what liveness and idle time are measured on. */
  monotonic(): MonotonicReading;
  /** Calls `fn` once, `ms` from now; the returned function cancels it. It does not keep the process alive. */
  setTimeout(fn: () => void, ms: number): Cancel;
  /** Calls `fn` every `ms`; the returned function stops it. It does not keep the process alive. */
  setInterval(fn: () => void, ms: number): Cancel;
  /** Resolves `ms` from now, keeping the process alive meanwhile (a poll's pause). */
  sleep(ms: number): Promise<void>;
  readonly pid: number;
  /** Calls the handler on each delivery of the signal; returns a function that stops listening. */
  onSignal(signal: 'SIGINT' | 'SIGTERM', handler: () => void): () => void;
  /** The executable and arguments that start this same program again (for the background supervisor). */
  selfCommand(): { readonly file: string; readonly args: readonly string[] };
}
