/**
 * A URL's password: `redis://user:secret@host` (also `rediss://`, and inside `--queue=...`), or an http:// or
 * https:// input's (`https://user:secret@host/file.csv`).
 */
const URL_SECRET = /((?:rediss?|https?):\/\/[^:@/\s]*):[^@/\s]*@/g;

/**
 * The argv as a job keeps it (job.json, `job list`, `job status`, continue_command): with no password in a
 * URL. The password is the call's alone; a continued or detached run takes it from STINT_QUEUE_PASSWORD (a
 * queue's) or STINT_HTTP_PASSWORD (an input's).
 */
export const argvWithoutSecrets = (argv: readonly string[]): string[] =>
  argv.map((arg) => arg.replace(URL_SECRET, '$1@').replace(/((?:rediss?|https?):\/\/)@/g, '$1'));
