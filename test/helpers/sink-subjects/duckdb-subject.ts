// duckdbSink over a DuckDB file (@duckdb/node-api), as the sink conformance suite drives it.
import { createRequire } from 'node:module';
import { duckdbSink, type DuckDbConnection } from '../../../src/index.js';
import { decodeSuiteMark, encodeSuiteMark, type SinkSubject } from '../../../src/testing/index.js';
import { putRowsAsync } from './suite-writes.js';

interface Api {
  DuckDBInstance: {
    create(path: string): Promise<{ connect(): Promise<DuckDbConnection & { closeSync(): void }>; closeSync(): void }>;
  };
}

export const subject: SinkSubject = {
  module: import.meta.url,
  async open(place, run) {
    const api = createRequire(import.meta.url)('@duckdb/node-api') as Api;
    const instance = await api.DuckDBInstance.create(`${place}/out.duckdb`);
    const db = await instance.connect();
    await db.run('CREATE TABLE IF NOT EXISTS out (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);'
      + ' CREATE TABLE IF NOT EXISTS rejects (line BIGINT NOT NULL, reason VARCHAR NOT NULL)');
    const sink = duckdbSink({
      db,
      run,
      async write(conn, state) {
        await putRowsAsync(state.rows, (row) => conn.run('INSERT INTO out (key, value) VALUES (?, ?)'
          + ' ON CONFLICT (key) DO UPDATE SET value = excluded.value', [row.key, row.value]));
        for (const r of state.rejects) await conn.run('INSERT INTO rejects VALUES (?, ?)', [r.line, r.reason]);
      },
      encode: encodeSuiteMark,
      decode: decodeSuiteMark,
    });
    const rowsOf = async (sql: string) => (await db.runAndReadAll(sql)).getRows();
    return {
      sink,
      async contents() {
        const rows = (await rowsOf('SELECT key, value FROM out ORDER BY key'))
          .map(([key, value]) => ({ key: String(key), value: String(value) }));
        const rejects = (await rowsOf('SELECT line, reason FROM rejects ORDER BY line'))
          .map(([line, reason]) => ({ line: Number(line), reason: String(reason) }));
        return { rows, rejects };
      },
      async close() {
        db.closeSync();
        instance.closeSync();
      },
    };
  },
};
