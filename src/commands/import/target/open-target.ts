import { StintCode } from '../../stint-codes.js';
import { StintError } from '../../../contract/stint-error.js';
import type { ImportTarget } from './import-target.js';
import { defaultTableName, TargetKind, targetAddress } from './target-address.js';

/** What an import call says of its target: --into, --table, and the file and run it writes. */
export interface TargetCall {
  readonly into: string;
  readonly table: string | undefined;
  /** The input as named: a table without --table is named after it. */
  readonly path: string;
  /** The run's idempotency key: its rejected rows are filed under it. */
  readonly idem: string;
}

/** Opens the target --into names; only the one driver it needs is loaded. */
export async function openTarget(call: TargetCall): Promise<ImportTarget> {
  const { kind, location } = targetAddress(call.into);
  switch (kind) {
    case TargetKind.Level: {
      if (call.table !== undefined) throw notSupported('--table names a table of a database; a LevelDB folder is one');
      const { levelTarget } = await import('./level-target.js');
      return levelTarget(location);
    }
    case TargetKind.Sqlite: {
      const { sqliteTarget } = await import('./sqlite-target.js');
      return sqliteTarget(location, call.table ?? defaultTableName(call.path), call.idem);
    }
    case TargetKind.DuckDb: {
      const { duckdbTarget } = await import('./duckdb-target.js');
      return duckdbTarget(location, call.table ?? defaultTableName(call.path), call.idem);
    }
    case TargetKind.Postgres: {
      const { postgresTarget } = await import('./postgres-target.js');
      return postgresTarget(location, call.table ?? defaultTableName(call.path), call.idem);
    }
  }
}

function notSupported(message: string): StintError {
  return new StintError(StintCode.IntoNotSupported, message, {
    context: { kinds: ['a LevelDB folder', 'sqlite:<file>', 'duckdb:<file>', 'postgres://…'] },
    fix_required: 'Import into a LevelDB folder (--into <dir>), a SQLite or DuckDB file (--into sqlite:<file>, '
      + '--into duckdb:<file>) or a PostgreSQL table (--into postgres://…)',
  });
}
