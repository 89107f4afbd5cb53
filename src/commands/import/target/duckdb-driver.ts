// @duckdb/node-api, loaded only when --into names a DuckDB file: what stint
// uses of it (its types are not a dependency) and its errors as coded ones.
import { createRequire } from 'node:module';
import { StintError } from '../../../contract/stint-error.js';
import { databaseLocked } from '../../../runtime/storage/level-errors.js';
import { StintCode } from '../../stint-codes.js';
import { diskFull, rowRefused } from './database-errors.js';

/** A BLOB as DuckDB gives it back, or binds it (blobValue). */
export interface DuckBlob {
  readonly bytes: Uint8Array;
}

export interface DuckConnection {
  run(sql: string, values?: readonly unknown[]): Promise<unknown>;
  runAndReadAll(sql: string, values?: readonly unknown[]): Promise<{ getRows(): unknown[][] }>;
  /** A query whose rows are read as they come (yieldRows), not all at once. */
  stream(sql: string, values?: readonly unknown[]): Promise<{ yieldRows(): AsyncIterable<unknown[][]> }>;
  closeSync(): void;
}

export interface DuckDriver {
  /** Opens (or creates) the file; `readonly` opens an existing one without taking its write lock. */
  open(path: string, readonly?: boolean): Promise<{ connect(): Promise<DuckConnection>; closeSync(): void }>;
  blob(bytes: Uint8Array): DuckBlob;
}

const DRIVER = '@duckdb/node-api';

interface NodeApi {
  DuckDBInstance: { create(path: string, options?: Record<string, string>): Promise<ReturnType<DuckDriver['open']>> };
  blobValue(bytes: Uint8Array): DuckBlob;
}

/** @duckdb/node-api, or DRIVER_MISSING saying what to install. */
export function loadDuckDb(): DuckDriver {
  let api: NodeApi;
  try {
    api = createRequire(import.meta.url)(DRIVER) as NodeApi;
  } catch (error) {
    throw new StintError(StintCode.DriverMissing, `a DuckDB file needs the package ${DRIVER}: `
      + (error as Error).message.split('\n')[0], {
      context: { package: DRIVER },
      fix_required: `Install it beside stint: npm install ${DRIVER}`,
    });
  }
  return {
    async open(path, readonly = false) {
      try {
        return await api.DuckDBInstance.create(path, readonly ? { access_mode: 'READ_ONLY' } : undefined);
      } catch (error) {
        throw duckdbError(error, path);
      }
    },
    blob: (bytes) => api.blobValue(bytes),
  };
}

/** How DuckDB words a file another process holds, a full disk and a row a constraint refuses. */
const HELD = /Could not set lock|Conflicting lock/;
const FULL = /No space left on device|ENOSPC/i;
const CONSTRAINT = /^Constraint Error|violates/;

/**
 * A DuckDB error as a coded one: a file another process holds is DATABASE_LOCKED, a full disk NO_SPACE
 * (both retryable: nothing committed is lost), a row the table's own constraints refuse SCHEMA_MISMATCH.
 */
export function duckdbError(error: unknown, path: string): StintError {
  if (error instanceof StintError) return error;
  const message = (error as Error).message;
  if (HELD.test(message)) return databaseLocked('the DuckDB file', path);
  if (FULL.test(message)) return diskFull(`the disk of ${path}`);
  if (CONSTRAINT.test(message)) return rowRefused(message, { path });
  return new StintError(StintCode.TableUnreadable, `the DuckDB file ${path} cannot be used: ${message}`, {
    context: { path },
    fix_required: 'Name a DuckDB file (duckdb:<path>) in a folder that exists and that this user may write',
  });
}
