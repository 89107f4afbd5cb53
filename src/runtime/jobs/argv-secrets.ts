/** A Redis URL's password: `redis://user:secret@host` (also `rediss://`, and inside `--queue=...`). */
const URL_SECRET = /(rediss?:\/\/[^:@/\s]*):[^@/\s]*@/g;

/**
 * The argv as a job keeps it (job.json, `job list`, `job status`, continue_command): with no password in a
 * queue URL. The password is the call's alone; a continued or detached run takes it from STINT_QUEUE_PASSWORD.
 */
export const argvWithoutSecrets = (argv: readonly string[]): string[] =>
  argv.map((arg) => arg.replace(URL_SECRET, '$1@').replace(/(rediss?:\/\/)@/g, '$1'));
