import { basename } from 'node:path';
import { IMPORT_CHUNK_SIZE } from '../../engine-flags.js';

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

/**
 * Bytes per chunk (one commit each) when --chunk-size is not given. DuckDB writes a commit's whole row groups
 * (122,880 rows) straight to its file, compressed, and the rest through its log, which costs it as much again: the
 * bench's 1 GiB file (51 bytes a row) took 47 to 53 s in 4 MiB commits and 31 to 38 s in 16 MiB ones while the
 * workers wrote their rows in JavaScript; now 24.0 and 24.6 s in 16 MiB, 20.9 and 22.4 s in 32 MiB (1.18 GB peak
 * RSS against 1.10), 22.2 and 22.7 s in 64 MiB (1.5 GB). The others gain nothing measurable from bigger commits,
 * which cost memory (see IMPORT_CHUNK_SIZE).
 */
export const COMMIT_BYTES: Readonly<Record<TargetKind, number>> = {
  [TargetKind.Level]: IMPORT_CHUNK_SIZE,
  [TargetKind.Sqlite]: IMPORT_CHUNK_SIZE,
  [TargetKind.Postgres]: IMPORT_CHUNK_SIZE,
  [TargetKind.DuckDb]: 32 * 1024 * 1024,
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
