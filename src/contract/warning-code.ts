/**
 * The framework's own warning codes (WarningDetail.code). A program declares
 * its own with defineWarningCodes; stint's commands do so in src/commands/stint-codes.ts.
 */
export const WarningCode = {
  CheckpointDiscarded: 'CHECKPOINT_DISCARDED',
} as const;
export type WarningCode = (typeof WarningCode)[keyof typeof WarningCode];
