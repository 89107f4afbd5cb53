// Writes a big CSV fast and deterministically for benchmarks: a pool of
// generated rows (quoted fields with commas, doubled quotes and newlines,
// Unicode, numbers, booleans, empties) written in a seeded random order.
import { closeSync, openSync, writeSync } from 'node:fs';
import { generateCsv, random } from './csv-generator.js';

export function writeBigCsv(path: string, bytes: number, seed = 1): number {
  const sample = generateCsv(seed, { rows: 20_000, columns: 8, newlines: 0.05 }).toString('utf8');
  const firstBreak = sample.indexOf('\n');
  const header = sample.slice(0, firstBreak + 1);
  // Split the sample into whole records: a newline outside quotes ends one.
  const rows: Buffer[] = [];
  let start = firstBreak + 1;
  let quotes = 0;
  for (let i = start; i < sample.length; i++) {
    if (sample[i] === '"') quotes++;
    else if (sample[i] === '\n' && quotes % 2 === 0) {
      rows.push(Buffer.from(sample.slice(start, i + 1)));
      start = i + 1;
    }
  }
  const rnd = random(seed);
  const fd = openSync(path, 'w');
  const block = Buffer.allocUnsafe(4 * 1024 * 1024);
  let written = writeSync(fd, header);
  let used = 0;
  while (written + used < bytes) {
    const row = rows[Math.floor(rnd() * rows.length)]!;
    if (used + row.length > block.length) {
      written += writeSync(fd, block, 0, used);
      used = 0;
    }
    row.copy(block, used);
    used += row.length;
  }
  written += writeSync(fd, block, 0, used);
  closeSync(fd);
  return written;
}
