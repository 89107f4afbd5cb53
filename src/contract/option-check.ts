import { ErrorCode } from './error-code.js';
import { StintError } from './stint-error.js';
import { Phase } from './vocabulary/phase.js';

/**
 * An option of stint's API (`openWorkerPool(1.5)`, `chunkSize: NaN`) refused where it is passed, with ARG_ERROR,
 * rather than left to fail later inside the pool or the chunk grid, or to loop forever.
 */
export function refuseOption(api: string, option: string, value: unknown, rule: string): never {
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  throw new StintError(ErrorCode.ArgError, `${api}: ${option} must be ${rule} (got ${shown})`, {
    phase: Phase.Validation, context: { api, option, value: shown },
  });
}

/** Refuses a given value that is not a whole number of at least `min` (undefined: not given, the default). */
export function checkWhole(api: string, option: string, value: unknown, min: number): void {
  if (value === undefined || (Number.isSafeInteger(value) && (value as number) >= min)) return;
  refuseOption(api, option, value, `a whole number of at least ${min}`);
}

/** Refuses a given value that is not a number (NaN is none; an infinity is, it means no bound). */
export function checkNumber(api: string, option: string, value: unknown): void {
  if (value === undefined || (typeof value === 'number' && !Number.isNaN(value))) return;
  refuseOption(api, option, value, 'a number');
}
