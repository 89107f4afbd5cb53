import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { openChunkPool } from '../../../src/engine/chunk-pool.js';
import { Framing } from '../../../src/engine/worker/framing.js';
import type { ChunkTask } from '../../../src/engine/worker/worker-protocol.js';
import { CrashMode } from '../../../fixtures/programs/crash-map.js';
import { programPath, REPO_ROOT } from '../../helpers/paths.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('chunk-pool');


/** The one chunk of an 8-byte file of two lines, mapped by `mapModule`. */
const twoLineTask = (mapModule: string, path: string): ChunkTask => ({
  mapModule, path, framing: Framing.Lines, nominalStart: 0, nominalEnd: 8, fileSize: 8,
  speculative: false, maxRecordBytes: 1024, options: null,
});

test('a worker dead between tasks fails the next task as WORKER_FAILED, not the main thread', async () => {
  const input = world.path('lines.txt');
  writeFileSync(input, 'a b\nc d\n');
  const fault = world.path('fault');
  writeFileSync(fault, '');
  // Without Atomics.wait an idle thread runs its timers, so the late error finds no task of ours in flight.
  Object.assign(process.env, { PISCINA_DISABLE_ATOMICS: '1', CRASH_TOOL_WHILE: fault });
  process.env['CRASH_TOOL_MODE'] = CrashMode.Late;
  const task = twoLineTask(pathToFileURL(programPath('crash-map')).href, input);
  const pool = await openChunkPool(1);
  try {
    assert.equal((await pool.run(task)).kind, 'mapped');
    let reply = await pool.run(task);
    for (let tries = 0; reply.kind === 'mapped' && tries < 200; tries++) {
      await sleep(50);
      reply = await pool.run(task);
    }
    assert.equal(reply.kind, 'failed');
    assert.equal(reply.kind === 'failed' && reply.error.code, 'WORKER_FAILED');
    assert.equal(reply.kind === 'failed' && reply.error.threadDied, true);
  } finally {
    await pool.close();
  }
});

test('a map module that cannot load fails its task as WORKER_FAILED, not as a dead thread', async () => {
  const input = world.path('two-lines.txt');
  writeFileSync(input, 'a b\nc d\n');
  const pool = await openChunkPool(1);
  try {
    const reply = await pool.run(twoLineTask(pathToFileURL(world.path('no-such-map.js')).href, input));
    assert.equal(reply.kind, 'failed');
    assert.equal(reply.kind === 'failed' && reply.error.code, 'WORKER_FAILED');
    assert.match(reply.kind === 'failed' ? reply.error.message : '', /the map module failed to load/);
    assert.notEqual(reply.kind === 'failed' && reply.error.threadDied, true);
  } finally {
    await pool.close();
  }
});

test('a reply is let go once its run ends (one race per run: a race against one shared promise held every reply)',
  async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const input = world.path('held.txt');
    writeFileSync(input, 'a b\nc d\n');
    const wcMap = pathToFileURL(join(REPO_ROOT, 'build', 'docs', 'examples', 'wc', 'wc-map.js')).href;
    const pool = await openChunkPool(1);
    try {
      const replies: WeakRef<object>[] = [];
      for (let i = 0; i < 20; i++) replies.push(new WeakRef(await pool.run(twoLineTask(wcMap, input))));
      await sleep(10);
      gc();
      const held = replies.filter((reply) => reply.deref() !== undefined).length;
      assert.ok(held <= 1, `${held} of 20 replies still held after a collection`);
    } finally {
      await pool.close();
    }
  });
