// Chunk boundaries are a function of the bytes and the chunk size (src/engine/chunk-grid.ts): a run resumed from
// any chunk end cuts the chunks an uninterrupted run cuts, and a stream of the same bytes (a gzip file, cut by
// record-cutter.ts) is cut on the same grid, whatever pieces the stream hands over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import mapChunk from '../../../src/engine/worker/worker-entry.js';
import { orderedChunks, type ChunkPlan } from '../../../src/engine/ordered-chunks.js';
import { cutRecords } from '../../../src/engine/record-cutter.js';
import { Framing } from '../../../src/engine/worker/framing.js';
import type { ChunkPool } from '../../../src/engine/chunk-pool.js';
import { generateCsv, random } from '../../helpers/csv-generator.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('chunk-grid');
const MAP = new URL('../../../src/commands/analyze/map/csv-stats-map.js', import.meta.url).href;
/** The worker side, run on this thread: the very mapping a pool thread does. */
const pool: ChunkPool = { workers: 2, run: (task) => mapChunk(task) as never, close: async () => undefined };

/** A CSV whose records hold quoted newlines, a few longer than a chunk, and its data start. */
function input(): { path: string; bytes: Buffer; dataStart: number } {
  const base = generateCsv(41, { rows: 6000, columns: 5, newlines: 0.3, crlf: true });
  const long = `"${'x\n'.repeat(3000)}",1,2,3,4\r\n`;
  const bytes = Buffer.concat([base, Buffer.from(long), base.subarray(base.indexOf(0x0a) + 1), Buffer.from(long)]);
  const path = world.path('grid.csv');
  writeFileSync(path, bytes);
  return { path, bytes, dataStart: bytes.indexOf(0x0a) + 1 };
}

async function fileChunks(path: string, size: number, from: number, chunkSize: number): Promise<number[][]> {
  const plan: ChunkPlan = {
    path, framing: Framing.Csv, mapModule: MAP, options: { width: 5 }, from, fileSize: size, chunkSize,
    maxRecordBytes: 1 << 20, window: 4,
  };
  const ranges: number[][] = [];
  for await (const chunk of orderedChunks(pool, plan)) {
    assert.equal(chunk.kind, 'mapped');
    ranges.push([chunk.index, chunk.start, chunk.end]);
  }
  return ranges;
}

async function* piecesOf(bytes: Buffer, rnd: () => number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length;) {
    const n = Math.min(bytes.length - at, 1 + Math.floor(rnd() * 9000));
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

test('a run resumed from any chunk end cuts the chunks of the uninterrupted run', async () => {
  const { path, bytes, dataStart } = input();
  for (const chunkSize of [1024, 4096, 65536]) {
    const whole = await fileChunks(path, bytes.length, dataStart, chunkSize);
    assert.equal(whole.at(-1)![2], bytes.length);
    assert.ok(whole.length > 3, `several chunks of ${chunkSize}`);
    for (let k = 1; k < whole.length; k++) {
      assert.equal(whole[k]![1], whole[k - 1]![2], 'chunks follow one another');
      assert.ok(whole[k]![0]! > whole[k - 1]![0]!, 'one chunk per grid cell at most');
    }
    for (let k = 1; k < whole.length; k += Math.ceil(whole.length / 7)) {
      const resumed = await fileChunks(path, bytes.length, whole[k]![1]!, chunkSize);
      assert.deepEqual(resumed, whole.slice(k), `resumed at chunk ${k} of ${chunkSize}`);
    }
  }
});

test('a stream of the same bytes is cut on the same grid, whatever its pieces, from the start or a resume',
  async () => {
    const { path, bytes, dataStart } = input();
    const rnd = random(5);
    for (const chunkSize of [1024, 65536]) {
      const whole = await fileChunks(path, bytes.length, dataStart, chunkSize);
      for (const k of [0, Math.floor(whole.length / 2)]) {
        const from = whole[k]![1]!;
        const cut: number[][] = [];
        for await (const chunk of cutRecords(piecesOf(bytes.subarray(from), rnd), from, chunkSize, 1 << 20)) {
          cut.push([Math.floor(chunk.start / chunkSize), chunk.start, chunk.start + chunk.bytes.length]);
        }
        assert.deepEqual(cut, whole.slice(k), `the stream from chunk ${k}, chunks of ${chunkSize}`);
      }
    }
  });
