/**
 * The life of a job. `running` and `paused` are the two states of an
 * INCOMPLETE (14) response, whose caller runs its continue_command; the rest are terminal.
 */
export const JobState = {
  Running: 'running',
  Paused: 'paused',
  Done: 'done',
  Failed: 'failed',
  Cancelled: 'cancelled',
  Lost: 'lost',
  Stalled: 'stalled',
  TimedOut: 'timed_out',
} as const;
export type JobState = (typeof JobState)[keyof typeof JobState];

/** The subset that may appear as `data.state` of an INCOMPLETE response. */
export const IncompleteState = {
  Running: JobState.Running,
  Paused: JobState.Paused,
} as const;
export type IncompleteState = (typeof IncompleteState)[keyof typeof IncompleteState];

export function isTerminal(state: JobState): boolean {
  return state !== JobState.Running && state !== JobState.Paused;
}
