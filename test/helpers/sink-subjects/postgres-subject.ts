// postgresSink over a PostgreSQL server (pg; the URL in STINT_TEST_POSTGRES_URL) or PGlite (a folder, when no
// URL is set), as the sink conformance suite drives it. Each place gets a schema of its own.
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { postgresSink, type PostgresConnection } from '../../../src/index.js';
import { decodeSuiteMark, encodeSuiteMark, type SinkSubject } from '../../../src/testing/index.js';
import { putRowsAsync } from './suite-writes.js';

export const POSTGRES_URL_VARIABLE = 'STINT_TEST_POSTGRES_URL';

interface Connection extends PostgresConnection {
  close(): Promise<void>;
}

/** A pg client of the server, or PGlite in the place's folder. */
async function connect(place: string): Promise<Connection> {
  const url = process.env[POSTGRES_URL_VARIABLE];
  if (url === undefined) {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(`${place}/pglite`);
    return { query: (sql, params) => db.query(sql, params), close: () => db.close() };
  }
  type Client = PostgresConnection & { connect(): Promise<void>; end(): Promise<void> };
  const pg = createRequire(import.meta.url)('pg') as { Client: new (o: { connectionString: string }) => Client };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { query: (sql, params) => client.query(sql, params), close: () => client.end() };
}

export const subject: SinkSubject = {
  module: import.meta.url,
  async open(place, run) {
    const db = await connect(place);
    const schema = `suite_${basename(place).replace(/[^A-Za-z0-9]/g, '_')}`;
    await db.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await db.query(`SET search_path TO ${schema}`);
    await db.query('CREATE TABLE IF NOT EXISTS out (key text PRIMARY KEY, value text NOT NULL)');
    await db.query('CREATE TABLE IF NOT EXISTS rejects (line bigint NOT NULL, reason text NOT NULL)');
    const sink = postgresSink({
      db,
      run,
      async write(conn, state) {
        await putRowsAsync(state.rows, (row) => conn.query('INSERT INTO out (key, value) VALUES ($1, $2)'
          + ' ON CONFLICT (key) DO UPDATE SET value = excluded.value', [row.key, row.value]));
        for (const r of state.rejects) await conn.query('INSERT INTO rejects VALUES ($1, $2)', [r.line, r.reason]);
      },
      encode: encodeSuiteMark,
      decode: decodeSuiteMark,
    });
    return {
      sink,
      async contents() {
        const rows = (await db.query('SELECT key, value FROM out ORDER BY key COLLATE "C"')).rows
          .map((r) => ({ key: String(r['key']), value: String(r['value']) }));
        const rejects = (await db.query('SELECT line, reason FROM rejects ORDER BY line')).rows
          .map((r) => ({ line: Number(r['line']), reason: String(r['reason']) }));
        return { rows, rejects };
      },
      close: () => db.close(),
    };
  },
};
