import { EXIT_CODE_OF, type ErrorCode } from './error-code.js';
import type { ErrorDetail } from './envelope.js';
import type { ExitCode } from './exit-code.js';

type ErrorExtras = Omit<ErrorDetail, 'code' | 'message'>;

/**
 * An error with a stable code. The exit code follows from the code
 * (EXIT_CODE_OF), so call sites never choose a number.
 */
export class StintError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCode;
  readonly extras: ErrorExtras;

  constructor(code: ErrorCode, message: string, extras: ErrorExtras = {}) {
    super(message);
    this.name = 'StintError';
    this.code = code;
    this.exitCode = EXIT_CODE_OF[code];
    this.extras = extras;
  }

  toDetail(): ErrorDetail {
    return { code: this.code, message: this.message, ...this.extras };
  }
}

/** Errors cross thread and process boundaries as data; match on `code`, never `instanceof`. */
export function isStintErrorLike(value: unknown): value is { code: ErrorCode; message: string } {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string'
    && typeof (value as { message?: unknown }).message === 'string';
}
