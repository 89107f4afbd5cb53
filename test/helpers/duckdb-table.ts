// Reading a DuckDB file as the tests check it: through @duckdb/node-api
// itself, not through stint. Each read opens the file and closes it again
// (DuckDB lets one process write a file, and stint runs between reads).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

interface Connection {
  run(sql: string): Promise<unknown>;
  runAndReadAll(sql: string): Promise<{ getRows(): unknown[][] }>;
  closeSync(): void;
}
interface Api {
  DuckDBInstance: {
    create(path: string, o?: object): Promise<{ connect(): Promise<Connection>; closeSync(): void }>;
  };
}

/** Runs `work` on the file (read-only unless told), closed after. */
export async function withDuckDb<T>(path: string, work: (db: Connection) => Promise<T>, write = false): Promise<T> {
  const api = createRequire(import.meta.url)('@duckdb/node-api') as Api;
  const instance = await api.DuckDBInstance.create(path, write ? undefined : { access_mode: 'READ_ONLY' });
  const db = await instance.connect();
  await db.run("SET TimeZone = 'UTC'");
  try {
    return await work(db);
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}

/** The rows a query answers. */
export const duckRows = (path: string, sql: string) =>
  withDuckDb(path, async (db) => (await db.runAndReadAll(sql)).getRows());

/** The table's columns and their types as DuckDB names them, in order. */
export async function duckdbTypes(path: string, table: string): Promise<Record<string, string>> {
  const rows = await duckRows(path, 'SELECT column_name, data_type FROM duckdb_columns() '
    + `WHERE table_name = '${table}' ORDER BY column_index`);
  return Object.fromEntries(rows.map(([name, type]) => [String(name), String(type)]));
}

/** The instant an ISO 8601 timestamp names in milliseconds, a time without a zone read as UTC. */
function instant(text: string): number {
  let iso = text.replace(' ', 'T');
  if (iso.length === 10) iso += 'T00:00:00';
  iso = iso.replace(/([+-]\d\d)$/, '$1:00');
  if (!/(Z|[+-]\d\d:\d\d)$/.test(iso)) iso += 'Z';
  return Date.parse(iso);
}

/** A CSV field as DuckDB's value of a column of this type should be: NULL when empty. */
function expected(type: string, text: string): unknown {
  if (text === '') return null;
  switch (type) {
    case 'BIGINT': return BigInt(text);
    case 'DOUBLE': return Number(text);
    case 'BOOLEAN': return text.toLowerCase() === 'true';
    case 'DATE': return Date.parse(`${text}T00:00:00Z`) / 86_400_000;
    case 'TIMESTAMP WITH TIME ZONE': return instant(text);
    default: return text;
  }
}

/** A value as DuckDB gives it, in the expectation's terms (a date in days, a timestamp in milliseconds). */
function stored(value: unknown): unknown {
  if (value !== null && typeof value === 'object') {
    if ('days' in value) return (value as { days: number }).days;
    if ('micros' in value) return Number((value as { micros: bigint }).micros) / 1000;
  }
  return value;
}

/**
 * The table, ordered by `order`, equals the CSV's records (header first): each field typed by its column's
 * type (7.50 is 7.5 in a DOUBLE, FALSE is false), every empty field NULL, and nothing else in the table.
 */
export async function assertDuckDbTableEquals(
  path: string, table: string, records: readonly string[][], order: string,
): Promise<void> {
  const types = await duckdbTypes(path, table);
  const [header, ...rows] = records;
  assert.deepEqual(Object.keys(types), header, 'the table has the header\'s columns, in order');
  const declared = header!.map((name) => types[name]!);
  const got = await duckRows(path, `SELECT * FROM "${table}" ORDER BY "${order}"`);
  assert.equal(got.length, rows.length, 'every record of the file is a row of the table, and nothing else');
  got.forEach((row, k) => {
    const values = row.map(stored);
    const want = rows[k]!.map((text, c) => expected(declared[c]!, text));
    if (!values.every((value, c) => value === want[c])) assert.deepEqual(values, want, `row ${k + 1}`);
  });
}
