/**
 * The client-side result of a continuation loop (stint/client's continueUntilDone).
 * There is deliberately no `timeout` here: a run deadline is `incomplete`
 * with a StopLimit naming it.
 */
export const RunStatus = {
  Done: 'done',
  Pending: 'pending',
  Incomplete: 'incomplete',
} as const;
export type RunStatus = (typeof RunStatus)[keyof typeof RunStatus];
