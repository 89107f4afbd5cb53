import { test } from 'node:test';
import assert from 'node:assert/strict';
import { progressOfLine } from '../../src/commands/bench/watched-run.js';

test('bench resume reads done and total from heartbeat lines, with the exact figures inside or at the end', () => {
  const lines: [string, { done: number; total: number } | undefined][] = [
    ['[0.8s] stint analyze: 5242998/33554450 bytes (15%)', { done: 5242998, total: 33554450 }],
    ['[2.0s] stint analyze: 42% (12.0 MiB of 28.6 MiB), 3.1 MiB/s, ETA 5s [12582912/30000000 bytes]',
      { done: 12582912, total: 30000000 }],
    ['[1.0s] wc count: 42% (420 of 1000 rows) [420/1000 rows, 420 rows]', { done: 420, total: 1000 }],
    ['[1.0s] stint import: 20586 rows', undefined],
    ['a warning with no figures', undefined],
  ];
  for (const [line, expected] of lines) assert.deepEqual(progressOfLine(line), expected, line);
});
