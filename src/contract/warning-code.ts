/** Stable warning codes (WarningDetail.code). */
export const WarningCode = {
  CheckpointDiscarded: 'CHECKPOINT_DISCARDED',
  InvalidUtf8Replaced: 'INVALID_UTF8_REPLACED',
  RaggedRows: 'RAGGED_ROWS',
  DuplicateColumnNames: 'DUPLICATE_COLUMN_NAMES',
} as const;
export type WarningCode = (typeof WarningCode)[keyof typeof WarningCode];
