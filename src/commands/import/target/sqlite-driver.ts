// better-sqlite3, loaded only when --into names a SQLite file: what stint
// uses of it (its types are not a dependency) and its errors as coded ones.
import { createRequire } from 'node:module';
import { StintError } from '../../../contract/stint-error.js';
import { databaseLocked } from '../../../runtime/storage/level-errors.js';
import { StintCode } from '../../stint-codes.js';
import { diskFull, rowRefused } from './database-errors.js';

export interface SqliteStatement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  pluck(toggle?: boolean): SqliteStatement;
  raw(toggle?: boolean): SqliteStatement;
}

export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  pragma(sql: string): unknown;
  transaction(work: () => void): () => void;
  close(): void;
}

type DatabaseClass = new (path: string, options?: { readonly?: boolean; fileMustExist?: boolean }) => SqliteDatabase;

const DRIVER = 'better-sqlite3';

/** Its compiled part is missing or built for another Node (it loads on the first open, not on require). */
const NOT_BUILT = /bindings file|NODE_MODULE_VERSION|compiled against/;

/** better-sqlite3's opener, or DRIVER_MISSING saying what to install (or rebuild, when built for another Node). */
export function loadSqlite(): { open(path: string, readonly?: boolean): SqliteDatabase } {
  let Database: DatabaseClass;
  try {
    Database = createRequire(import.meta.url)(DRIVER) as DatabaseClass;
  } catch (error) {
    throw driverMissing(error);
  }
  return {
    open(path, readonly = false) {
      try {
        return new Database(path, { readonly, fileMustExist: readonly });
      } catch (error) {
        throw NOT_BUILT.test((error as Error).message) ? driverMissing(error) : sqliteError(error, path);
      }
    },
  };
}

function driverMissing(error: unknown): StintError {
  const absent = (error as { code?: string }).code === 'MODULE_NOT_FOUND';
  const message = absent
    ? `a SQLite file needs the package ${DRIVER}, which is not installed`
    : `${DRIVER} is installed but cannot load: ${(error as Error).message.split('\n')[0]}`;
  return new StintError(StintCode.DriverMissing, message, {
    context: { package: DRIVER },
    fix_required: absent ? `Install it beside stint: npm install ${DRIVER}@12` : `Rebuild it: npm rebuild ${DRIVER}`,
  });
}

/**
 * A SQLite error as a coded one: a file another process holds is DATABASE_LOCKED, a full disk NO_SPACE (both
 * retryable: nothing committed is lost), a row the table's own constraints refuse SCHEMA_MISMATCH.
 */
export function sqliteError(error: unknown, path: string): StintError {
  if (error instanceof StintError) return error;
  const code = (error as { code?: string }).code ?? '';
  const message = (error as Error).message;
  const held = code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
  if (held) return databaseLocked('the SQLite file', path);
  if (code === 'SQLITE_FULL') return diskFull(`the disk of ${path}`);
  if (code.startsWith('SQLITE_CONSTRAINT')) return rowRefused(message, { path });
  return new StintError(StintCode.TableUnreadable, `the SQLite file ${path} cannot be used: ${message}`, {
    context: { path },
    fix_required: 'Name a SQLite file (sqlite:<path>) in a folder that exists and that this user may write',
  });
}
