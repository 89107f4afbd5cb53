// pg and pg-copy-streams, loaded only when --into names a PostgreSQL
// server: what stint uses of them (their types are not a dependency) and
// PostgreSQL's errors as coded ones.
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { ErrorCode } from '../../../contract/error-code.js';
import { StintError } from '../../../contract/stint-error.js';
import { databaseLocked } from '../../../runtime/storage/level-errors.js';
import { StintCode } from '../../stint-codes.js';
import { diskFull, rowRefused } from './database-errors.js';
import { shownUrl } from './target-address.js';

export interface PgResult {
  readonly rows: Record<string, unknown>[];
}

export interface PgClient {
  connect(): Promise<void>;
  query(sql: string, params?: readonly unknown[]): Promise<PgResult>;
  query<T extends Writable>(stream: T): T;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): void;
}

export interface PgDriver {
  /** A client of the server the URL names (the PG* environment variables fill in what it leaves out). */
  client(url: string): PgClient;
  /** A COPY … FROM STDIN stream for PgClient.query. */
  copyFrom(sql: string): Writable;
}

const PACKAGES = ['pg', 'pg-copy-streams'] as const;

/** pg and pg-copy-streams, or DRIVER_MISSING naming what to install. */
export function loadPostgres(): PgDriver {
  const require = createRequire(import.meta.url);
  let pg: { Client: new (options: { connectionString: string }) => PgClient };
  let copy: { from(sql: string): Writable };
  try {
    pg = require(PACKAGES[0]) as typeof pg;
    copy = require(PACKAGES[1]) as typeof copy;
  } catch (error) {
    const why = (error as Error).message.split('\n')[0];
    const message = `a PostgreSQL --into needs the packages ${PACKAGES.join(' and ')}: ${why}`;
    throw new StintError(StintCode.DriverMissing, message, {
      context: { package: PACKAGES.join(' ') },
      fix_required: `Install them beside stint: npm install ${PACKAGES.join(' ')}`,
    });
  }
  return { client: (url) => new pg.Client({ connectionString: url }), copyFrom: (sql) => copy.from(sql) };
}

/** What a connection can lose on the way: the server went away, restarted or is still starting. */
const GONE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03']);


/** How pg words a connection it lost (these errors have no code). */
const LOST = /Connection terminated|connection ended|not queryable/i;

/**
 * A PostgreSQL error as a coded one. Whatever the server did not confirm was
 * rolled back with its transaction, so the retryable ones (a server gone or
 * restarting, a lock) lose nothing committed: the identical call goes on.
 */
export function postgresError(error: unknown, url: string): StintError {
  if (error instanceof StintError) return error;
  const code = String((error as { code?: unknown }).code ?? '');
  const message = (error as Error).message;
  const server = shownUrl(url);
  if (GONE.has(code) || code.startsWith('08') || LOST.test(message)) {
    const gone = `the PostgreSQL server ${server} is out of reach: ${message}`;
    return new StintError(StintCode.DatabaseUnreachable, gone, {
      retryable: true, retry_after_ms: 2000, retry_strategy: 'exponential_backoff', context: { url: server },
      suggestion: 'Call again once the server is up: the rows committed so far are kept',
    });
  }
  if (code === '28P01' || code === '28000') {
    return new StintError(ErrorCode.AuthRequired, `the PostgreSQL server ${server} refused the login: ${message}`, {
      context: { url: server }, fix_required: 'Give the user and password in the URL or in PGUSER and PGPASSWORD',
    });
  }
  if (code === '40001' || code === '40P01' || code === '55P03') return databaseLocked('the table', server);
  if (code === '53100') return diskFull('the PostgreSQL server\'s disk', message);
  if (code.startsWith('23') || code.startsWith('22')) return rowRefused(message, { url: server });
  return new StintError(StintCode.TableUnreadable, `the PostgreSQL server ${server} answered: ${message}`, {
    context: { url: server, code },
  });
}
