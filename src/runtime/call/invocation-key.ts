import { createHash } from 'node:crypto';

/** Everything that makes two calls "the identical invocation": the one that continues a paused job's work. */
export interface InvocationIdentity {
  /** The program's name: two programs' identical-looking calls are not the same invocation. */
  readonly program: string;
  readonly command: string;
  readonly positionals: Readonly<Record<string, unknown>>;
  /** Given flags that shape the result (budget, format, workers... excluded). */
  readonly flags: Readonly<Record<string, unknown>>;
  readonly cwd: string;
  readonly toolVersion: string;
  readonly stdinDigest?: string;
  readonly idempotencyKey?: string;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(record[key])]));
  }
  return value;
}

/** A stable hex digest of the identity: the same call always gives the same key. */
export function invocationKey(identity: InvocationIdentity): string {
  return createHash('sha256').update(JSON.stringify(canonical(identity))).digest('hex').slice(0, 32);
}
