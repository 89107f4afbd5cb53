/**
 * Why an outcome is not complete. The first five are a caller's limits and
 * the world's (its budget or turn cap ran out, a part is out of scope, a
 * dependency is down, the work stopped moving); the rest are the causes
 * stint's own commands meet (a signal or `job cancel`, a wall-clock limit,
 * input that is missing or malformed).
 */
export const Cause = {
  Budget: 'budget',
  TurnCap: 'turn_cap',
  OutOfScope: 'out_of_scope',
  DependencyDown: 'dependency_down',
  NoProgress: 'no_progress',
  Cancelled: 'cancelled',
  Timeout: 'timeout',
  BadInput: 'bad_input',
} as const;
export type Cause = (typeof Cause)[keyof typeof Cause];
