import { resolve } from 'node:path';
import { StintCode } from '../stint-codes.js';
import { StintError } from '../../contract/stint-error.js';
import { TargetKind, targetAddress } from '../import/target/target-address.js';
import type { ExportSource } from './export-source.js';

/** The table an export reads: the folder, or the database --table names (as `stint import --into` wrote it). */
export async function openSource(from: string, table: string | undefined, cwd: string): Promise<ExportSource> {
  const { kind, location } = targetAddress(from);
  switch (kind) {
    case TargetKind.Level: {
      if (table !== undefined) throw notSupported('--table names a table of a database; a LevelDB folder is one');
      const { levelSource } = await import('./level-source.js');
      return levelSource(resolve(cwd, location), from);
    }
    case TargetKind.Sqlite: {
      const { sqliteSource } = await import('./sqlite-source.js');
      return sqliteSource(resolve(cwd, location), table);
    }
    case TargetKind.DuckDb: {
      const { duckdbSource } = await import('./duckdb-source.js');
      return duckdbSource(resolve(cwd, location), table);
    }
    case TargetKind.Postgres: {
      const { postgresSource } = await import('./postgres-source.js');
      return postgresSource(location, table);
    }
  }
}

function notSupported(message: string): StintError {
  return new StintError(StintCode.IntoNotSupported, message, {
    context: { kinds: ['a LevelDB folder', 'sqlite:<file>', 'duckdb:<file>', 'postgres://…'] },
    fix_required: 'Export a LevelDB folder, or a database\'s table (sqlite:<file>, duckdb:<file> or postgres://…, '
      + 'with --table <name>)',
  });
}
