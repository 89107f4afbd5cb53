import { basename } from 'node:path';

/** The kinds of place an import writes (and an export reads): how --into spells each. */
export const TargetKind = {
  /** A folder: stint's embedded LevelDB table, the default. */
  Level: 'level',
  Sqlite: 'sqlite',
  DuckDb: 'duckdb',
  Postgres: 'postgres',
} as const;
export type TargetKind = (typeof TargetKind)[keyof typeof TargetKind];

/** A database's kinds: the places that hold typed tables. */
export type DatabaseKind = Exclude<TargetKind, typeof TargetKind.Level>;

/**
 * The significant decimal digits a decimal column of each database holds exactly: a REAL or a DOUBLE holds 15,
 * a numeric every one. A decimal column that needs more is text.
 */
export const DECIMAL_DIGITS: Readonly<Record<DatabaseKind, number>> = {
  [TargetKind.Sqlite]: 15,
  [TargetKind.DuckDb]: 15,
  [TargetKind.Postgres]: Infinity,
};

/** Where --into points: its kind and, past the scheme, the file or connection string. */
export interface TargetAddress {
  readonly kind: TargetKind;
  readonly location: string;
}

const SQLITE = 'sqlite:';
const DUCKDB = 'duckdb:';
const POSTGRES = /^postgres(ql)?:\/\//;

export function targetAddress(into: string): TargetAddress {
  if (POSTGRES.test(into)) return { kind: TargetKind.Postgres, location: into };
  if (into.startsWith(SQLITE)) return { kind: TargetKind.Sqlite, location: into.slice(SQLITE.length) };
  if (into.startsWith(DUCKDB)) return { kind: TargetKind.DuckDb, location: into.slice(DUCKDB.length) };
  return { kind: TargetKind.Level, location: into };
}

/** --into as answers show it: a URL's password left out (it belongs in PGPASSWORD). */
export function shownUrl(into: string): string {
  return into.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
}

/** A table named by nothing in its file's name (stdin, `-`). */
const UNNAMED = 'imported';

/** The table a file goes to without --table: its name up to the first dot, as letters, digits and _. */
export function defaultTableName(path: string): string {
  const stem = basename(path).split('.')[0]!.replace(/[^A-Za-z0-9_]/g, '_');
  if (!/[A-Za-z0-9]/.test(stem)) return UNNAMED;
  return /^[A-Za-z_]/.test(stem) ? stem : `t_${stem}`;
}
