// The sink conformance suite itself: an in-memory sink that keeps the rules
// passes every case, and each way of breaking a rule fails the case for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Sink, SinkMark } from '../../../src/engine/sinks/sink.js';
import {
  decodeSuiteMark, encodeSuiteMark, POISON_VALUE, sinkConformance, type SinkSubject, type SuiteReject, type SuiteState,
} from '../../../src/testing/index.js';

/** How an in-memory sink may break the rules. */
interface Flaws {
  /** Writes the rows before the poison one and keeps them: not atomic. */
  partial?: boolean;
  /** Appends a key written again instead of replacing its row. */
  appends?: boolean;
  /** Keeps one mark for every run. */
  sharedMark?: boolean;
  /** Drops the rejected rows. */
  dropsRejects?: boolean;
}

function memorySubject(flaws: Flaws): SinkSubject {
  const stores = new Map<string, { rows: [string, string][]; rejects: SuiteReject[]; marks: Map<string, Uint8Array> }>();
  return {
    async open(place, run) {
      const store = stores.get(place) ?? { rows: [], rejects: [], marks: new Map<string, Uint8Array>() };
      stores.set(place, store);
      const markKey = flaws.sharedMark ? 'one' : run;
      const sink: Sink<SuiteState> = {
        async resume() {
          const bytes = store.marks.get(markKey);
          return bytes && decodeSuiteMark(bytes);
        },
        async commit(mark: SinkMark<SuiteState>) {
          const rows = [...store.rows];
          for (const row of mark.state.rows) {
            if (row.value === POISON_VALUE) {
              if (flaws.partial) store.rows = rows;
              throw new Error('poison');
            }
            const at = rows.findIndex(([key]) => key === row.key);
            if (at >= 0 && !flaws.appends) rows[at] = [row.key, row.value];
            else rows.push([row.key, row.value]);
          }
          store.rows = rows;
          if (!flaws.dropsRejects) store.rejects.push(...mark.state.rejects);
          store.marks.set(markKey, encodeSuiteMark(mark));
        },
      };
      return {
        sink,
        contents: async () => ({
          rows: [...store.rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, value]) => ({ key, value })),
          rejects: [...store.rejects].sort((a, b) => a.line - b.line),
        }),
        close: async () => undefined,
      };
    },
  };
}

/** The names of the cases that fail for a subject. */
async function failing(subject: SinkSubject): Promise<string[]> {
  const failed: string[] = [];
  for (const check of sinkConformance(subject)) {
    await check.run().catch(() => failed.push(check.name));
  }
  return failed;
}

test('a sink that keeps the rules passes every case', async () => {
  assert.deepEqual(await failing(memorySubject({})), []);
});

test('each broken rule fails its case', async () => {
  assert.deepEqual(await failing(memorySubject({ partial: true })),
    ['a commit that fails midway leaves neither its output nor its mark']);
  assert.deepEqual(await failing(memorySubject({ appends: true })),
    ['a key written again replaces its row (an upsert), in one commit or across two']);
  assert.deepEqual(await failing(memorySubject({ sharedMark: true })),
    ['runs keep their marks apart, and a reopened store resumes each where it left off']);
  assert.deepEqual(await failing(memorySubject({ dropsRejects: true })),
    ['rejected rows are kept with the commit that carries them']);
});
