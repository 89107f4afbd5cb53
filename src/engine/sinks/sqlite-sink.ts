import type { Sink } from './sink.js';
import { MARKS_TABLE, quoteName, type SqlSinkSpec } from './sql-sink.js';

/** What sqliteSink uses of a better-sqlite3 database (its types are not stint's dependency). */
export interface SqliteConnection {
  exec(sql: string): unknown;
  prepare(sql: string): { run(...params: unknown[]): unknown; get(...params: unknown[]): unknown };
  transaction<A extends unknown[]>(work: (...args: A) => void): (...args: A) => void;
}

/**
 * A SQLite file (better-sqlite3) as a sink: the state's output and the mark
 * in one transaction. better-sqlite3 runs a transaction synchronously, so
 * `write` must not be async. For a commit that survives a power loss, open
 * the file with `journal_mode = WAL` and `synchronous = FULL`.
 */
export function sqliteSink<S>(spec: SqlSinkSpec<S, SqliteConnection> & {
  write(db: SqliteConnection, state: S): void;
}): Sink<S> {
  const table = quoteName(spec.marks ?? MARKS_TABLE);
  spec.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (run TEXT PRIMARY KEY, mark BLOB NOT NULL)`);
  const read = spec.db.prepare(`SELECT mark FROM ${table} WHERE run = ?`);
  const put = spec.db.prepare(`INSERT INTO ${table} (run, mark) VALUES (?, ?)`
    + ' ON CONFLICT (run) DO UPDATE SET mark = excluded.mark');
  const commit = spec.db.transaction((state: S, mark: Uint8Array) => {
    spec.write(spec.db, state);
    put.run(spec.run, mark);
  });
  return {
    async resume() {
      const row = read.get(spec.run) as { mark: Uint8Array } | undefined;
      return row === undefined ? undefined : spec.decode(row.mark);
    },
    async commit(mark) {
      commit(mark.state, spec.encode(mark));
    },
  };
}
