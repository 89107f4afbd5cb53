import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Level } from 'level';
import { unpack } from 'msgpackr';
import { nativeBatches } from '../../../src/commands/import/native-batch.js';
import { releaseSlot, RowSlots } from '../../../src/commands/import/map/row-slots.js';
import { map } from '../../../src/commands/import/map/import-map.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('import-memory');

test('the installed classic-level lends native batches, and a reused one holds only its new writes', async () => {
  const db = new Level<string, Uint8Array>(world.path('native.db'), { valueEncoding: 'view' });
  await db.open();
  try {
    // Undefined here would silently put imports back on chained batches and their memory.
    const native = nativeBatches(db, 1);
    assert.ok(native, 'classic-level is not laid out as native-batch.ts expects');
    const first = native.take();
    native.put(first, 'a', Buffer.from('1'));
    await native.write(first, false);
    await db.del('a');
    const second = native.take();
    assert.equal(second, first, 'the written batch is lent again');
    native.put(second, 'b', Buffer.from('2'));
    await native.write(second, false);
    assert.equal(await db.get('a'), undefined, 'a reused batch wrote its earlier put again');
    assert.equal(Buffer.from((await db.get('b'))!).toString(), '2');
  } finally {
    await db.close();
  }
});

test('row slots are lent busy, taken back once released, and run out past their limit', () => {
  const slots = new RowSlots();
  const first = slots.take(64)!;
  const second = slots.take(64)!;
  assert.notEqual(second, first);
  releaseSlot(first.flag);
  assert.equal(slots.take(32), first, 'a released slot big enough is lent again');
  const taken = [first, second];
  for (let slot = slots.take(64); slot; slot = slots.take(64)) taken.push(slot);
  assert.equal(taken.length, 8, 'slots stop at their limit');
});

test('a chunk packed in a slot reads back the same rows, and the slot is lent again once released', () => {
  const csv = Buffer.from('1,"a,b"\n2,\n3,x\n');
  const options = { width: 2 };
  const chunk = map(csv, { start: 0, end: csv.length, options });
  assert.ok(chunk.slot, 'the rows were not packed in a shared slot');
  const rows = [...chunk.ends].map((end, r) => unpack(chunk.packed.subarray(r === 0 ? 0 : chunk.ends[r - 1]!, end)) as string[]);
  assert.deepEqual(rows, [['1', 'a,b'], ['2', ''], ['3', 'x']]);
  assert.deepEqual([...chunk.lines], [0, 1, 2]);
  releaseSlot(chunk.slot);
  const again = map(csv, { start: 0, end: csv.length, options });
  assert.equal(again.packed.buffer, chunk.packed.buffer, 'the released slot was not reused');
});
