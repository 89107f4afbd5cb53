// A big CSV with every column kind analyze tells apart (integers, decimals, strings, dates, nulls), CRLF line
// ends and quoted fields (commas, doubled quotes, line breaks), written fast and deterministically.
import { closeSync, openSync, writeSync } from 'node:fs';
import { random } from './csv-generator.js';

const HEADER = 'id,qty,price,city,day,note,maybe\r\n';
const CITIES = ['Zürich', 'São Paulo', '東京', 'Oslo', 'Lyon', 'Quito', 'Accra', 'Perth'];
const NOTES = ['"a, b"', '"say ""hi"""', '"two\r\nlines"', 'plain', '', '"🙂"'];
const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2015, 0, 1);

/** One row: a unique id, skewed integers, decimals with nulls, a few strings, dates over ten years, empties. */
function rowOf(id: number, rnd: () => number): string {
  const qty = Math.floor(rnd() * rnd() * 100_000);
  const price = rnd() < 0.1 ? '' : ((rnd() - 0.3) * 1e4).toFixed(2);
  const city = CITIES[Math.floor(rnd() * CITIES.length)]!;
  const day = new Date(FIRST_DAY + Math.floor(rnd() * 3650) * DAY_MS).toISOString().slice(0, 10);
  const note = NOTES[Math.floor(rnd() * NOTES.length)]!;
  const maybe = rnd() < 0.97 ? '' : String(Math.floor(rnd() * 1000));
  return `${id},${qty},${price},${city},${day},${note},${maybe}\r\n`;
}

/** Writes at least `bytes` bytes of whole rows to `path` (after a byte order mark if asked); returns the rows. */
export function writeMixedCsv(path: string, bytes: number, seed = 7, bom = false): number {
  const rnd = random(seed);
  const fd = openSync(path, 'w');
  let written = writeSync(fd, `${bom ? '\ufeff' : ''}${HEADER}`);
  let rows = 0;
  try {
    while (written < bytes) {
      let block = '';
      for (let i = 0; i < 20_000; i++) block += rowOf(++rows, rnd);
      written += writeSync(fd, block);
    }
  } finally {
    closeSync(fd);
  }
  return rows;
}
