// Reading a SQLite file as the tests check it: through better-sqlite3
// itself, not through stint.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

interface Statement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  run(...params: unknown[]): unknown;
  raw(toggle?: boolean): Statement;
  iterate(...params: unknown[]): IterableIterator<unknown>;
}
export interface SqliteFile {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
}

export function openSqlite(path: string, readonly = true): SqliteFile {
  const Database = createRequire(import.meta.url)('better-sqlite3') as new (p: string, o: object) => SqliteFile;
  return new Database(path, { readonly, fileMustExist: readonly });
}

/** The table's columns and their declared types, in order. */
export function declaredTypes(path: string, table: string): Record<string, string> {
  const db = openSqlite(path);
  try {
    const rows = db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; type: string }[];
    return Object.fromEntries(rows.map((r) => [r.name, r.type]));
  } finally {
    db.close();
  }
}

/** A CSV field as SQLite should hold it in a column of this declared type: typed, and NULL when empty. */
export function expectedValue(declared: string, text: string): unknown {
  if (text === '') return null;
  switch (declared) {
    case 'INTEGER': return BigInt(text);
    case 'REAL': return Number(text);
    case 'BOOLEAN': return BigInt(text.toLowerCase() === 'true' ? 1 : 0);
    default: return text;
  }
}

/**
 * The table, row by row in rowid order, equals the CSV's records (the header first): each field typed by its
 * column's declared type, every empty field NULL, nothing else in the table. Answers the rowids.
 */
export function assertTableEquals(path: string, table: string, records: readonly string[][]): bigint[] {
  const types = declaredTypes(path, table);
  const [header, ...rows] = records;
  assert.deepEqual(Object.keys(types), header, 'the table has the header\'s columns, in order');
  const declared = header!.map((name) => types[name]!);
  const db = openSqlite(path);
  const ids: bigint[] = [];
  try {
    const read = db.prepare(`SELECT rowid, * FROM "${table}" ORDER BY rowid`).raw(true);
    (read as unknown as { safeIntegers(on: boolean): void }).safeIntegers(true);
    let k = 0;
    for (const row of read.iterate() as IterableIterator<unknown[]>) {
      const record = rows[k];
      assert.ok(record, `the table has a row past the file's ${rows.length}`);
      ids.push(row[0] as bigint);
      // Integers come back as BigInt (none rounds); a REAL is a number however SQLite stored it.
      const fields = row.slice(1).map((value, c) => declared[c] === 'REAL' && typeof value === 'bigint'
        ? Number(value) : value);
      const expected = record.map((text, c) => expectedValue(declared[c]!, text));
      if (!sameRow(fields, expected)) assert.deepEqual(fields, expected, `row ${k + 1} (rowid ${row[0]})`);
      k++;
    }
    assert.equal(k, rows.length, 'every record of the file is a row of the table');
  } finally {
    db.close();
  }
  return ids;
}

function sameRow(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, k) => value === b[k]);
}

/** The records stint keeps beside the table (checkpoints, run records, ledger spans), by key. */
export function stateKeys(path: string, table: string): string[] {
  const db = openSqlite(path);
  try {
    return (db.prepare('SELECT key FROM stint_import_state WHERE tbl = ? ORDER BY key').raw(true).all(table) as
      [string][]).map((row) => row[0]);
  } finally {
    db.close();
  }
}
