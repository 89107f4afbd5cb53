import { ExitCode, type ProcessExitCode } from './exit-code.js';
import type { Phase } from './vocabulary/phase.js';
import { ErrorCode } from './error-code.js';

/** The error of a failure its command gave no error for. */
const UNEXPLAINED_FAILURE = {
  code: ErrorCode.InternalError,
  message: 'The command failed without saying why (a defect: a failing exit needs an error)',
  retryable: false,
};

/** One problem among several found while validating (ErrorDetail.errors). */
export interface FieldError {
  readonly field: string;
  readonly message: string;
  readonly reason: string;
  readonly suggestion?: string;
}

/** ErrorDetail of response-envelope.json. */
export interface ErrorDetail {
  readonly code: string;
  readonly message: string;
  readonly detail?: string;
  readonly cause?: string;
  readonly context?: Readonly<Record<string, unknown>>;
  readonly retryable?: boolean;
  readonly retry_after_ms?: number;
  readonly retry_strategy?: 'immediate' | 'linear_backoff' | 'exponential_backoff';
  readonly fix_required?: string;
  readonly fix_command?: string;
  readonly phase?: Phase;
  readonly suggestion?: string;
  readonly errors?: readonly FieldError[];
}

/** WarningDetail of response-envelope.json. */
export interface WarningDetail {
  readonly code: string;
  readonly message: string;
  readonly context?: Readonly<Record<string, unknown>>;
}

/** ResponseMeta: `exit_code` and `duration_ms` always; the rest when they apply. */
export interface ResponseMeta {
  readonly exit_code: ProcessExitCode;
  readonly duration_ms: number;
  readonly budget_ms?: number;
  readonly timeout_ms?: number;
  readonly command?: string;
  readonly tool_version?: string;
  readonly [extension: string]: unknown;
}

/** The one JSON document a call writes to stdout. All five keys are always present. */
export interface Envelope<D = unknown> {
  readonly ok: boolean;
  readonly data: D | null;
  readonly error: ErrorDetail | null;
  readonly warnings: readonly WarningDetail[];
  readonly meta: ResponseMeta;
}

/** What `buildEnvelope` takes; `ok`, `meta.exit_code` and `meta.duration_ms` follow from it. */
export interface EnvelopeParts<D> {
  readonly exitCode: ProcessExitCode;
  readonly durationMs: number;
  readonly data?: D | null;
  readonly error?: ErrorDetail | null;
  readonly warnings?: readonly WarningDetail[];
  readonly meta?: Readonly<Record<string, unknown>>;
}

/**
 * Builds an envelope. `ok` is derived from the exit code, never chosen by
 * a handler; a success carries no error and a failure always carries one.
 */
export function buildEnvelope<D>(parts: EnvelopeParts<D>): Envelope<D> {
  const ok = parts.exitCode === ExitCode.SUCCESS;
  // A failure always carries an error; one its command left out is a defect, under a code the table has.
  const error = ok ? null : (parts.error ?? UNEXPLAINED_FAILURE);
  if (ok && parts.error) throw new TypeError('a successful envelope cannot carry an error');
  return {
    ok,
    data: parts.data ?? null,
    error,
    warnings: parts.warnings ?? [],
    meta: { ...parts.meta, exit_code: parts.exitCode, duration_ms: Math.max(0, Math.round(parts.durationMs)) },
  };
}
