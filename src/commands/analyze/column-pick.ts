// `analyze --columns a,b`: which of a header's columns the result shows.
import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';
import { StintCode } from '../stint-codes.js';

/** The names `--columns` gives, in order, without empty ones; undefined without the flag; none is ARG_ERROR. */
export function columnsWanted(flag: string | undefined): readonly string[] | undefined {
  if (flag === undefined) return undefined;
  const names = flag.split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (names.length > 0) return names;
  throw new StintError(ErrorCode.ArgError, '--columns names no column', {
    phase: 'validation',
    suggestion: 'Name the columns to show, comma-separated: --columns a,b',
    context: { flag: '--columns', value: flag },
  });
}

/** Edit distance, for the suggestion of a mistyped name. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    row = next;
  }
  return row[b.length]!;
}

/** The header's name closest to `name` (by letters, then edit distance), if any is close. */
function closest(name: string, names: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const same = names.find((n) => n.toLowerCase() === lower);
  if (same !== undefined) return same;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of names) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/**
 * The indexes of the header's columns `wanted` names, in header order (every column when undefined). A name
 * the header lacks is COLUMN_NOT_FOUND (an argument error), with the closest name as its suggestion.
 */
export function pickColumns(names: readonly string[], wanted: readonly string[] | undefined, label: string): number[] {
  if (wanted === undefined) return names.map((_, k) => k);
  const missing = wanted.find((name) => !names.includes(name));
  if (missing !== undefined) {
    const near = closest(missing, names);
    const suggestion = near === undefined
      ? `--columns takes names from the header: ${names.join(', ')}`
      : `did you mean ${near}?`;
    const message = `--columns names ${missing}, which the header of ${label} does not have; ${suggestion}`;
    throw new StintError(StintCode.ColumnNotFound, message, {
      context: { path: label, column: missing, columns: [...names] },
      suggestion,
    });
  }
  return names.flatMap((name, k) => (wanted.includes(name) ? [k] : []));
}
