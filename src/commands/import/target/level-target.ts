import { isDeepStrictEqual } from 'node:util';
import { StintCode } from '../../stint-codes.js';
import { StintError } from '../../../contract/stint-error.js';
import { encodeId, openTable, TableKey, type Table } from '../table-store.js';
import { rowStart, type ImportTarget, type TargetBatch } from './import-target.js';
import { RowFormat } from '../map/rows/row-format.js';

/**
 * The embedded default: a LevelDB folder that is one table of text rows
 * under their ids (an index from --key values to ids beside them). Its bad
 * rows are named in the answer; it has no rejects table.
 */
export async function levelTarget(dir: string): Promise<ImportTarget> {
  const table = await openTable(dir, true);
  const unpack = (await import('msgpackr')).unpack;
  return {
    table: undefined,
    decimalDigits: Infinity,
    rowFormat: RowFormat.MessagePack,
    async open(plan) {
      const columns = await table.get(TableKey.Columns);
      if (columns && !isDeepStrictEqual(unpack(columns), plan.names)) {
        throw new StintError(StintCode.ColumnsMismatch, `the table at ${dir} has other columns than the file`, {
          context: { table: unpack(columns) as unknown, file: plan.names },
          fix_required: 'Import into another --into folder, or make the header match the table',
        });
      }
      return undefined;
    },
    get: (key) => table.get(key),
    entries: (prefix) => table.entries(prefix),
    batch: () => levelBatch(table),
    async nextId() {
      const next = await table.get(TableKey.NextId);
      return next ? Number(Buffer.from(next).toString()) : 1;
    },
    async heldRows(ids) {
      return (await table.getMany(ids.map((id) => TableKey.row(id)))).filter((row) => row !== undefined).length;
    },
    async keyIds(keys) {
      const found = await table.getMany(keys.map(TableKey.index));
      const ids = new Map<string, number>();
      keys.forEach((key, k) => found[k] && ids.set(key, Number(Buffer.from(found[k]!).toString())));
      return ids;
    },
    close: () => table.close(),
  };
}

function levelBatch(table: Table): TargetBatch {
  const batch = table.batch();
  return {
    put: (key, value) => batch.put(key, value),
    del: (key) => batch.del(key),
    putRows(firstId, run) {
      const { buffer, byteOffset } = run.bytes;
      for (let r = run.from; r < run.to; r++) {
        const start = rowStart(run, r);
        const row = new Uint8Array(buffer, byteOffset + start, run.ends[r]! - start);
        batch.put(TableKey.row(firstId + r - run.from), row);
      }
    },
    putKeyed(key, id, fresh, row) {
      if (fresh) batch.put(TableKey.index(key), encodeId(id));
      batch.put(TableKey.row(id), row);
    },
    // The answer names the bad rows (the first hundred, and how many): a LevelDB table keeps text alone.
    reject: () => undefined,
    get length() {
      return batch.length;
    },
    write: (sync) => batch.write(sync),
  };
}
