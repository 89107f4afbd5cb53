// `analyze --columns a,b`: which of a header's columns the result shows.
import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';
import { didYouMean, likelyMeant } from '../../runtime/cli/suggest.js';
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

/**
 * The indexes of the header's columns `wanted` names, in header order (every column when undefined). A name
 * the header lacks is COLUMN_NOT_FOUND (an argument error), with the names it likely meant as its suggestion.
 */
export function pickColumns(names: readonly string[], wanted: readonly string[] | undefined, label: string): number[] {
  if (wanted === undefined) return names.map((_, k) => k);
  const missing = wanted.find((name) => !names.includes(name));
  if (missing !== undefined) {
    const near = likelyMeant(missing, names);
    const suggestion = near.length === 0
      ? `--columns takes names from the header: ${names.join(', ')}`
      : didYouMean(near);
    const message = `--columns names ${missing}, which the header of ${label} does not have`;
    throw new StintError(StintCode.ColumnNotFound, message, {
      context: { path: label, column: missing, columns: [...names] },
      suggestion,
    });
  }
  return names.flatMap((name, k) => (wanted.includes(name) ? [k] : []));
}
