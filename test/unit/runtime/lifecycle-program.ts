// A small program for the in-process lifecycle tests: resumable commands
// (detach: false, so they run in the test's own process) whose every pause
// is on the test's fake clock.
import { existsSync } from 'node:fs';
import type { Envelope } from '../../../src/contract/envelope.js';
import { ExitCode } from '../../../src/contract/exit-code.js';
import { outcomeOf } from '../../../src/contract/outcome.js';
import { DangerLevel } from '../../../src/contract/vocabulary/danger-level.js';
import { SideEffects } from '../../../src/contract/vocabulary/side-effects.js';
import { JobStore } from '../../../src/runtime/jobs/job-store.js';
import type { JobStatus } from '../../../src/runtime/jobs/job-record.js';
import type { CommandContext, CommandResult } from '../../../src/runtime/authoring/command-spec.js';
import { checkpointDirFor } from '../../../src/runtime/storage/checkpoint-folder.js';
import { defineCommand } from '../../../src/runtime/authoring/define-command.js';
import { createProgram, type Program } from '../../../src/program/program.js';
import { drive, fakeHost, type FakeClock, type FakeHost } from '../../helpers/fake-host.js';

/** Fake milliseconds between two steps. */
export const STEP_MS = 100;
export const NAME = 'count-tool';
export const HOME_ENV = 'COUNT_TOOL_HOME';

const done = { description: 'Done', retryable: false, sideEffects: SideEffects.Complete } as const;
const paused = { description: 'Paused at its checkpoint', retryable: true, sideEffects: SideEffects.None } as const;
const exitCodes = { [ExitCode.SUCCESS]: done, [ExitCode.INCOMPLETE]: paused };
const stepsArgument = [{ name: 'steps', type: 'integer', description: 'How many steps' }] as const;

interface Counted { readonly i: number; readonly sum: number }
interface Shape { readonly flatFrom?: number; readonly stuckFrom?: number; readonly startMs?: number }

/** The program and what its handlers did, across every call of one test. */
export interface CountTool {
  readonly program: Program;
  /** Steps executed by every call together: a resumed run repeats none. */
  readonly stepsRun: () => number;
}

/**
 * Sums 1..steps, a fake-clock tick and a checkpoint a step; with `flatFrom`, progress stops growing
 * from that step on (it still reaches safe points); with `stuckFrom`, the handler parks for good there; with
 * `startMs`, it takes that long before it opens its checkpoint (a loaded machine's start-up).
 */
export function countTool(clock: FakeClock): CountTool {
  let stepsRun = 0;
  async function count(steps: number, ctx: CommandContext, shape: Shape = {}) {
    if (shape.startMs) await clock.sleep(shape.startMs);
    const restored = await ctx.restore<Counted>({ steps });
    let state: Counted = restored?.state ?? { i: 0, sum: 0 };
    while (state.i < steps) {
      if (state.i === shape.stuckFrom) await clock.sleep(1e12);
      await clock.sleep(STEP_MS);
      const i = shape.flatFrom !== undefined && state.i >= shape.flatFrom ? state.i : state.i + 1;
      if (i > state.i) stepsRun++;
      state = { i, sum: state.sum + (i > state.i ? i : 0) };
      if (await ctx.checkpoint(state, { done: i, total: steps })) return stoppedAt(state, steps, ctx);
    }
    return { exitCode: ExitCode.SUCCESS, data: { steps, sum: state.sum } };
  }
  const command = (name: string, shape: Shape, idle?: number) => defineCommand({
    name,
    description: `Sum 1..steps on the fake clock (${name})`,
    dangerLevel: DangerLevel.Safe,
    positionals: stepsArgument,
    interruption: { detach: false, resume: true, ...(idle ? { idleTimeoutMs: idle } : {}) },
    exitCodes: exitCodes,
    run: ({ positionals }, ctx) => count(positionals.steps, ctx, shape),
  });
  const idle = 1_000;
  const commands = [
    command('count', {}),
    // Progress every step, well inside its idle timeout: a healthy job with a watchdog that is quick to fire.
    command('steady', {}, idle),
    command('flat', { flatFrom: 3 }, idle),
    command('stuck', { stuckFrom: 3 }, idle),
    command('slow-start', { startMs: 2_000 }),
  ];
  const program = createProgram({ name: NAME, version: '1.0.0', description: 'Counts', commands });
  return { program, stepsRun: () => stepsRun };
}

function stoppedAt(state: Counted, steps: number, ctx: CommandContext): CommandResult<unknown> {
  const established = [{ q: `steps 1-${state.i}`, a: state, cite: { steps: [1, state.i] } }];
  const unresolved = [{ q: `steps ${state.i + 1}-${steps}`, reason: 'not reached' }];
  const partial = outcomeOf(established, unresolved, ctx.stopCause());
  return { exitCode: ExitCode.INCOMPLETE, data: partial };
}

/** One call of the program, driven on the fake clock; `before` may arm test timers (a signal at a fake time). */
export interface Called {
  readonly code: number;
  readonly envelope: Envelope<Record<string, unknown>>;
  readonly host: FakeHost;
}

export async function call(
  tool: CountTool,
  clock: FakeClock,
  home: string,
  argv: readonly string[],
  before?: (host: FakeHost) => void,
): Promise<Called> {
  const host = fakeHost(argv, { [HOME_ENV]: home, STINT_CHECKPOINT_INTERVAL_MS: '0' }, home, clock);
  before?.(host);
  const code = await drive(clock, tool.program.main(host));
  const envelope = JSON.parse(host.out.join('')) as Envelope<Record<string, unknown>>;
  return { code, envelope, host };
}

/** The newest job in `home`, as its files say, and whether its checkpoint is there. */
export function newestJob(home: string): { id: string; status: JobStatus; checkpoint: boolean } {
  const store = new JobStore(home);
  const records = store.list().map((id) => store.readRecord(id)!).sort((a, b) => a.createdAt - b.createdAt);
  const record = records.at(-1)!;
  const status = store.readStatus(record.id)!;
  return { id: record.id, status, checkpoint: existsSync(checkpointDirFor(home, record.key)) };
}
