import { readFileSync } from 'node:fs';
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

function readBootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** The boot clock where the system has one (Linux), else this process's monotonic clock. */
export function systemMonotonic(): MonotonicReading {
  bootId ??= readBootId();
  if (bootId) {
    try {
      const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
      if (Number.isFinite(uptime)) return { ms: Math.round(uptime * 1000), boot: bootId };
    } catch {
      // no /proc here after all
    }
  }
  return { ms: performance.now() };
}

/** Milliseconds from `earlier` to `later` when both are readings of one shared clock; undefined otherwise. */
export function elapsedBetween(earlier: MonotonicReading | undefined, later: MonotonicReading): number | undefined {
  if (!earlier?.boot || earlier.boot !== later.boot) return undefined;
  return later.ms - earlier.ms;
}
