// Observers never overwrite an end: the job's processes and the paths that
// judge a job (job wait, status, list, cancel, the identical call) race on
// a real state folder, one seeded interleaving at a time (the model is
// test/helpers/observer-race.ts). A job that finished is never reported as
// anything else; a crashed one ends lost, a frozen one stalled, and every
// reader agrees with the end once it is written. Wall clocks are stepped by
// up to ten minutes either way on every side; nothing depends on them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobState } from '../../../src/contract/vocabulary/job-state.js';
import { Fate, playRace, type RaceOutcome } from '../../helpers/observer-race.js';

/** Seeds in the suite; STINT_RACE_SEEDS runs more (the note in docs/reliability.md says how many ran). */
const SEEDS = Number(process.env['STINT_RACE_SEEDS'] ?? 3000);
/** A memory-backed folder where there is one: thousands of small fsynced writes cost nothing there. */
const root = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'stint-observer-race-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));

const FINAL_STATE: Record<Fate, JobState> = {
  [Fate.Finishes]: JobState.Done,
  [Fate.HandsOff]: JobState.Done,
  [Fate.Crashes]: JobState.Lost,
  [Fate.Freezes]: JobState.Stalled,
  [Fate.FreezesThenWakes]: JobState.Stalled,
};

function check(outcome: RaceOutcome): void {
  const { fate, end, seen } = outcome;
  assert.ok(end, 'the job has an end');
  if (fate === Fate.FreezesThenWakes && end.status.state === JobState.Done) return checkFinished(outcome);
  assert.equal(end.status.state, FINAL_STATE[fate]);
  assert.equal(outcome.status?.state, end.status.state, 'status.json shows the end');
  const finals = seen.flatMap((s) => (s.kind === 'final' ? [s.answer] : []));
  assert.ok(finals.length >= 1, 'the last look, after the idle timeout, finds the end');
  for (const answer of finals) assert.deepEqual(answer, end.result, 'every final answer is the end written');
  if (fate === Fate.Finishes || fate === Fate.HandsOff) checkFinished(outcome);
  if (fate === Fate.Freezes || fate === Fate.FreezesThenWakes) {
    assert.ok(outcome.killed.length >= 1, 'the frozen process is killed');
    // Woken between the verdict and the kill, it found the end written: that answer is the one it was told.
    if (outcome.own) assert.deepEqual(outcome.own.stood, end.result, 'a woken job answers the end that stands');
  }
  if (fate === Fate.Crashes) assert.deepEqual(outcome.killed, []);
}

/** A job that wrote its own end: it stands, every reader got it, the job was told so, nothing was killed. */
function checkFinished(outcome: RaceOutcome): void {
  const { end } = outcome;
  assert.ok(outcome.own, 'the job wrote its own answer');
  assert.equal(end?.status.state, JobState.Done);
  assert.deepEqual(end.result, outcome.own.answer, "the job's own answer stands");
  assert.deepEqual(outcome.own.stood, outcome.own.answer, 'and the job was told so');
  const finals = outcome.seen.flatMap((s) => (s.kind === 'final' ? [s.answer] : []));
  for (const answer of finals) assert.deepEqual(answer, end.result, 'every final answer is the job\'s own');
  assert.deepEqual(outcome.killed, [], 'nothing killed');
}

const TITLE = `observers race the job's processes: ${SEEDS} seeded interleavings`;
test(`${TITLE}, no end overwritten, none claimed falsely`, async () => {
  const fates = new Map<Fate, number>();
  // The windows the race needs, counted so that a model that stopped playing them fails: observers that saw the
  // job going and then its end while it finished; a frozen job woken after the verdict, told the end that stands.
  let [raced, woken] = [0, 0];
  for (let seed = 1; seed <= SEEDS; seed++) {
    const outcome = await playRace(root, seed);
    fates.set(outcome.fate, (fates.get(outcome.fate) ?? 0) + 1);
    const kinds = new Set(outcome.seen.map((s) => s.kind));
    const finishing = outcome.fate === Fate.Finishes || outcome.fate === Fate.HandsOff;
    if (finishing && kinds.has('going') && kinds.has('final')) raced++;
    const stalled = outcome.end?.status.state === JobState.Stalled;
    if (outcome.fate === Fate.FreezesThenWakes && outcome.own && stalled) woken++;
    try {
      check(outcome);
    } catch (error) {
      throw new Error(`seed ${seed} (${outcome.fate}): ${(error as Error).message}`, { cause: error });
    }
  }
  assert.equal(fates.size, Object.values(Fate).length, 'every fate was played');
  assert.ok(raced >= SEEDS / 20 && woken >= 1, `${raced} finishing jobs watched through their end, ${woken} woken`);
});
