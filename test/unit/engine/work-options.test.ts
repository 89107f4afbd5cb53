// The engine's public options are refused where they are passed: a thread count or a size that is not a whole
// number of at least 1 answers ARG_ERROR (exit 2) naming the call and the option, before anything is opened or read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/contract/error-code.js';
import { ExitCode } from '../../../src/contract/exit-code.js';
import { StintError } from '../../../src/contract/stint-error.js';
import { openWorkerPool } from '../../../src/engine/chunk-pool.js';
import type { EngineContext } from '../../../src/engine/engine-context.js';
import { processFile } from '../../../src/engine/process-file.js';
import { processFiles } from '../../../src/engine/process-files.js';
import { processStdin } from '../../../src/engine/process-stdin.js';
import { Framing } from '../../../src/engine/worker/framing.js';

const BAD_COUNTS: readonly unknown[] = [1.5, NaN, 0, -1, Infinity, '2', null];

/** Asserts the promise rejects with ARG_ERROR naming `api` and `option`, with the value shown in its context. */
async function refused(running: Promise<unknown>, api: string, option: string, value: unknown): Promise<void> {
  await assert.rejects(running, (error: unknown) => {
    assert.ok(error instanceof StintError, String(error));
    assert.equal(error.code, ErrorCode.ArgError);
    assert.equal(error.exitCode, ExitCode.ARG_ERROR);
    assert.match(error.message, new RegExp(`^${api}: ${option} must be a whole number of at least 1 \\(got `));
    const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
    assert.deepEqual(error.toDetail().context, { api, option, value: shown });
    assert.equal(error.toDetail().phase, 'validation');
    return true;
  });
}

test('openWorkerPool refuses a thread count that is not a whole number of at least 1', async () => {
  for (const workers of BAD_COUNTS) {
    await refused(openWorkerPool(workers as number), 'openWorkerPool', 'workers', workers);
  }
});

test('openWorkerPool still opens a pool of a whole number of threads', async () => {
  const one = await openWorkerPool(1);
  assert.equal(one.workers, 1);
  await one.close();
});

/** A context no refused call may touch: every member throws. */
const untouched = new Proxy({}, {
  get: (_, name) => {
    throw new Error(`the context was read (${String(name)}) before the options were checked`);
  },
}) as EngineContext;

const fold = async function* () {
  yield undefined;
};
const fileWork = { framing: Framing.Lines, mapModule: 'file:///nowhere.js', initial: () => undefined, fold };
const KNOBS = ['workers', 'workerYoungGenerationMb', 'chunkSize', 'maxRecordBytes'] as const;

test('processFile, processFiles and processStdin refuse a bad count or size before they read anything', async () => {
  for (const option of KNOBS) {
    for (const value of [1.5, NaN, 0, -4096]) {
      const knob = { [option]: value };
      const file = processFile(untouched, { ...fileWork, path: 'missing.csv', ...knob });
      await refused(file, 'processFile', option, value);
      await refused(processFiles(untouched, {
        ...fileWork, paths: ['missing.csv'], begin: () => ({ state: undefined }), end: () => undefined, ...knob,
      }), 'processFiles', option, value);
      await refused(processStdin(untouched, { ...fileWork, ...knob }), 'processStdin', option, value);
    }
  }
});
