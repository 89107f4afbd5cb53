// Reading a PostgreSQL table as the tests check it: through pg itself, not
// through stint.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

interface Client {
  connect(): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

/** Runs `work` on a new connection to `url`, closed after. */
export async function withPostgres<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const pg = createRequire(import.meta.url)('pg') as { Client: new (o: { connectionString: string }) => Client };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("SET TIME ZONE 'UTC'");
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The table's columns and their types as format_type spells them, in order. */
export function postgresTypes(url: string, table: string): Promise<Record<string, string>> {
  return withPostgres(url, async (client) => {
    const { rows } = await client.query('SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type'
      + ' FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped'
      + ' ORDER BY a.attnum', [`"${table}"`]);
    return Object.fromEntries(rows.map((r) => [String(r['name']), String(r['type'])]));
  });
}

/** The instant an ISO 8601 date or timestamp names, a time without a zone read as UTC (as stint reads it). */
function instant(text: string): string {
  let iso = text.replace(' ', 'T');
  if (iso.length === 10) iso += 'T00:00:00';
  iso = iso.replace(/([+-]\d\d)$/, '$1:00');
  if (!/(Z|[+-]\d\d:\d\d)$/.test(iso)) iso += 'Z';
  return String(Date.parse(iso));
}

/** A CSV field as the server's text form of a column of this type should read: NULL when empty. */
function expectedText(type: string, text: string): string | null {
  if (text === '') return null;
  switch (type) {
    case 'bigint': return BigInt(text).toString();
    case 'boolean': return text.toLowerCase() === 'true' ? 'true' : 'false';
    // numeric keeps the digits as written, but for an exponent and a leading +
    case 'numeric': return /[eE+]/.test(text) ? null : text;
    case 'timestamp with time zone': return instant(text);
    default: return text;
  }
}

/** A value as the server's text form gives it, in the expectation's terms. */
function storedText(type: string, value: unknown, csv: string): string | null {
  if (value === null) return null;
  if (type === 'timestamp with time zone') return instant(String(value));
  if (type === 'numeric' && /[eE+]/.test(csv)) return Number(value) === Number(csv) ? null : String(value);
  return String(value);
}

/**
 * The table, ordered by `order`, equals the CSV's records (header first): every column's value, as the
 * server's text form of its type, is the field's (typed: 7.50 stays 7.50 in numeric, FALSE is false), and
 * every empty field is NULL. Nothing else is in the table.
 */
export async function assertPostgresTableEquals(
  url: string, table: string, records: readonly string[][], order: string,
): Promise<void> {
  const types = await postgresTypes(url, table);
  const [header, ...rows] = records;
  assert.deepEqual(Object.keys(types), header, 'the table has the header\'s columns, in order');
  const declared = header!.map((name) => types[name]!);
  const select = header!.map((name) => `"${name}"::text AS "${name}"`).join(', ');
  const stored = await withPostgres(url, async (client) =>
    (await client.query(`SELECT ${select} FROM "${table}" AS t ORDER BY t."${order}"`)).rows);
  assert.equal(stored.length, rows.length, 'every record of the file is a row of the table, and nothing else');
  stored.forEach((row, k) => {
    const record = rows[k]!;
    const got = header!.map((name, c) => storedText(declared[c]!, row[name] ?? null, record[c]!));
    const want = record.map((text, c) => expectedText(declared[c]!, text));
    if (!got.every((value, c) => value === want[c])) assert.deepEqual(got, want, `row ${k + 1}`);
  });
}
