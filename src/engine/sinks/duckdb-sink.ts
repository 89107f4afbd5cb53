import type { Sink } from './sink.js';
import { inTransaction, MARKS_TABLE, quoteName, type SqlSinkSpec } from './sql-sink.js';

/** What duckdbSink uses of a @duckdb/node-api connection (its types are not stint's dependency). */
export interface DuckDbConnection {
  run(sql: string, values?: unknown[]): Promise<unknown>;
  runAndReadAll(sql: string, values?: unknown[]): Promise<{ getRows(): unknown[][] }>;
}

/**
 * A DuckDB file as a sink: the state's output and the mark in one
 * transaction. The mark is kept as base64 text, and replaced by a delete and
 * an insert (DuckDB checks a key eagerly, which one transaction's delete and
 * insert of the same key would trip).
 */
export function duckdbSink<S>(spec: SqlSinkSpec<S, DuckDbConnection>): Sink<S> {
  const table = quoteName(spec.marks ?? MARKS_TABLE);
  let ready: Promise<unknown> | undefined;
  const prepare = () => (ready ??= spec.db.run(`CREATE TABLE IF NOT EXISTS ${table} (run VARCHAR NOT NULL,`
    + ' mark VARCHAR NOT NULL)'));
  return {
    async resume() {
      await prepare();
      const rows = (await spec.db.runAndReadAll(`SELECT mark FROM ${table} WHERE run = ?`, [spec.run])).getRows();
      return rows[0] === undefined ? undefined : spec.decode(Buffer.from(String(rows[0][0]), 'base64'));
    },
    async commit(mark) {
      const text = Buffer.from(spec.encode(mark)).toString('base64');
      await prepare();
      await inTransaction((sql) => spec.db.run(sql), async () => {
        await spec.write(spec.db, mark.state);
        await spec.db.run(`DELETE FROM ${table} WHERE run = ?`, [spec.run]);
        await spec.db.run(`INSERT INTO ${table} (run, mark) VALUES (?, ?)`, [spec.run, text]);
      });
    },
  };
}
