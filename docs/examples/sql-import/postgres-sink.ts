// The sink: each chunk's rows and the run's watermark in ONE Postgres transaction.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Sink } from 'stint';
import type { Rows } from './rows-map.js';

/** The fold's state: rows imported so far, and the rows the next commit writes. */
export interface ImportState { imported: number; rows: Rows }

export const NO_ROWS: Rows = { ids: [], names: [], amounts: [] };

// No unique key on `rows` on purpose: the watermark alone keeps a row from being written twice.
const SCHEMA = `
  create table rows (id integer not null, name text not null, amount numeric not null);
  create table stint_watermarks (
    run text primary key,
    byte_offset bigint not null, line bigint not null, imported bigint not null, input text not null
  );`;

/** Opens the database folder; a new one is made aside and renamed into place: a kill never leaves half of one. */
export async function openDatabase(dir: string): Promise<PGlite> {
  if (!existsSync(dir)) {
    const fresh = `${dir}.new`;
    rmSync(fresh, { recursive: true, force: true });
    const db = await PGlite.create(fresh);
    await db.exec(SCHEMA);
    await db.close();
    renameSync(fresh, dir);
  }
  return PGlite.create(dir);
}

interface MarkRow { byte_offset: number; line: number; imported: number; input: string }

/** A sink for one run, keyed by its idempotency key in `stint_watermarks`. */
export function postgresSink(db: PGlite, run: string): Sink<ImportState> {
  return {
    async resume() {
      const sql = 'select byte_offset, line, imported, input from stint_watermarks where run = $1';
      const mark = (await db.query<MarkRow>(sql, [run])).rows[0];
      if (!mark) return undefined;
      const watermark = { offset: Number(mark.byte_offset), line: Number(mark.line) };
      return { watermark, input: mark.input, state: { imported: Number(mark.imported), rows: NO_ROWS } };
    },
    async commit({ watermark, state, input }) {
      await db.transaction(async (tx) => {
        const { ids, names, amounts } = state.rows;
        const insert = 'insert into rows select * from unnest($1::integer[], $2::text[], $3::numeric[])';
        await tx.query(insert, [ids, names, amounts]);
        await tx.query(
          `insert into stint_watermarks values ($1, $2, $3, $4, $5)
           on conflict (run) do update set byte_offset = $2, line = $3, imported = $4, input = $5`,
          [run, watermark.offset, watermark.line, state.imported, input],
        );
      });
    },
  };
}
