// A table of a DuckDB file, read in rowid order (the order `stint import`
// appended its rows) through one streamed query per call, opened read-only:
// numbers and booleans as DuckDB holds them, timestamps in ISO 8601.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { duckdbError, loadDuckDb, type DuckConnection } from '../import/target/duckdb-driver.js';
import { DUCKDB_DIALECT } from '../import/target/duckdb-target.js';
import { quote, STATE_TABLE } from '../import/target/sql-table.js';
import type { ExportSource } from './export-source.js';
import { chooseTable, tableNotFound } from './source-table.js';
import { textBatches, typedLine, type TextRead, type TextRow } from './typed-line.js';

/** The file's table (without --table, its one table besides stint's own and the rejects). */
export async function duckdbSource(path: string, table: string | undefined): Promise<ExportSource> {
  if (!existsSync(path)) throw tableNotFound(`no DuckDB file at ${path}`, path, `duckdb:${path}`);
  const instance = await loadDuckDb().open(path, true);
  const db = await instance.connect();
  const close = () => {
    db.closeSync();
    instance.closeSync();
  };
  try {
    await db.run("SET TimeZone = 'UTC'");
    return await readTable(db, path, table, close);
  } catch (error) {
    close();
    throw duckdbError(error, path);
  }
}

async function rowsOf(db: DuckConnection, sql: string, values?: readonly unknown[]): Promise<unknown[][]> {
  return (await db.runAndReadAll(sql, values)).getRows();
}

async function readTable(
  db: DuckConnection, path: string, asked: string | undefined, close: () => void,
): Promise<ExportSource> {
  const tables = (await rowsOf(db, 'SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()'
    + ' AND schema_name = current_schema() ORDER BY table_name')).map(([name]) => String(name));
  const table = chooseTable(tables, asked, path, `duckdb:${path}`);
  const columns = await rowsOf(db, 'SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = ?'
    + ' AND database_name = current_database() AND schema_name = current_schema() ORDER BY column_index', [table]);
  const names = columns.map(([name]) => String(name));
  const types = columns.map(([, type]) => DUCKDB_DIALECT.read(String(type)));
  // A DOUBLE as JavaScript's shortest spelling (DuckDB's own text adds .0); every other value as DuckDB spells it.
  const doubles = columns.map(([, type]) => /^(DOUBLE|FLOAT|REAL)$/.test(String(type)));
  const select = names.map((name, k) => (doubles[k] ? quote(name) : `${quote(name)}::VARCHAR`)).join(', ');
  const name = quote(table);
  const [[total, last]] = await rowsOf(db, `SELECT count(*), max(rowid) FROM ${name}`) as [[bigint, bigint | null]];
  const textOf = (value: unknown): string | null => (value === null ? null : String(value));
  return {
    columns: names,
    total: Number(total),
    async version() {
      // The import's own records change with each of its commits; the count and last rowid with other writers'.
      const hash = createHash('sha256').update(`${total}:${last}:`);
      const state = tables.includes(STATE_TABLE)
        ? await rowsOf(db, `SELECT key, value FROM ${STATE_TABLE} WHERE tbl = ? AND (starts_with(key, 'ckpt:')`
          + " OR starts_with(key, 'run:')) ORDER BY key", [table])
        : [];
      for (const [key, value] of state) {
        const bytes = (value as { bytes: Uint8Array }).bytes;
        hash.update(`${String(key).length}:${String(key)}${bytes.length}:`).update(bytes);
      }
      return hash.digest('hex');
    },
    batches(format, after) {
      const streamed = db.stream(`SELECT rowid, ${select} FROM ${name} WHERE rowid > ? ORDER BY rowid`,
        [after === undefined ? -1 : Number(after)]);
      async function* reads(): AsyncIterable<TextRead> {
        for await (const rows of (await streamed).yieldRows()) {
          const text: TextRow[] = rows.map((row) => row.slice(1).map(textOf));
          yield { rows: text, last: String(rows.at(-1)?.[0] ?? after) };
        }
      }
      return textBatches(reads(), typedLine(format, names, types));
    },
    close: async () => close(),
  };
}
