// Runs on the worker threads: one chunk of whole lines in, its rows out, column by column.
import type { ChunkInfo } from 'stint';

export interface Rows { ids: number[]; names: string[]; amounts: string[] }

/** Parses `id,name,amount` lines. A plain split: quoted fields would need a CSV parser. */
export function map(bytes: Uint8Array, info: ChunkInfo): Rows {
  const lines = new TextDecoder().decode(bytes).split('\n');
  if (info.start === 0) lines.shift(); // the header
  const rows: Rows = { ids: [], names: [], amounts: [] };
  for (const line of lines) {
    if (line.trim() === '') continue;
    const [id, name, amount] = line.replace(/\r$/, '').split(',');
    rows.ids.push(Number(id));
    rows.names.push(name ?? '');
    rows.amounts.push(amount ?? '0');
  }
  return rows;
}
