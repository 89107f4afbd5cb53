import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renameSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { ChunkReader } from '../../../src/engine/worker/chunk-reader.js';
import { Framing } from '../../../src/engine/worker/framing.js';
import type { ChunkTask } from '../../../src/engine/worker/worker-protocol.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('chunk-reader');
const rows = (n: number) => `a,b\n${Array.from({ length: n }, (_, k) => `${k},x${k}\n`).join('')}`;

function taskFor(path: string, fileSize: number, fileIno?: number): ChunkTask {
  return {
    mapModule: 'unused', path, framing: Framing.Csv, nominalStart: 0, nominalEnd: fileSize, fileSize,
    speculative: false, maxRecordBytes: 1 << 20, options: {}, ...(fileIno !== undefined ? { fileIno } : {}),
  };
}

test('a file cut short since the run began is INPUT_TRUNCATED, not a loop', () => {
  const path = world.path('short.csv');
  writeFileSync(path, rows(1000));
  const size = statSync(path).size;
  truncateSync(path, 100);
  assert.throws(() => new ChunkReader().read(taskFor(path, size)), { code: 'INPUT_TRUNCATED' });
});

test('another file moved over the input is INPUT_REPLACED; the same file reads', () => {
  const path = world.path('moved.csv');
  writeFileSync(path, rows(100));
  const { size, ino } = statSync(path);
  const reader = new ChunkReader();
  assert.equal(reader.read(taskFor(path, size, ino)).kind, 'framed');
  writeFileSync(world.path('other.csv'), rows(200));
  renameSync(world.path('other.csv'), path);
  assert.throws(() => new ChunkReader().read(taskFor(path, size, ino)), { code: 'INPUT_REPLACED' });
  // A thread that opened the file before the move goes on reading the file the run began with.
  assert.equal(reader.read(taskFor(path, size, ino)).kind, 'framed');
});
