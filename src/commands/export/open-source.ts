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
    default:
      throw notSupported(`${from}: stint does not export from ${kind} yet`);
  }
}

function notSupported(message: string): StintError {
  return new StintError(StintCode.IntoNotSupported, message, {
    context: { kinds: ['a LevelDB folder', 'sqlite:<file>'] },
    fix_required: 'Export a LevelDB folder, or a SQLite file\'s table (sqlite:<file> --table <name>)',
  });
}
