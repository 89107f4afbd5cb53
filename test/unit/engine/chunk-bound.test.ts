import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chunkBound } from '../../../src/engine/chunk-bound.js';
import { poolFor } from '../../../src/engine/chunk-pool.js';
import { inspectInput } from '../../../src/engine/input-file.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('chunk-bound');
const KiB = 1024;

function file(name: string, bytes: Buffer | string) {
  writeFileSync(world.path(name), bytes);
  return inspectInput(name, world.dir);
}

test('a run\'s chunks at most: each file\'s size over the chunk size, rounded up, an empty file one', () => {
  const inputs = [file('a.csv', 'x'.repeat(10 * KiB)), file('b.csv', 'y'.repeat(KiB + 1)), file('c.csv', '')];
  assert.deepEqual(chunkBound(inputs, 4 * KiB), { chunksAtMost: 3 + 1 + 1 });
  assert.deepEqual(chunkBound([file('d.csv', 'a,b\n1,2\n')], KiB), { chunksAtMost: 1 });
  const missing = inspectInput('none.csv', world.dir);
  assert.deepEqual(chunkBound([missing, inputs[0]!], 4 * KiB), { chunksAtMost: 3 }, 'a refused input has none');
});

test('a gzip file leaves the bound unknown: its size says nothing of how much it holds', () => {
  const small = file('s.csv', 'a\n1\n');
  const packed = file('big.csv.gz', gzipSync(Buffer.from('a\n'.repeat(100_000))));
  assert.deepEqual(chunkBound([small, packed], KiB), {});
});

test('the threads a pool starts: no more than the run has chunks, at least one', async () => {
  for (const [chunksAtMost, workers, started] of [[1, 2, 1], [5, 2, 2], [0, 2, 1], [undefined, 3, 3]] as const) {
    const { pool } = await poolFor({ workers, ...(chunksAtMost === undefined ? {} : { chunksAtMost }) });
    try {
      assert.equal(pool.workers, started, `${workers} workers for ${chunksAtMost} chunks`);
    } finally {
      await pool.close();
    }
  }
});
