/** Units a progress report counts in. */
export const ProgressUnit = {
  Bytes: 'bytes',
  Rows: 'rows',
  Items: 'items',
  Steps: 'steps',
} as const;
export type ProgressUnit = (typeof ProgressUnit)[keyof typeof ProgressUnit];
