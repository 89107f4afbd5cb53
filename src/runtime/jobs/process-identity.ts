import { existsSync, readFileSync } from 'node:fs';

/**
 * A process as other processes can recognise it later: its pid plus its
 * start time, so a pid the system gave to another process since is not
 * mistaken for it. Without a start time (another system, an older file)
 * the pid alone identifies it.
 */
export interface ProcessIdentity {
  readonly pid: number;
  /** Clock ticks after boot (field 22 of /proc/<pid>/stat); absent = pid only. */
  readonly start?: number;
}

/** What is known of a pid now, from /proc/<pid>/stat. */
export interface ProcStat {
  readonly state: string;
  readonly start: number;
}

/** Field 22 of /proc/<pid>/stat is the start time; fields are counted after the command name, which may hold ') '. */
const START_FIELD_AFTER_NAME = 22 - 3;

/** Parses /proc/<pid>/stat text: the state letter (field 3) and the start time (field 22). */
export function parseProcStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = text.slice(close + 1).trim().split(/\s+/);
  const start = Number(fields[START_FIELD_AFTER_NAME]);
  if (!fields[0] || !Number.isSafeInteger(start)) return undefined;
  return { state: fields[0], start };
}

const HAS_PROC = existsSync('/proc/self/stat');

/** undefined when there is no /proc (another system) or no such process. */
function procStat(pid: number): ProcStat | undefined {
  if (!HAS_PROC) return undefined;
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The identity of a live process (pid only where /proc is missing). */
export function identityOf(pid: number): ProcessIdentity {
  const stat = procStat(pid);
  return stat ? { pid, start: stat.start } : { pid };
}

/**
 * Whether this very process is still alive: a dead pid, a zombie (killed,
 * not yet reaped) or a pid now held by another process (another start time)
 * all count as gone.
 */
export function isAlive(identity: ProcessIdentity | undefined): boolean {
  if (!identity?.pid) return false;
  try {
    process.kill(identity.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (!HAS_PROC) return true;
  const stat = procStat(identity.pid);
  if (!stat || stat.state === 'Z') return false;
  return identity.start === undefined || identity.start === stat.start;
}

/** Whether the identity can be confirmed (it has a start time and that process lives): only then may it be killed. */
export function isConfirmedAlive(identity: ProcessIdentity): boolean {
  return identity.start !== undefined && isAlive(identity);
}

const GONE_WAIT_MS = 2_000;

/**
 * Kills the process for good (SIGKILL works on a stopped one too) after
 * confirming it is the same process, and waits briefly until it is gone.
 * Returns whether it was killed.
 */
export function killConfirmed(identity: ProcessIdentity): boolean {
  if (!isConfirmedAlive(identity)) return false;
  try {
    process.kill(identity.pid, 'SIGKILL');
  } catch {
    return false;
  }
  // The thread blocks while it waits, so no Host timer could run: the wait is measured on the process's own
  // monotonic clock (performance.now, which a wall-clock step does not move).
  const since = performance.now();
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (isAlive(identity) && performance.now() - since < GONE_WAIT_MS) Atomics.wait(pause, 0, 0, 10);
  return true;
}

/** Reads a pid file: `{"pid":N,"start":S}`, or a bare pid as older versions wrote it. */
export function parseIdentity(text: string): ProcessIdentity | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) > 0 ? { pid: Number(trimmed) } : undefined;
  try {
    const value = JSON.parse(trimmed) as { pid?: unknown; start?: unknown };
    if (!Number.isSafeInteger(value.pid) || (value.pid as number) <= 0) return undefined;
    const pid = value.pid as number;
    return Number.isSafeInteger(value.start) ? { pid, start: value.start as number } : { pid };
  } catch {
    return undefined;
  }
}

export function formatIdentity(identity: ProcessIdentity): string {
  return JSON.stringify(identity);
}
