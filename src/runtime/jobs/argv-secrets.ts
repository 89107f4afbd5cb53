import { SecretEnv } from '../../contract/vocabulary/secret-env.js';

/**
 * A URL's password: `redis://user:secret@host` (also `rediss://`, and inside `--queue=...`), or an http:// or
 * https:// input's (`https://user:secret@host/file.csv`).
 */
const URL_SECRET = /((?:rediss?|https?):\/\/[^:@/\s]*):[^@/\s]*@/g;

/**
 * The argv as a job keeps it (job.json, `job list`, `job status`, continue_command): with no password in a
 * URL. The password is the call's alone; a continued or detached run takes it from the environment (SecretEnv).
 */
export const argvWithoutSecrets = (argv: readonly string[]): string[] =>
  argv.map((arg) => arg.replace(URL_SECRET, '$1@').replace(/((?:rediss?|https?):\/\/)@/g, '$1'));

const URL_PASSWORD = /(rediss?|https?):\/\/[^:@/\s]*:([^@/\s]*)@/g;

/**
 * The passwords of the call's URLs as the environment a run it hands on (a detached supervisor) takes them from:
 * that run reads the job's argv, which holds none. The first URL of each kind counts, as the call's own reads did.
 */
export function secretEnvOf(argv: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [, scheme, password] of argv.flatMap((arg) => [...arg.matchAll(URL_PASSWORD)])) {
    const name = scheme!.startsWith('redis') ? SecretEnv.Queue : SecretEnv.Http;
    if (password && env[name] === undefined) env[name] = decoded(password);
  }
  return env;
}

/** A URL's password as its reader takes it (percent escapes undone; a malformed one kept as written). */
function decoded(password: string): string {
  try {
    return decodeURIComponent(password);
  } catch {
    return password;
  }
}
