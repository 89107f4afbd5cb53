// A table of a SQLite file, read in rowid order (the order `stint import`
// gave its rows) and written as its values read: NULL as an empty field
// (null in NDJSON), a BOOLEAN column's 1 and 0 as true and false, numbers
// as their digits.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { PackedOutput } from '../../engine/worker/packed-output.js';
import { loadSqlite, sqliteError, type SqliteDatabase } from '../import/target/sqlite-driver.js';
import { quote, STATE_TABLE } from '../import/target/sql-table.js';
import { csvField, ExportFormat } from './export-format.js';
import type { ExportSource } from './export-source.js';
import { chooseTable, tableNotFound } from './source-table.js';
import { BATCH_BYTES } from './level-source.js';

const ROWS_PER_READ = 4096;

/** A value as text: integers come as BigInt (none rounds), a BOOLEAN column's as true or false. */
function textOf(value: unknown, boolean: boolean): string | null {
  if (value === null || value === undefined) return null;
  if (boolean && (typeof value === 'bigint' || typeof value === 'number')) return value ? 'true' : 'false';
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return String(value);
}

/** One row as a line of the format. */
function lineOf(format: ExportFormat, names: readonly string[], booleans: readonly boolean[]) {
  const keys = names.map((name) => `${JSON.stringify(name)}:`);
  if (format === ExportFormat.Csv) {
    return (row: readonly unknown[]) => `${row.map((v, k) => csvField(textOf(v, booleans[k]!) ?? '')).join(',')}\n`;
  }
  return (row: readonly unknown[]) => `{${row.map((v, k) => keys[k] + jsonOf(v, booleans[k]!)).join(',')}}\n`;
}

function jsonOf(value: unknown, boolean: boolean): string {
  const text = textOf(value, boolean);
  if (text === null) return 'null';
  return typeof value === 'string' || value instanceof Uint8Array ? JSON.stringify(text) : text;
}

/** The file's table (without --table, its one table besides stint's own and the rejects). */
export function sqliteSource(path: string, table: string | undefined): ExportSource {
  if (!existsSync(path)) throw tableNotFound(`no SQLite file at ${path}`, path, `sqlite:${path}`);
  const db = loadSqlite().open(path, true);
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    return readTable(db, chooseTable(tables as string[], table, path, `sqlite:${path}`));
  } catch (error) {
    db.close();
    throw sqliteError(error, path);
  }
}

function readTable(db: SqliteDatabase, table: string): ExportSource {
  const columns = db.prepare(`PRAGMA table_info(${quote(table)})`).all() as { name: string; type: string }[];
  const names = columns.map((c) => c.name);
  const booleans = columns.map((c) => c.type.toUpperCase() === 'BOOLEAN');
  const name = quote(table);
  const total = db.prepare(`SELECT count(*) FROM ${name}`).pluck().get() as number;
  const read = db.prepare(`SELECT rowid, * FROM ${name} WHERE rowid > ? ORDER BY rowid LIMIT ${ROWS_PER_READ}`).raw();
  (read as unknown as { safeIntegers(on: boolean): void }).safeIntegers(true);
  return {
    columns: names,
    total,
    async version() {
      // The import's own records change with each of its commits; the count and last rowid with other writers'.
      const hash = createHash('sha256').update(`${total}:`);
      hash.update(String(db.prepare(`SELECT max(rowid) FROM ${name}`).pluck().get()));
      const state = hasStateTable(db)
        ? db.prepare(`SELECT key, value FROM ${STATE_TABLE} WHERE tbl = ? AND (key LIKE 'ckpt:%' OR key LIKE 'run:%')`
          + ' ORDER BY key').raw().all(table) as [string, Uint8Array][]
        : [];
      for (const [key, value] of state) hash.update(`${key.length}:${key}${value.length}:`).update(value);
      return hash.digest('hex');
    },
    async *batches(format, after) {
      const line = lineOf(format, names, booleans);
      const output = new PackedOutput(BATCH_BYTES);
      let last = after === undefined ? 0n : BigInt(after);
      for (;;) {
        const rows = read.all(last) as unknown[][];
        if (rows.length === 0) return;
        output.used = 0;
        for (const row of rows) {
          const text = line(row.slice(1));
          output.reserve(3 * text.length);
          output.used += output.bytes.write(text, output.used);
        }
        last = rows.at(-1)![0] as bigint;
        yield { bytes: output.bytes.subarray(0, output.used), last: String(last), rows: rows.length };
      }
    },
    close: async () => db.close(),
  };
}

function hasStateTable(db: SqliteDatabase): boolean {
  return db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?").pluck()
    .get(STATE_TABLE) as number > 0;
}
