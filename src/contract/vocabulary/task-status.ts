/** The §7D task/agent result set of seed 003 (seven values). */
export const TaskStatus = {
  Done: 'done',
  Pending: 'pending',
  Incomplete: 'incomplete',
  Interrupted: 'interrupted',
  Closed: 'closed',
  Timeout: 'timeout',
  Error: 'error',
} as const;
export type TaskStatus = (typeof TaskStatus)[keyof typeof TaskStatus];
