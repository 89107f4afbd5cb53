// Model-based fault injection on the BUILT stint: seeded random schedules of
// imports (append and upsert), exports and analyses, hit by budgets,
// SIGINT, SIGTERM, kill -9 (front and supervisor), job cancel, repeated and
// concurrent identical calls; then driven to the end and checked against
// the model (test/helpers/fault-model.ts).
//
//   STINT_FAULT_SEED=1234        replays one schedule (a failure prints its seed)
//   STINT_SOAK_SCHEDULES=500     a soak over that many random seeds, with figures at the end
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { random } from '../helpers/csv-generator.js';
import { runJson } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';
import { declaredFrom, type Declared } from '../helpers/fault-model.js';
import { CI_SEEDS } from '../helpers/fault-schedule.js';
import { describeVerdict, runSchedule, type Verdict } from '../helpers/fault-verdict.js';


const world = tempWorld('faults');
let declared: Declared;
let schedules = 0;

before(async () => {
  const { envelope } = await runJson(['manifest']);
  declared = declaredFrom(envelope.data as unknown as Parameters<typeof declaredFrom>[0]);
});

const run = (seed: number): Promise<Verdict> => runSchedule(seed, declared, world.path(`schedule-${++schedules}`));

function soakSeeds(count: number): number[] {
  // The soak's own seeds come from a seeded generator too, so a soak can be replayed whole.
  const soakSeed = Number(process.env['STINT_SOAK_SEED'] ?? Date.now() % 2 ** 31);
  process.stderr.write(`soak: STINT_SOAK_SEED=${soakSeed}\n`);
  const rnd = random(soakSeed);
  return Array.from({ length: count }, () => 1 + Math.floor(rnd() * (2 ** 31 - 2)));
}

const slowSaves = (v: Verdict): number => (v.schedule.slowSave ? 1 : 0);

function figures(verdicts: readonly Verdict[]): string {
  const sum = (f: (v: Verdict) => number) => verdicts.reduce((total, v) => total + f(v), 0);
  const failed = verdicts.filter((v) => v.violations.length > 0);
  const byInvariant = new Map<string, number[]>();
  for (const v of failed) {
    for (const inv of new Set(v.violations.map((x) => x.invariant))) {
      byInvariant.set(inv, [...(byInvariant.get(inv) ?? []), v.schedule.seed]);
    }
  }
  return [
    `schedules run: ${verdicts.length} (${failed.length} with findings)`,
    `calls: ${sum((v) => v.calls)}, kill -9s: ${sum((v) => v.kills)}`,
    `schedules with slow saves (a budget may end with a save in flight: forced stops): ${sum(slowSaves)}`,
    `rows lost: ${sum((v) => v.rowsLost)}, rows doubled: ${sum((v) => v.rowsDoubled)}`,
    `calls without a proper answer: ${sum((v) => v.improperAnswers)}`,
    `drives escalated after three continuations without progress: ${sum((v) => v.stalls)}`,
    `calls ended by a signal while Node was still starting: ${sum((v) => v.startupDeaths)}`,
    ...[...byInvariant].map(([inv, seeds]) => `  ${inv}: ${seeds.length} schedules, seeds ${seeds.slice(0, 20).join(' ')}`),
  ].join('\n');
}

const soak = Number(process.env['STINT_SOAK_SCHEDULES'] ?? 0);
const replay = process.env['STINT_FAULT_SEED'];

describe('fault injection: every schedule ends with its input exactly once and proper answers', () => {
  if (soak > 0) {
    test(`soak: ${soak} random schedules`, async () => {
      const verdicts: Verdict[] = [];
      for (const seed of soakSeeds(soak)) {
        const verdict = await run(seed);
        verdicts.push(verdict);
        const found = verdict.violations.length;
        process.stderr.write(`soak ${verdicts.length}/${soak}: seed ${seed} ${found ? `${found} findings` : 'ok'}\n`);
        if (found > 0) process.stderr.write(`${describeVerdict(verdict)}\n\n`);
      }
      const summary = figures(verdicts);
      process.stderr.write(`${summary}\n`);
      assert.ok(verdicts.every((v) => v.violations.length === 0), summary);
    });
    return;
  }
  for (const seed of replay ? [Number(replay)] : CI_SEEDS) {
    test(`seed ${seed}`, async () => {
      const verdict = await run(seed);
      assert.deepEqual(verdict.violations, [], describeVerdict(verdict));
    });
  }
});
