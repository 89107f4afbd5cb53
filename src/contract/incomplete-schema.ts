import { memberOf, objectOf, stringSchema, type DataSchema } from './data-schema.js';
import { PROGRESS_SCHEMA } from './progress-schema.js';
import { IncompleteState } from './vocabulary/job-state.js';

/**
 * The schema of an INCOMPLETE (14) answer's data (incomplete.ts), the same for every command: the job, how far
 * it got and the two commands that continue or cancel it. Open: a command's partial outcome stands beside them.
 */
export const INCOMPLETE_SCHEMA: DataSchema = objectOf({
  description: 'Not finished and not lost: run continue_command until the exit is not 14',
  open: true,
  required: {
    state: memberOf(IncompleteState, 'running: a background job goes on; paused: the next call continues it'),
    job_id: stringSchema('The job, for the job commands'),
    progress: PROGRESS_SCHEMA,
    continue_command: stringSchema('The one command that continues the work, for sh -c, verbatim'),
    cancel_command: stringSchema('The command that stops the work and discards its checkpoint'),
  },
});
