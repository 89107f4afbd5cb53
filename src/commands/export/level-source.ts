import { StintCode } from '../stint-codes.js';
import { StintError } from '../../contract/stint-error.js';
import { PackedOutput } from '../../engine/worker/packed-output.js';
import { openTable, TableKey } from '../import/table-store.js';
import { rowWriter } from './export-format.js';
import type { ExportSource } from './export-source.js';

/** Bytes an export's output buffer starts with (a read batch of rows; it grows for longer ones). */
export const BATCH_BYTES = 1024 * 1024;

/** A LevelDB table as `stint import` wrote it: its rows' stored bytes go out as they are where they can. */
export async function levelSource(dir: string, name: string): Promise<ExportSource> {
  const table = await openTable(dir, false);
  try {
    // Loaded here, not at the top: every stint call (even --version) loads this module.
    const { unpack } = await import('msgpackr');
    const columns = await table.get(TableKey.Columns);
    if (!columns) {
      const message = `${name} is not a stint table (no columns recorded)`;
      throw new StintError(StintCode.TableUnreadable, message, { context: { path: name } });
    }
    const next = await table.get(TableKey.NextId);
    const names = unpack(columns) as string[];
    return {
      columns: names,
      total: next ? Number(Buffer.from(next).toString()) - 1 : 0,
      version: () => table.version(),
      async *batches(format, after) {
        const write = rowWriter(format, names, unpack);
        const output = new PackedOutput(BATCH_BYTES);
        for await (const entries of table.rows(after)) {
          output.used = 0;
          for (const [, value] of entries) write(output, value);
          yield { bytes: output.bytes.subarray(0, output.used), last: entries.at(-1)![0], rows: entries.length };
        }
      },
      close: () => table.close(),
    };
  } catch (error) {
    await table.close();
    throw error;
  }
}
