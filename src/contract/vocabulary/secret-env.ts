/**
 * Where a run finds the password of a URL its call named: argv, job records and continue_command hold URLs
 * without one, so a continued call, a detached run and a queue's workers take it from these variables.
 */
export const SecretEnv = {
  /** An http:// or https:// input's. */
  Http: 'STINT_HTTP_PASSWORD',
  /** The Redis password of --queue (the user, if any, stays in the URL). */
  Queue: 'STINT_QUEUE_PASSWORD',
} as const;
export type SecretEnv = (typeof SecretEnv)[keyof typeof SecretEnv];
