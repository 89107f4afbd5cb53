/**
 * Sizes as people write them. Both unit families are taken: SI (`kB`, `MB`, `GB`, `TB`: powers of 1000, as
 * disks and networks count) and binary (`KiB`, `MiB`, `GiB`, `TiB`: powers of 1024, as memory counts), with
 * the bare letters `K`, `M`, `G`, `T` binary as in `dd` and `sort -S`. Case does not matter and a fraction
 * may be given (`1.5GB`); the result is whole bytes. What stint prints uses binary units, always spelled out.
 */
const UNIT_BYTES: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12,
  k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4,
  kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4,
};
const SIZE = /^(\d+(?:\.\d+)?) ?([a-z]*)$/i;

/** The pattern the manifest advertises for byte-size flags. */
export const SIZE_PATTERN = '^[0-9]+(\\.[0-9]+)? ?([kKmMgGtT]([iI]?[bB])?|[bB])?$';

/** What an error names as the accepted forms. */
export const SIZE_EXAMPLES = '65536, 64KiB, 64MB, 1.5GiB';

/** Parses `65536`, `64KiB`, `64MB`, `1.5GiB` into whole bytes; undefined for anything else. */
export function parseSize(text: string): number | undefined {
  const match = SIZE.exec(text.trim());
  if (!match) return undefined;
  const unit = UNIT_BYTES[(match[2] || 'b').toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Math.round(Number(match[1]) * unit);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

const EXACT_UNITS = [['TiB', 1024 ** 4], ['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]] as const;

/** A size as people write it, exactly: `4MiB`, not 4194304 (plain bytes when no unit divides it). */
export function formatSize(bytes: number): string {
  for (const [unit, size] of EXACT_UNITS) {
    if (bytes !== 0 && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}

const FIGURE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A size rounded for reading: `1.5 MiB`, `980.0 MiB`, `512 B`. */
export function formatSizeFigure(bytes: number): string {
  let value = bytes;
  let k = 0;
  for (; value >= 1024 && k < FIGURE_UNITS.length - 1; k++) value /= 1024;
  return `${value.toFixed(k ? 1 : 0)} ${FIGURE_UNITS[k]}`;
}
