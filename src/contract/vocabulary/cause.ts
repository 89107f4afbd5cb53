/**
 * Why an outcome is not complete. The first five are seed 004's; the rest
 * are the causes stint's own commands meet (a signal or `job cancel`, a
 * wall-clock limit, input that is missing or malformed).
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
