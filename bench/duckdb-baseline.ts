// DuckDB's read_csv computing the same aggregates with the same thread
// count. Loaded from bench/node_modules: a dependency of the benchmark only.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface DuckResult { getRows(): unknown[][] }
interface DuckConnection { runAndReadAll(sql: string): Promise<DuckResult>; closeSync(): void }
interface DuckInstance { connect(): Promise<DuckConnection>; closeSync(): void }
interface DuckModule {
  DuckDBInstance: { create(path: string, options: Record<string, string>): Promise<DuckInstance> };
}

export async function loadDuckDb(repoRoot: string): Promise<DuckModule | undefined> {
  try {
    const resolved = createRequire(join(repoRoot, 'bench', 'package.json')).resolve('@duckdb/node-api');
    return (await import(pathToFileURL(resolved).href)) as DuckModule;
  } catch {
    return undefined;
  }
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function duckDbStats(duck: DuckModule, path: string, threads: number): Promise<{ rows: number }> {
  const instance = await duck.DuckDBInstance.create(':memory:', { threads: String(threads) });
  const connection = await instance.connect();
  const source = `read_csv('${path.replaceAll("'", "''")}', header = true)`;
  const described = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRows();
  const parts = ['count(*)'];
  for (const [name, type] of described as [string, string][]) {
    const c = quote(name);
    parts.push(`count(${c})`, `min(${c})`, `max(${c})`);
    if (/INT|DOUBLE|DECIMAL|FLOAT|BIGINT/.test(type)) parts.push(`sum(${c})`, `avg(${c})`);
    if (type === 'VARCHAR') parts.push(`min(length(${c}))`, `max(length(${c}))`);
  }
  const rows = (await connection.runAndReadAll(`SELECT ${parts.join(', ')} FROM ${source}`)).getRows();
  return { rows: Number(rows[0]![0]) };
}

/** DuckDB's SUMMARIZE of the file: per column min, max, approx_unique, avg, std, q25/q50/q75, null_percentage. */
export async function duckDbSummarize(duck: DuckModule, path: string, threads: number): Promise<{ columns: number }> {
  const instance = await duck.DuckDBInstance.create(':memory:', { threads: String(threads) });
  const connection = await instance.connect();
  const source = `read_csv('${path.replaceAll("'", "''")}', header = true)`;
  const rows = (await connection.runAndReadAll(`SUMMARIZE SELECT * FROM ${source}`)).getRows();
  return { columns: rows.length };
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Runs `sql` on the database file `database` (created if new) and closes it, so the next opener finds it whole. */
async function onDatabase(duck: DuckModule, database: string, threads: number, sql: string): Promise<void> {
  const instance = await duck.DuckDBInstance.create(database, { threads: String(threads) });
  const connection = await instance.connect();
  try {
    await connection.runAndReadAll(sql);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** DuckDB's own loader: the CSV into a new table `t` of the database file (`CREATE TABLE AS` of `read_csv`). */
export function duckDbLoad(duck: DuckModule, csv: string, database: string, threads: number): Promise<void> {
  const sql = `CREATE TABLE t AS SELECT * FROM read_csv(${literal(csv)}, header = true)`;
  return onDatabase(duck, database, threads, sql);
}

/** DuckDB's export: table `t` of the database file to a CSV with a header (`COPY TO`). */
export function duckDbCopyTo(duck: DuckModule, database: string, csv: string, threads: number): Promise<void> {
  return onDatabase(duck, database, threads, `COPY t TO ${literal(csv)} (HEADER)`);
}
