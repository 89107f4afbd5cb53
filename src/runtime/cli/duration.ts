const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
const DURATION = /^(\d+)(ms|s|m|h)?$/;

/** The pattern the manifest advertises for duration flags. */
export const DURATION_PATTERN = '^[0-9]+(ms|s|m|h)?$';

/**
 * Parses `250`, `250ms`, `5s`, `2m`, `1h` into whole milliseconds; a bare
 * number is milliseconds. Returns undefined for anything else, so the
 * caller can report it with the flag's name.
 */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * UNIT_MS[(match[2] ?? 'ms') as keyof typeof UNIT_MS];
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** `90000` → `1m30s`, for messages people read. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms}ms`;
  const s = Math.round(ms / 1_000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m}m${s % 60}s` : `${m}m`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h}h${m % 60}m` : `${h}h`;
}

/** A duration the caller chose, said without rounding where it is short: 1500 ms is `1.5s`, not `2s`. */
export function formatChosenDuration(ms: number): string {
  return ms >= 1_000 && ms < 60_000 && ms % 1_000 !== 0 ? `${ms / 1_000}s` : formatDuration(ms);
}
