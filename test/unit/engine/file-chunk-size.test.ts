// A file's own chunk size (FileStart.chunkSize, as analyze sizes each file's) cuts its chunks, is kept with its
// fold in the checkpoint, and a resumed file goes on on its first run's grid even when the continuing call asks
// another size: where chunks end moves estimates, so one file's fold never mixes two grids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Fold } from '../../../src/engine/chunked-run.js';
import type { EngineContext } from '../../../src/engine/engine-context.js';
import { processFiles, type FilesWork } from '../../../src/engine/process-files.js';
import { Framing } from '../../../src/engine/worker/framing.js';
import type { Counts } from '../../../docs/examples/wc/wc-map.js';
import { REPO_ROOT } from '../../helpers/paths.js';
import { tempWorld } from '../../helpers/temp-world.js';

const WC_MAP = join(REPO_ROOT, 'build', 'docs', 'examples', 'wc', 'wc-map.js');
const world = tempWorld('file-chunk-size');
const LINE = 'a line of thirty-two bytes ....\n';

/** Where each chunk of the fold started and ended. */
type Cuts = Array<[number, number]>;
const cutsOf: Fold<Counts, Cuts> = async function* (chunks, cuts) {
  for await (const chunk of chunks) {
    cuts.push([chunk.start, chunk.end]);
    yield cuts;
  }
  return cuts;
};

/** A context with a checkpoint store in memory that asks for a stop after `stopAfter` safe points. */
function contextWith(saved: { state?: unknown }, stopAfter: number): EngineContext {
  let points = 0;
  return {
    cwd: world.dir,
    stdinPath: undefined,
    invocationKey: 'file-chunk-size',
    progress: () => undefined,
    stopRequested: () => points >= stopAfter,
    now: () => Date.now(),
    restore: async () => (saved.state === undefined ? undefined : { state: saved.state } as never),
    checkpoint: async (state: unknown) => {
      saved.state = structuredClone(state);
      return ++points >= stopAfter;
    },
  } as EngineContext;
}

const work = (path: string, workSize: number, fileSize?: number): FilesWork<Counts, Cuts, Cuts> => ({
  paths: [path], framing: Framing.Lines, mapModule: pathToFileURL(WC_MAP).href, workers: 1, chunkSize: workSize,
  begin: () => ({ state: [] as Cuts, ...(fileSize ? { chunkSize: fileSize } : {}) }),
  fold: cutsOf,
  end: (ended) => (ended.kind === 'refused' ? [] : ended.state),
});

test('a chunk size from begin cuts the file, and a resumed file keeps it whatever the work now asks', async () => {
  const path = world.path('lines.txt');
  writeFileSync(path, LINE.repeat(4096));
  assert.equal(LINE.length, 32);
  const whole = await processFiles(contextWith({}, Infinity), work(path, 4096, 16 * 1024));
  assert.equal(whole.kind, 'done');
  const uninterrupted = (whole.kind === 'done' ? whole.results[0] : []) as Cuts;
  assert.equal(uninterrupted.length, 8, 'a 128 KiB file in 16 KiB chunks, not the work\'s 4 KiB');

  const saved: { state?: unknown } = {};
  const first = await processFiles(contextWith(saved, 3), work(path, 4096, 16 * 1024));
  assert.equal(first.kind, 'stopped');
  assert.equal((saved.state as { current: { chunkSize: number } }).current.chunkSize, 16 * 1024);
  const second = await processFiles(contextWith(saved, Infinity), work(path, 8192, 4096));
  assert.equal(second.kind, 'done');
  assert.deepEqual(second.kind === 'done' ? second.results[0] : [], uninterrupted, 'the same cuts as one run');
});
