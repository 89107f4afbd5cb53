// A checkpoint gives back the fold state it was given, exactly (src/runtime/storage/checkpoint-codec.ts): a
// continued analyze folds on from the very state an uninterrupted one holds, so both answer the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { map } from '../../../src/commands/analyze/map/csv-stats-map.js';
import {
  mergeTableStats, newTableStats, summarizeColumn, type TableStats,
} from '../../../src/commands/analyze/map/column-stats.js';
import { decodeCheckpoint, encodeCheckpoint } from '../../../src/runtime/storage/checkpoint-codec.js';
import { CHECKPOINT_FORMAT, openCheckpointStore } from '../../../src/runtime/storage/checkpoint-store.js';
import { ProgressUnit } from '../../../src/contract/vocabulary/progress-unit.js';
import { generateCsv } from '../../helpers/csv-generator.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('checkpoint-codec');
const record = <S>(state: S) => ({
  version: CHECKPOINT_FORMAT, fingerprint: [{ size: 1, mtimeMs: 2.5, ino: 3 }],
  progress: { done: 10, unit: ProgressUnit.Bytes }, state, savedAt: 4,
});

/** Analyze's fold state after `count` chunks of a generated file with every kind of column. */
function foldedChunks(from: number, count: number): { stats: TableStats; chunks: Buffer[] } {
  const csv = generateCsv(17, { rows: 12_000, columns: 8, newlines: 0.05, crlf: true });
  const body = csv.subarray(csv.indexOf(0x0a) + 1);
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length;) {
    let end = Math.min(body.length, at + 40_000);
    while (end < body.length && !(body[end - 1] === 0x0a && quotesBefore(body, end) % 2 === 0)) end++;
    chunks.push(body.subarray(at, end));
    at = end;
  }
  const stats = newTableStats(8);
  for (const chunk of chunks.slice(from, from + count)) {
    mergeTableStats(stats, map(chunk, { start: 0, end: chunk.length, options: { width: 8 } }), 2);
  }
  return { stats, chunks };
}

function quotesBefore(bytes: Buffer, end: number): number {
  let quotes = 0;
  for (let i = 0; i < end; i++) if (bytes[i] === 0x22) quotes++;
  return quotes;
}

test('what msgpackr alone would change comes back as it was: -0, NaN, typed arrays, bigints, undefined, Map', () => {
  const state = {
    negativeZero: -0, nan: NaN, infinity: -Infinity, big: 2n ** 70n + 1n, small: -(2n ** 63n), unset: undefined,
    doubles: new Float64Array([0.1, -0, NaN, 2 ** 60 + 1]), bytes: new Uint8Array([0, 255]),
    ints: new Int32Array([-1, 2 ** 31 - 1]), counts: new Map([['a', 1]]), seen: new Set([1.5]),
    levels: [[0.30000000000000004, -0], [], [1e-320]], nested: { deeper: { field: undefined, value: 2 ** 53 + 2 } },
  };
  const saved = record(state);
  const back = decodeCheckpoint<typeof saved>(encodeCheckpoint(saved), CHECKPOINT_FORMAT);
  assert.deepStrictEqual(back, record(state));
  assert.ok(Object.is(back.state.negativeZero, -0));
  assert.ok(Object.is(back.state.doubles[1], -0));
  assert.ok(back.state.doubles instanceof Float64Array);
  assert.ok(Object.hasOwn(back.state.nested.deeper, 'field'));
});

test("analyze's fold state, saved and loaded through a real store, folds on to the answer of the state never saved",
  async () => {
    const { stats, chunks } = foldedChunks(0, 5);
    const store = await openCheckpointStore(world.path('store'));
    await store.save(record(stats));
    const loaded = await store.load<TableStats>();
    await store.close();
    assert.equal(loaded.kind, 'found');
    const restored = loaded.kind === 'found' ? loaded.record.state : newTableStats(8);
    assert.deepStrictEqual(restored, stats);
    for (const chunk of chunks.slice(5)) {
      const info = { start: 0, end: chunk.length, options: { width: 8 } };
      mergeTableStats(stats, map(chunk, info), 2);
      mergeTableStats(restored, map(chunk, info), 2);
    }
    const summary = (s: TableStats) => JSON.stringify(s.columns.map((c, k) => summarizeColumn(`c${k}`, c)));
    assert.equal(summary(restored), summary(stats));
    assert.ok(chunks.length > 10, 'the fold went on for several chunks after the restore');
  });

test('a record of another version is handed back undecoded, for the store to discard', () => {
  const old = { ...record({ a: 1 }), version: CHECKPOINT_FORMAT - 1 };
  assert.equal(decodeCheckpoint(encodeCheckpoint(old), CHECKPOINT_FORMAT).version, CHECKPOINT_FORMAT - 1);
});
