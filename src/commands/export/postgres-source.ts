// A table of a PostgreSQL server, read in the order its rows lie in the
// table (the order `stint import` appended them, for a table only appended
// to) through a cursor: each continuation starts after the last row's ctid.
// Every value as the server spells it; timestamps in ISO 8601.
import { createHash } from 'node:crypto';
import { loadPostgres, postgresError, type PgClient } from '../import/target/postgres-driver.js';
import { POSTGRES_DIALECT } from '../import/target/postgres-target.js';
import { quote, STATE_TABLE } from '../import/target/sql-table.js';
import { shownUrl } from '../import/target/target-address.js';
import type { ExportSource } from './export-source.js';
import { chooseTable } from './source-table.js';
import { textBatches, typedLine, type TextRead } from './typed-line.js';

const ROWS_PER_READ = 4096;

/** Connects in UTC, with scans that read a table from its first page in page order, on this connection alone. */
export async function postgresSource(url: string, table: string | undefined): Promise<ExportSource> {
  const client = loadPostgres().client(url);
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query("SET TIME ZONE 'UTC'");
    await client.query('SET synchronize_seqscans = off');
    await client.query('SET max_parallel_workers_per_gather = 0');
    return await readTable(client, url, table);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw postgresError(error, url);
  }
}

async function readTable(client: PgClient, url: string, asked: string | undefined): Promise<ExportSource> {
  const tables = (await client.query('SELECT tablename FROM pg_tables WHERE schemaname = current_schema()'
    + ' ORDER BY tablename')).rows.map((row) => String(row['tablename']));
  const table = chooseTable(tables, asked, shownUrl(url), shownUrl(url));
  const name = quote(table);
  const columns = (await client.query('SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type'
    + ' FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped'
    + ' ORDER BY a.attnum', [name])).rows;
  const names = columns.map((c) => String(c['name']));
  const types = columns.map((c) => POSTGRES_DIALECT.read(String(c['type'])));
  const select = names.map((column, k) => `${quote(column)}::text AS c${k}`).join(', ');
  const counted = (await client.query(`SELECT count(*)::text AS n, max(ctid)::text AS last FROM ${name}`)).rows[0]!;
  return {
    columns: names,
    total: Number(counted['n']),
    async version() {
      // The import's own records change with each of its commits; the count and last ctid with other writers'.
      const hash = createHash('sha256').update(`${String(counted['n'])}:${String(counted['last'])}:`);
      const state = tables.includes(STATE_TABLE)
        ? (await client.query(`SELECT key, value FROM ${STATE_TABLE} WHERE tbl = $1 AND (starts_with(key, 'ckpt:')`
          + " OR starts_with(key, 'run:')) ORDER BY key COLLATE \"C\"", [table])).rows
        : [];
      for (const row of state) {
        const key = String(row['key']);
        const value = row['value'] as Uint8Array;
        hash.update(`${key.length}:${key}${value.length}:`).update(value);
      }
      return hash.digest('hex');
    },
    batches(format, after) {
      const where = after === undefined ? '' : ` WHERE ctid > ${quoteLiteral(after)}::tid`;
      async function* reads(): AsyncIterable<TextRead> {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        await client.query(`DECLARE stint_export NO SCROLL CURSOR FOR SELECT ctid::text AS at, ${select}`
          + ` FROM ${name}${where}`);
        for (;;) {
          const { rows } = await client.query(`FETCH ${ROWS_PER_READ} FROM stint_export`);
          if (rows.length === 0) break;
          yield {
            rows: rows.map((row) => names.map((_, k) => row[`c${k}`] as string | null)),
            last: String(rows.at(-1)!['at']),
          };
        }
        await client.query('COMMIT');
      }
      return textBatches(reads(), typedLine(format, names, types));
    },
    close: () => client.end().catch(() => undefined),
  };
}

/** A position (a ctid such as `(12,5)`) as a SQL literal. */
const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;
