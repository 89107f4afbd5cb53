import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Level } from 'level';
import { levelSink, levelWrites, type LevelBatch } from '../../../src/engine/sinks/level-sink.js';
import type { SinkMark } from '../../../src/engine/sinks/sink.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('level-sink');

interface Counted { rows: number; staged: LevelBatch | undefined }

const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const parse = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as unknown;

async function withDb<T>(dir: string, use: (db: Level<string, Uint8Array>) => Promise<T>): Promise<T> {
  const db = new Level<string, Uint8Array>(dir, { valueEncoding: 'view' });
  await db.open();
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}

const sinkOn = (db: Level<string, Uint8Array>) => levelSink<Counted>({
  db: levelWrites(db),
  markKey: 'mark:run-1',
  staged: (state) => state.staged,
  encode: ({ watermark, state, input }) => text({ watermark, rows: state.rows, input }),
  decode(bytes) {
    const { watermark, rows, input } = parse(bytes) as Omit<SinkMark<Counted>, 'state'> & { rows: number };
    return { watermark, input, state: { rows, staged: undefined } };
  },
});

test('the LevelDB sink writes the staged rows and the mark in one batch, and resumes from the mark', async () => {
  const dir = world.path('db');
  await withDb(dir, async (db) => {
    const sink = sinkOn(db);
    assert.equal(await sink.resume(), undefined, 'nothing committed yet');
    const staged = levelWrites(db).batch();
    staged.put('row:1', text('a'));
    staged.put('row:2', text('b'));
    await sink.commit({ watermark: { offset: 10, line: 3 }, state: { rows: 2, staged }, input: 'file-1' });
    // No staged writes: the mark alone.
    await sink.commit({ watermark: { offset: 12, line: 4 }, state: { rows: 2, staged: undefined }, input: 'file-1' });
  });
  await withDb(dir, async (db) => {
    assert.deepEqual(await sinkOn(db).resume(), {
      watermark: { offset: 12, line: 4 }, input: 'file-1', state: { rows: 2, staged: undefined },
    });
    assert.deepEqual(parse((await db.get('row:2'))!), 'b');
  });
});
