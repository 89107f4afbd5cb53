// Runs on the worker threads: one chunk of whole lines in, its rows out, column by column.
import { StintError, type ChunkInfo } from 'stint/worker';
import { RowCode } from './row-codes.js';

export interface Rows { ids: number[]; names: string[]; amounts: string[] }

/** Parses `id,name,amount` lines. A plain split: quoted fields would need a CSV parser. */
export function map(bytes: Uint8Array, info: ChunkInfo): Rows {
  const lines = new TextDecoder().decode(bytes).split('\n');
  const first = info.start === 0 ? 1 : 0; // the header
  const rows: Rows = { ids: [], names: [], amounts: [] };
  for (let index = first; index < lines.length; index++) {
    const line = lines[index]!.replace(/\r$/, '');
    if (line.trim() === '') continue;
    const [id, name, amount] = line.split(',');
    if (!/^-?\d+$/.test(id ?? '')) {
      // line_offset: the line within the chunk, which the framework turns into the file's line number.
      throw new StintError(RowCode.BadRow, `id "${id}" is not an integer`, { context: { line_offset: index } });
    }
    rows.ids.push(Number(id));
    rows.names.push(name ?? '');
    rows.amounts.push(amount ?? '0');
  }
  return rows;
}
