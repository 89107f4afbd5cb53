// sqliteSink over a SQLite file (better-sqlite3), as the sink conformance suite drives it.
import { createRequire } from 'node:module';
import { sqliteSink, type SqliteConnection } from '../../../src/index.js';
import { decodeSuiteMark, encodeSuiteMark, type SinkSubject } from '../../../src/testing/index.js';
import { putRows } from './suite-writes.js';

interface Database extends SqliteConnection {
  pragma(sql: string): unknown;
  prepare(sql: string): ReturnType<SqliteConnection['prepare']> & { all(...params: unknown[]): unknown[] };
  close(): void;
}

export const subject: SinkSubject = {
  module: import.meta.url,
  async open(place, run) {
    const Sqlite = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => Database;
    const db = new Sqlite(`${place}/out.db`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE IF NOT EXISTS out (key TEXT PRIMARY KEY, value TEXT NOT NULL);'
      + ' CREATE TABLE IF NOT EXISTS rejects (line INTEGER NOT NULL, reason TEXT NOT NULL)');
    const put = db.prepare('INSERT INTO out (key, value) VALUES (?, ?)'
      + ' ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    const reject = db.prepare('INSERT INTO rejects (line, reason) VALUES (?, ?)');
    const sink = sqliteSink({
      db,
      run,
      write(_db, state) {
        putRows(state.rows, (row) => put.run(row.key, row.value));
        for (const r of state.rejects) reject.run(r.line, r.reason);
      },
      encode: encodeSuiteMark,
      decode: decodeSuiteMark,
    });
    return {
      sink,
      async contents() {
        const rows = db.prepare('SELECT key, value FROM out ORDER BY key').all() as { key: string; value: string }[];
        const rejects = db.prepare('SELECT line, reason FROM rejects ORDER BY line').all() as
          { line: number; reason: string }[];
        return { rows: rows.map((r) => ({ ...r })), rejects: rejects.map((r) => ({ ...r })) };
      },
      close: async () => db.close(),
    };
  },
};
