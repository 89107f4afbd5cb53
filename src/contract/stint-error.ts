import { EXIT_CODE_OF, type ErrorCode } from './error-code.js';
import type { ErrorDetail } from './envelope.js';
import type { ExitCode } from './exit-code.js';

type ErrorExtras = Omit<ErrorDetail, 'code' | 'message'>;

/**
 * An error with a stable code: one of the framework's (ErrorCode) or one the
 * program declares (defineErrorCodes). Call sites never choose an exit number:
 * the code's declaration gives it when the call answers.
 */
export class StintError extends Error {
  readonly code: string;
  /** The framework's exit code for its own codes; undefined for a program's code, whose declaration gives it. */
  readonly exitCode: ExitCode | undefined;
  readonly extras: ErrorExtras;

  constructor(code: ErrorCode | (string & {}), message: string, extras: ErrorExtras = {}) {
    super(message);
    this.name = 'StintError';
    this.code = code;
    this.exitCode = Object.hasOwn(EXIT_CODE_OF, code) ? EXIT_CODE_OF[code as ErrorCode] : undefined;
    this.extras = extras;
  }

  toDetail(): ErrorDetail {
    return { code: this.code, message: this.message, ...this.extras };
  }
}

/** Errors cross thread and process boundaries as data; match on `code`, never `instanceof`. */
export function isStintErrorLike(value: unknown): value is { code: string; message: string } {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'string'
    && typeof (value as { message?: unknown }).message === 'string';
}
