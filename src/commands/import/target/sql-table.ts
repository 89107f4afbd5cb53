// What every SQL target does alike: check an existing table against the
// file's columns (or declare a new one) before any row is written.
import { StintCode } from '../../stint-codes.js';
import { StintError } from '../../../contract/stint-error.js';
import { SqlType } from '../map/sql-type.js';
import type { ColumnPlan } from './import-target.js';
import { quoteName } from '../../../engine/sinks/sql-sink.js';

/** How one database spells stint's column types, and reads a declared type back. */
export interface SqlDialect {
  declare(type: SqlType): string;
  read(declared: string): SqlType;
}

/** An existing table as its database describes it. */
export interface ExistingTable {
  readonly columns: readonly { readonly name: string; readonly type: SqlType }[];
  /** Columns with a unique index of their own (a --key column needs one for its upserts). */
  readonly unique: ReadonlySet<string>;
}

/** The types the workers check fields against, and the statements that make the table ready. */
export interface CheckedTable {
  readonly types: readonly SqlType[];
  readonly create: readonly string[];
}

/** The table, in the same database, of each import's records (checkpoint, run record, ledger), by table and key. */
export const STATE_TABLE = 'stint_import_state';

/** An identifier in double quotes, as SQL spells any name (the library's sinks spell it so too). */
export const quote = quoteName;

/** The table of the rows a run did not import: which run, the line, why, and the column that did not fit. */
export const rejectsTable = (table: string) => `${table}_rejects`;

/** Whether a column of type `table` holds every value of type `file` as it is. */
function holds(table: SqlType, file: SqlType): boolean {
  return table === file || table === SqlType.Text
    || (table === SqlType.Decimal && file === SqlType.Integer)
    || (table === SqlType.Timestamp && file === SqlType.Date);
}

/** The file's types against an existing table's, or a new table's declaration; SCHEMA_MISMATCH before any row. */
export function checkTable(
  dialect: SqlDialect, table: string, plan: ColumnPlan, existing: ExistingTable | undefined,
): CheckedTable {
  checkNames(plan.names);
  const rejects = `CREATE TABLE IF NOT EXISTS ${quote(rejectsTable(table))} (run TEXT NOT NULL, line BIGINT NOT NULL,`
    + ' reason TEXT NOT NULL, column_name TEXT)';
  const types = plan.types();
  if (!existing) {
    const columns = plan.names.map((name, k) =>
      `${quote(name)} ${dialect.declare(types[k]!)}${k === plan.keyIndex ? ' UNIQUE' : ''}`);
    return { types, create: [`CREATE TABLE ${quote(table)} (${columns.join(', ')})`, rejects] };
  }
  const held = new Map(existing.columns.map((c) => [c.name, c.type]));
  const sameNames = held.size === plan.names.length && plan.names.every((name) => held.has(name));
  if (!sameNames) {
    throw mismatch(`the table ${table} has other columns than the file`, {
      table: existing.columns.map((c) => c.name), file: plan.names,
    }, 'Import into another --table, or make the header match the table');
  }
  const misfits = plan.names.flatMap((name, k) => holds(held.get(name)!, types[k]!) ? []
    : [{ column: name, table: held.get(name)!, file: types[k]! }]);
  if (misfits.length > 0) {
    const list = misfits.map((m) => `${m.column} is ${m.table} in the table and ${m.file} in the file`).join('; ');
    throw mismatch(`the table ${table} cannot hold the file's values: ${list}`, { columns: misfits },
      'Import into another --table, give the table\'s types with --schema, or change the table');
  }
  const key = plan.keyIndex === undefined ? undefined : plan.names[plan.keyIndex]!;
  if (key !== undefined && !existing.unique.has(key)) {
    throw mismatch(`--key ${key} needs a unique index on that column of ${table}`, { column: key },
      `Create one (CREATE UNIQUE INDEX ON ${table} (${key})), or import without --key`);
  }
  return { types: plan.names.map((name) => held.get(name)!), create: [rejects] };
}

function mismatch(message: string, context: Record<string, unknown>, fix: string): StintError {
  return new StintError(StintCode.SchemaMismatch, message, { context, fix_required: fix });
}

/** A table needs distinct, non-empty names; a CSV header may have neither. */
export function checkNames(names: readonly string[]): void {
  const empty = names.findIndex((name) => name.trim() === '');
  const twice = names.find((name, k) => names.indexOf(name) !== k);
  if (empty < 0 && twice === undefined) return;
  const what = empty >= 0 ? `column ${empty + 1} of the header has no name` : `the header names ${twice} twice`;
  throw new StintError(StintCode.UnusableHeader, `${what}: a database table needs distinct names`, {
    context: { columns: names },
    fix_required: 'Name every column of the header once, or import into a LevelDB folder',
  });
}
