/** Where in the pipeline an error arose; `validation` guarantees zero side effects. */
export const Phase = {
  Validation: 'validation',
  Execution: 'execution',
  Cleanup: 'cleanup',
} as const;
export type Phase = (typeof Phase)[keyof typeof Phase];
