// The sink: each chunk's rows and the run's mark in ONE Postgres transaction, through stint's postgresSink.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { postgresSink, type Sink, type SinkMark } from 'stint';
import type { Rows } from './rows-map.js';

/** The fold's state: rows imported so far, and the rows the next commit writes. */
export interface ImportState { imported: number; rows: Rows }

export const NO_ROWS: Rows = { ids: [], names: [], amounts: [] };

// No unique key on `rows` on purpose: the mark alone keeps a row from being written twice.
const SCHEMA = 'create table rows (id integer not null, name text not null, amount numeric not null)';

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

/** The mark as stored (in stint_sink_marks, under the run's key): the count, not the rows, which are in `rows`. */
const encode = ({ watermark, input, state }: SinkMark<ImportState>) =>
  Buffer.from(JSON.stringify({ watermark, input, imported: state.imported }));

function decode(bytes: Uint8Array): SinkMark<ImportState> {
  const { watermark, input, imported } = JSON.parse(Buffer.from(bytes).toString()) as
    { watermark: SinkMark<ImportState>['watermark']; input: string; imported: number };
  return { watermark, input, state: { imported, rows: NO_ROWS } };
}

/** A sink for one run: postgresSink runs BEGIN, `write`, the mark's upsert and COMMIT on the connection. */
export function rowsSink(db: PGlite, run: string): Sink<ImportState> {
  return postgresSink<ImportState>({
    db,
    run,
    async write(tx, { rows: { ids, names, amounts } }) {
      const insert = 'insert into rows select * from unnest($1::integer[], $2::text[], $3::numeric[])';
      await tx.query(insert, [ids, names, amounts]);
    },
    encode,
    decode,
  });
}
