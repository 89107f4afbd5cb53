/**
 * The framework's own warning codes (WarningDetail.code). A program declares
 * its own with defineWarningCodes; stint's commands do so in src/commands/stint-codes.ts.
 */
export const WarningCode = {
  CheckpointDiscarded: 'CHECKPOINT_DISCARDED',
  /** A queue worker cannot read the input as the coordinator does: its chunks ran on the others. */
  WorkerLeftOut: 'WORKER_LEFT_OUT',
  /** No live queue worker of the coordinator's build: its chunks wait (and the call gives up after a bound). */
  NoLiveWorker: 'NO_LIVE_WORKER',
  /** A job whose record cannot be trusted (edited, or another program's): a listing leaves it out. */
  JobRecordInvalid: 'JOB_RECORD_INVALID',
} as const;
export type WarningCode = (typeof WarningCode)[keyof typeof WarningCode];
