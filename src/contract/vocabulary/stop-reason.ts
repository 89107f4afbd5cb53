import { Cause } from './cause.js';

/** Why work was asked to stop at its next safe point. */
export const StopReason = {
  /** The call's budget ran out: hand off (detach) or pause (resume). */
  Budget: 'budget',
  /** SIGTERM: like the budget on the front process; on a supervisor, pause and stay resumable. */
  Terminate: 'terminate',
  /** SIGINT: stop, answer CANCELLED (130) with the partial outcome; the checkpoint stays. */
  Interrupt: 'interrupt',
  /** `job cancel`: stop and discard the checkpoint. */
  Cancel: 'cancel',
  /** --timeout or maxLifetimeMs: the whole work is over its wall clock. */
  Timeout: 'timeout',
  /** progress.done did not grow for idleTimeoutMs. */
  Stalled: 'stalled',
} as const;
export type StopReason = (typeof StopReason)[keyof typeof StopReason];

/** The Outcome cause each stop reason reports. */
export const CAUSE_OF_STOP: Readonly<Record<StopReason, Cause>> = {
  [StopReason.Budget]: Cause.Budget,
  [StopReason.Terminate]: Cause.Budget,
  [StopReason.Interrupt]: Cause.Cancelled,
  [StopReason.Cancel]: Cause.Cancelled,
  [StopReason.Timeout]: Cause.Timeout,
  [StopReason.Stalled]: Cause.NoProgress,
};
