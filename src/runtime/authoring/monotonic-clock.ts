import { openSync, readFileSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * A reading of a clock that no wall-clock step moves (NTP, a VM resumed, an
 * operator's `date -s`). With `boot` it is the system's boot clock
 * (`/proc/uptime`): one clock for every process of that boot, so a reading
 * another process wrote compares with ours. Without it the reading is only
 * this process's own monotonic clock, comparable with nothing but itself.
 */
export interface MonotonicReading {
  /** Milliseconds on that clock. */
  readonly ms: number;
  /** The boot the clock counts from (the kernel's boot id); absent for a per-process clock. */
  readonly boot?: string;
}

let bootId: string | null | undefined;
/** /proc/uptime, kept open: a reading is then one read at offset 0 (the status of a busy job is read often). */
let uptime: number | undefined;
const text = Buffer.alloc(64);

function readBootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

function uptimeMs(): number | undefined {
  try {
    uptime ??= openSync('/proc/uptime', 'r');
    const length = readSync(uptime, text, 0, text.length, 0);
    const seconds = Number(text.toString('latin1', 0, length).split(' ')[0]);
    return Number.isFinite(seconds) ? Math.round(seconds * 1000) : undefined;
  } catch {
    return undefined;
  }
}

/** The boot clock where the system has one (Linux), else this process's monotonic clock. */
export function systemMonotonic(): MonotonicReading {
  bootId ??= readBootId();
  const ms = bootId ? uptimeMs() : undefined;
  return ms !== undefined && bootId ? { ms, boot: bootId } : { ms: performance.now() };
}

/** Milliseconds from `earlier` to `later` when both are readings of one shared clock; undefined otherwise. */
export function elapsedBetween(earlier: MonotonicReading | undefined, later: MonotonicReading): number | undefined {
  if (!earlier?.boot || earlier.boot !== later.boot) return undefined;
  return later.ms - earlier.ms;
}
