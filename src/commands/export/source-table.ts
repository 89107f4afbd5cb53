// Which table of a database an export reads: the one --table names, or the
// only one that holds rows (stint's records and the rejects tables aside).
import { ErrorCode } from '../../contract/error-code.js';
import { StintCode } from '../stint-codes.js';
import { StintError } from '../../contract/stint-error.js';
import { STATE_TABLE } from '../import/target/sql-table.js';

/** TABLE_NOT_FOUND (5), saying how the table would come to be: `into` is the --into that writes it. */
export function tableNotFound(message: string, where: string, into: string): StintError {
  return new StintError(StintCode.TableNotFound, message, {
    context: { path: where },
    fix_required: `Name a table of it with --table, or import into it first: stint import <file.csv> --into ${into}`,
  });
}

/** The table named, when the database has it; without a name, its one table of rows. */
export function chooseTable(tables: readonly string[], table: string | undefined, where: string, into: string): string {
  if (table !== undefined) {
    if (tables.includes(table)) return table;
    throw tableNotFound(`${where} has no table ${table}`, where, into);
  }
  const rows = tables.filter((name) => name !== STATE_TABLE && !name.endsWith('_rejects'));
  if (rows.length === 1) return rows[0]!;
  if (rows.length === 0) throw tableNotFound(`${where} has no table`, where, into);
  throw new StintError(ErrorCode.ArgError, `${where} has ${rows.length} tables: name one with --table`, {
    context: { path: where, tables: rows }, fix_required: `Name one with --table (${rows.join(', ')})`,
  });
}
