import type { Sink } from './sink.js';
import { inTransaction, MARKS_TABLE, quoteName, type SqlSinkSpec } from './sql-sink.js';

/** What postgresSink uses of a connection: pg's Client (or a pool's checked-out client) and PGlite both offer it. */
export interface PostgresConnection {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * A PostgreSQL database as a sink: BEGIN, the state's output, the mark,
 * COMMIT, on one connection; a failure rolls all of it back. Works with pg
 * and with PGlite.
 */
export function postgresSink<S>(spec: SqlSinkSpec<S, PostgresConnection>): Sink<S> {
  const table = quoteName(spec.marks ?? MARKS_TABLE);
  let ready: Promise<unknown> | undefined;
  const prepare = () => (ready ??= spec.db.query(`CREATE TABLE IF NOT EXISTS ${table} (run text PRIMARY KEY,`
    + ' mark bytea NOT NULL)'));
  return {
    async resume() {
      await prepare();
      const { rows } = await spec.db.query(`SELECT mark FROM ${table} WHERE run = $1`, [spec.run]);
      return rows[0] === undefined ? undefined : spec.decode(rows[0]['mark'] as Uint8Array);
    },
    async commit(mark) {
      const bytes = spec.encode(mark);
      await prepare();
      await inTransaction((sql) => spec.db.query(sql), async () => {
        await spec.write(spec.db, mark.state);
        await spec.db.query(`INSERT INTO ${table} (run, mark) VALUES ($1, $2)`
          + ' ON CONFLICT (run) DO UPDATE SET mark = excluded.mark', [spec.run, Buffer.from(bytes)]);
      });
    },
  };
}
