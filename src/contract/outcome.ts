import { Coverage } from './vocabulary/coverage.js';
import type { Cause } from './vocabulary/cause.js';

/** A unit of work that was done: the question, its answer, and where the answer came from (`cite`). */
export interface Established<A = unknown, C = Readonly<Record<string, unknown>>> {
  readonly q: string;
  readonly a: A;
  readonly cite: C;
}

/** A unit of work that was not done, named, with the reason (never implied by absence). */
export interface Unresolved {
  readonly q: string;
  readonly reason: string;
  readonly code?: string;
  readonly context?: Readonly<Record<string, unknown>>;
}

/** The structured result of work that may be partial. Coverage is a field, never prose. */
export interface Outcome<A = unknown, C = Readonly<Record<string, unknown>>> {
  readonly established: readonly Established<A, C>[];
  readonly unresolved: readonly Unresolved[];
  readonly unresolved_total?: number;
  readonly coverage: Coverage;
  readonly cause?: Cause;
}

export function coverageOf(established: number, unresolved: number): Coverage {
  if (unresolved === 0) return Coverage.Complete;
  return established === 0 ? Coverage.None : Coverage.Partial;
}

/** Builds an Outcome whose coverage follows from its parts, so it cannot disagree with them. */
export function outcomeOf<A, C>(
  established: readonly Established<A, C>[],
  unresolved: readonly Unresolved[],
  cause?: Cause,
): Outcome<A, C> {
  const coverage = coverageOf(established.length, unresolved.length);
  return cause === undefined || coverage === Coverage.Complete
    ? { established, unresolved, coverage }
    : { established, unresolved, coverage, cause };
}
