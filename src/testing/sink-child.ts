// The process the sink conformance suite kills: it commits a run's series on
// the subject's store, saying so after each commit, until it is killed.
import { COMMITTED, KILLED_RUN, seriesCommit, SUITE_INPUT } from './suite-state.js';
import type { SinkSubject } from './sink-conformance.js';

const [module, place] = process.argv.slice(2) as [string, string];
const { subject } = await import(module) as { subject: SinkSubject };
const { sink } = await subject.open(place, KILLED_RUN);
const done = (await sink.resume())?.state.commits ?? 0;
// Commits until killed: the suite kills this process mid-run.
for (let n = done + 1; ; n++) {
  const state = seriesCommit(n);
  await sink.commit({ watermark: { offset: state.commits, line: state.commits }, input: SUITE_INPUT, state });
  process.stdout.write(`${COMMITTED}\n`);
}
