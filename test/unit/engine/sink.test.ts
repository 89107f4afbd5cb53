import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utimesSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { processFile, type FileWork } from '../../../src/engine/process-file.js';
import { Framing } from '../../../src/engine/worker/framing.js';
import type { Sink, SinkMark } from '../../../src/engine/sinks/sink.js';
import type { Fold } from '../../../src/engine/chunked-run.js';
import type { EngineContext } from '../../../src/engine/engine-context.js';
import type { Counts } from '../../../docs/examples/wc/wc-map.js';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/paths.js';
import { tempWorld } from '../../helpers/temp-world.js';

/** The guide's wc map, as the suite built it. */
const WC_MAP = join(REPO_ROOT, 'build', 'docs', 'examples', 'wc', 'wc-map.js');

const world = tempWorld('sink');

/** Lines counted so far, and the lines of the chunks since the last commit (the output). */
interface Lines { total: number; staged: number }

/** A store that keeps its rows and its mark together, as one commit would. */
function memorySink(): Sink<Lines> & { rows: number; commits: number; mark?: SinkMark<Lines> } {
  const sink = {
    rows: 0,
    commits: 0,
    mark: undefined as SinkMark<Lines> | undefined,
    resume: async () => sink.mark,
    async commit(mark: SinkMark<Lines>) {
      sink.rows += mark.state.staged;
      sink.commits++;
      sink.mark = { ...mark, state: { total: mark.state.total, staged: 0 } };
    },
  };
  return sink;
}

const countLines: Fold<Counts, Lines> = async function* (chunks, state) {
  for await (const { partial } of chunks) {
    state = { total: state.total + partial.lines, staged: partial.lines };
    yield state;
  }
  return state;
};

/** A context that asks for a stop at the `stopAt`th progress report; its checkpoint store must not be used. */
function contextStoppingAt(stopAt: number): EngineContext {
  let reports = 0;
  return {
    cwd: world.dir,
    stdinPath: undefined,
    invocationKey: 'sink-test',
    progress: () => void reports++,
    stopRequested: () => reports >= stopAt,
    // The call's clock: a sink's commits are timed on it for the budget's pace.
    now: () => Date.now(),
    restore: () => assert.fail('a run with a sink resumes from the sink'),
    checkpoint: () => assert.fail('a run with a sink commits to the sink'),
  };
}

const work = (path: string, sink: Sink<Lines>): FileWork<Counts, Lines> => ({
  path, framing: Framing.Lines, mapModule: pathToFileURL(WC_MAP).href,
  initial: () => ({ total: 0, staged: 0 }), fold: countLines, chunkSize: 4096, workers: 1, sink,
});

test('a run with a sink commits at every safe point, stops after a commit, and resumes from the sink', async () => {
  const path = world.path('lines.txt');
  writeFileSync(path, Array.from({ length: 5000 }, (_, k) => `line ${k}\n`).join(''));
  const sink = memorySink();
  const first = await processFile(contextStoppingAt(3), work(path, sink));
  assert.equal(first.kind, 'stopped');
  assert.equal(sink.commits, 3, 'a commit at every safe point, the stop after the third');
  assert.equal(sink.rows, first.state.total, 'what it stopped with is committed');
  const second = await processFile(contextStoppingAt(Infinity), work(path, sink));
  assert.equal(second.kind, 'done');
  assert.equal(sink.rows, 5000, 'every line once');
  assert.equal(second.state.total, 5000);
});

test('a sink whose mark came from other input is refused: INPUT_CHANGED', async () => {
  const path = world.path('changed.txt');
  writeFileSync(path, 'a\nb\n');
  const sink = memorySink();
  await processFile(contextStoppingAt(Infinity), work(path, sink));
  utimesSync(path, new Date(), new Date(Date.now() + 60_000));
  await assert.rejects(processFile(contextStoppingAt(Infinity), work(path, sink)), { code: 'INPUT_CHANGED' });
});
