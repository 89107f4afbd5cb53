import { SecretEnv } from '../../contract/vocabulary/secret-env.js';

/** Where a URL begins in an argument: an input (`https://…`), or a queue (`redis://…`, `--queue=rediss://…`). */
const URL_START = /(rediss?|https?):\/\//gi;

/** The credentials of one URL in an argument, by position: `scheme://user:password@host`. */
interface Credentials {
  readonly kind: SecretEnv;
  /** Where the user begins (after `//`), the `:` before the password (-1: none) and the `@` after them. */
  readonly user: number;
  readonly colon: number;
  readonly at: number;
  /** The host (and port) they are sent to. */
  readonly host: string;
}

/** The credentials of each URL in `arg`, read as a URL parser reads them (the last `@` of the authority ends them). */
function credentialsIn(arg: string): Credentials[] {
  const found: Credentials[] = [];
  for (const match of arg.matchAll(URL_START)) {
    const user = match.index + match[0].length;
    const length = arg.slice(user).search(/[/?#\s]/);
    const end = length < 0 ? arg.length : user + length;
    const at = arg.lastIndexOf('@', end - 1);
    if (at < user) continue;
    const colon = arg.indexOf(':', user);
    const kind = match[1]!.toLowerCase().startsWith('redis') ? SecretEnv.Queue : SecretEnv.Http;
    found.push({ kind, user, colon: colon >= 0 && colon < at ? colon : -1, at, host: arg.slice(at + 1, end) });
  }
  return found;
}

/**
 * The argv as a job keeps it (job.json, `job list`, `job status`, continue_command): with no password in a
 * URL. The password is the call's alone; a continued or detached run takes it from the environment (SecretEnv).
 */
export const argvWithoutSecrets = (argv: readonly string[]): string[] => argv.map(withoutSecrets);

/** An argument or a flag's value with no password in its URLs. */
export function withoutSecrets(arg: string): string {
  let kept = arg;
  // From the last URL back, so that the positions of those before stay true.
  for (const { user, colon, at } of credentialsIn(arg).reverse()) {
    if (colon < 0) continue;
    // A password without a user leaves no credentials: `redis://:secret@host` becomes `redis://host`.
    kept = colon === user ? kept.slice(0, user) + kept.slice(at + 1) : kept.slice(0, colon) + kept.slice(at);
  }
  return kept;
}

/**
 * The passwords of the call's URLs as the environment a run it hands on (a detached supervisor) takes them from:
 * that run reads the job's argv, which holds none. Only a password that every URL of its kind naming credentials
 * shares, with the same user and host: the variable stands for any such URL, and no password may reach a host
 * the call did not send it to.
 */
export function secretEnvOf(argv: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const kind of Object.values(SecretEnv)) {
    const named = argv.flatMap((arg) => credentialsIn(arg).filter((c) => c.kind === kind).map((c) => ({
      who: `${arg.slice(c.user, c.colon < 0 ? c.at : c.colon)}@${c.host.toLowerCase()}`,
      password: c.colon < 0 ? undefined : arg.slice(c.colon + 1, c.at),
    })));
    const [first] = named;
    const shared = named.every((c) => c.who === first?.who && c.password === first.password);
    if (first?.password && shared) env[kind] = decoded(first.password);
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
