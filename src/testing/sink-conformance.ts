// The checks every sink must pass to give exactly-once output, for stint's
// own sinks and for any an author writes: feed the cases to your test runner.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sink, SinkMark } from '../engine/sinks/sink.js';
import {
  COMMITTED, commitSeries, KILLED_RUN, POISON_VALUE, SUITE_INPUT, type SuiteReject, type SuiteRow, type SuiteState,
} from './suite-state.js';

/** A sink the suite drives, over a store it can read back. */
export interface OpenedSink {
  readonly sink: Sink<SuiteState>;
  /** What the store holds: its rows (one per key) in key order, and its rejected rows in line order. */
  contents(): Promise<{ rows: SuiteRow[]; rejects: SuiteReject[] }>;
  close(): Promise<void>;
}

/**
 * How to make the sink under test. `open` gives a sink for `run` over the store at `place`: a fresh folder for
 * each case (a file or folder inside it; for a server, a schema or table named after it). The sink's write
 * stores the state's rows in order (a key written again replaces its row) and its rejects, and throws when
 * it reaches a row whose value is POISON_VALUE, after writing the rows before it: the suite's stand-in for a
 * write that fails midway (a constraint, a full disk, a lost connection).
 */
export interface SinkSubject {
  open(place: string, run: string): Promise<OpenedSink>;
  /** A module whose export `subject` is this subject, for the case that kills a process mid-run. */
  readonly module?: string;
}

export interface ConformanceCase {
  readonly name: string;
  run(): Promise<void>;
}

const INPUT = SUITE_INPUT;
const mark = (offset: number, state: SuiteState): SinkMark<SuiteState> =>
  ({ watermark: { offset, line: offset }, input: INPUT, state });
const rows = (...pairs: [string, string][]) => pairs.map(([key, value]) => ({ key, value }));

/** Opens the subject's store in a fresh place, runs `work`, and closes it. */
async function within(subject: SinkSubject, run: string, work: (opened: OpenedSink) => Promise<void>) {
  const place = freshPlace();
  const opened = await subject.open(place, run);
  try {
    await work(opened);
  } finally {
    await opened.close();
    rmSync(place, { recursive: true, force: true });
  }
}

const freshPlace = () => mkdtempSync(join(tmpdir(), 'stint-sink-'));

/** The mark as the suite compares it: where it ends, its input, and how many commits it counts. */
async function resumed(sink: Sink<SuiteState>) {
  const found = await sink.resume();
  return found && { offset: found.watermark.offset, input: found.input, commits: found.state.commits };
}

/** The cases, each to run as one test. */
export function sinkConformance(subject: SinkSubject): ConformanceCase[] {
  const cases: ConformanceCase[] = [
    {
      name: 'a run that committed nothing resumes from nothing',
      run: () => within(subject, 'fresh', async ({ sink, contents }) => {
        assert.equal(await sink.resume(), undefined);
        assert.deepEqual(await contents(), { rows: [], rejects: [] });
      }),
    },
    {
      name: 'a commit writes its output and its mark; later ones add output and replace the mark',
      run: () => within(subject, 'commits', async ({ sink, contents }) => {
        await sink.commit(mark(10, { commits: 1, rows: rows(['a', '1'], ['b', '2']), rejects: [] }));
        assert.deepEqual(await resumed(sink), { offset: 10, input: INPUT, commits: 1 });
        await sink.commit(mark(25, { commits: 2, rows: rows(['c', '3']), rejects: [] }));
        assert.deepEqual(await resumed(sink), { offset: 25, input: INPUT, commits: 2 });
        assert.deepEqual((await contents()).rows, rows(['a', '1'], ['b', '2'], ['c', '3']));
      }),
    },
    {
      name: 'a commit that fails midway leaves neither its output nor its mark',
      run: () => within(subject, 'atomic', async ({ sink, contents }) => {
        await sink.commit(mark(10, { commits: 1, rows: rows(['a', '1']), rejects: [{ line: 2, reason: 'bad' }] }));
        const before = await contents();
        const rejects = [{ line: 5, reason: 'x' }];
        const failing = { commits: 2, rows: rows(['b', '2'], ['c', POISON_VALUE]), rejects };
        await assert.rejects(sink.commit(mark(30, failing)));
        assert.deepEqual(await resumed(sink), { offset: 10, input: INPUT, commits: 1 });
        assert.deepEqual(await contents(), before);
        await sink.commit(mark(30, { commits: 2, rows: rows(['b', '2']), rejects: [] }));
        assert.deepEqual((await contents()).rows, rows(['a', '1'], ['b', '2']), 'the sink is usable after a failure');
      }),
    },
    {
      name: 'a key written again replaces its row (an upsert), in one commit or across two',
      run: () => within(subject, 'upsert', async ({ sink, contents }) => {
        await sink.commit(mark(10, { commits: 1, rows: rows(['a', '1'], ['b', '2']), rejects: [] }));
        await sink.commit(mark(20, { commits: 2, rows: rows(['b', '3'], ['c', '4'], ['c', '5']), rejects: [] }));
        assert.deepEqual((await contents()).rows, rows(['a', '1'], ['b', '3'], ['c', '5']));
      }),
    },
    {
      name: 'rejected rows are kept with the commit that carries them',
      run: () => within(subject, 'rejects', async ({ sink, contents }) => {
        const rejects = [{ line: 3, reason: 'type_mismatch' }, { line: 7, reason: 'too_many_fields' }];
        await sink.commit(mark(10, { commits: 1, rows: rows(['a', '1']), rejects }));
        assert.deepEqual((await contents()).rejects, rejects);
      }),
    },
    {
      name: 'runs keep their marks apart, and a reopened store resumes each where it left off',
      async run() {
        // One run's store open at a time: many stores admit one opener.
        const place = freshPlace();
        const inPlace = async (run: string, work: (sink: Sink<SuiteState>) => Promise<void>) => {
          const opened = await subject.open(place, run);
          try {
            await work(opened.sink);
          } finally {
            await opened.close();
          }
        };
        await inPlace('first', (sink) => sink.commit(mark(10, { commits: 1, rows: rows(['a', '1']), rejects: [] })));
        await inPlace('second', async (sink) => {
          assert.equal(await sink.resume(), undefined, 'another run has no mark yet');
          await sink.commit(mark(40, { commits: 1, rows: rows(['z', '9']), rejects: [] }));
        });
        await inPlace('first', async (sink) => {
          assert.deepEqual(await resumed(sink), { offset: 10, input: INPUT, commits: 1 });
        });
        await inPlace('second', async (sink) => {
          assert.deepEqual(await resumed(sink), { offset: 40, input: INPUT, commits: 1 });
        });
        rmSync(place, { recursive: true, force: true });
      },
    },
  ];
  if (subject.module) cases.push(killCase(subject, subject.module));
  return cases;
}

const CHILD = fileURLToPath(new URL('./sink-child.js', import.meta.url));
/** Commits the child makes, at least, before it is killed; and more the run makes after. */
const KILL_AFTER = 20;
const MORE = 10;

/** kill -9 while a process commits: the store holds the output of exactly the commits its mark counts. */
function killCase(subject: SinkSubject, module: string): ConformanceCase {
  return {
    name: 'kill -9 mid-run: the store holds the output of exactly the commits its mark counts; the run goes on',
    async run() {
      // The child has the store to itself (many stores admit one process at a time): opened here only after.
      const place = freshPlace();
      await commitInChild(module, place, KILL_AFTER);
      const { sink, contents, close } = await subject.open(place, KILLED_RUN);
      try {
        const found = await sink.resume();
        assert.ok(found, 'the killed run committed');
        const { commits } = found.state;
        assert.ok(commits >= KILL_AFTER, `${commits} commits`);
        assert.equal(found.watermark.offset, commits);
        assert.deepEqual((await contents()).rows, commitSeries(commits).flatMap((state) => state.rows));
        const all = commitSeries(commits + MORE);
        for (const state of all.slice(commits)) await sink.commit(mark(state.commits, state));
        assert.deepEqual((await contents()).rows, all.flatMap((state) => state.rows));
      } finally {
        await close();
        rmSync(place, { recursive: true, force: true });
      }
    },
  };
}

/** Runs the child's commits on the store in `place` and kills it with SIGKILL once it has made `after`. */
async function commitInChild(module: string, place: string, after: number): Promise<void> {
  const child = spawn(process.execPath, [CHILD, module, place], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ended = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    let seen = 0;
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        seen += text.split('\n').filter((line) => line === COMMITTED).length;
        if (seen >= after) resolve();
      });
      child.on('exit', (code) => reject(new Error(`the child ended (${code}) after ${seen} commits, before the kill`)));
    });
  } finally {
    child.kill('SIGKILL');
    await ended;
  }
}
