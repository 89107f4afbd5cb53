// A model of one job judged by observers while the processes running it
// work, hand it on, finish, crash or freeze: the real status, end and
// judging code on a real state folder, with the processes, the clocks and
// the order of every step in the test's hands. Each observer's store yields
// to the job's processes before every read and write it makes, and so does
// its liveness check: a seed picks which steps of the job land in between.
import { buildEnvelope, type Envelope } from '../../src/contract/envelope.js';
import { ExitCode } from '../../src/contract/exit-code.js';
import { JobState } from '../../src/contract/vocabulary/job-state.js';
import type { Host } from '../../src/runtime/authoring/host.js';
import { endJob } from '../../src/runtime/jobs/job-end.js';
import { STALL_MARGIN_MS, Verdict } from '../../src/runtime/jobs/job-liveness.js';
import { settleJob } from '../../src/runtime/jobs/job-outcomes.js';
import { heartbeatOf, type JobRecord, type JobStatus } from '../../src/runtime/jobs/job-record.js';
import { JobStore, type JobEnd } from '../../src/runtime/jobs/job-store.js';
import { waitOnJob } from '../../src/runtime/jobs/job-wait.js';
import type { ProcessIdentity } from '../../src/runtime/jobs/process-identity.js';
import { RunningStatus } from '../../src/runtime/jobs/running-status.js';
import { CheckpointFate } from '../../src/runtime/jobs/stop-table.js';
import { random } from './csv-generator.js';

/** How the job's run goes. */
export const Fate = {
  /** Runs to its end and answers 0. */
  Finishes: 'finishes',
  /** The front call hands the job to a supervisor, which finishes it. */
  HandsOff: 'hands-off',
  /** Its process dies without writing an end. */
  Crashes: 'crashes',
  /** Its process stops (SIGSTOP): alive, silent, no progress. */
  Freezes: 'freezes',
  /** It stops past the idle timeout, then goes on (SIGCONT) and finishes, unless an observer killed it first. */
  FreezesThenWakes: 'freezes-then-wakes',
} as const;
export type Fate = (typeof Fate)[keyof typeof Fate];

/** What one observer answered: the job still going (14, or a verdict of running), or a final answer. */
export type Seen = { readonly kind: 'going' } | { readonly kind: 'final'; readonly answer: Envelope };

export interface RaceOutcome {
  readonly fate: Fate;
  readonly seen: readonly Seen[];
  /** The job's own answer, when its process wrote one, and the answer its end call said stands. */
  readonly own?: { readonly answer: Envelope; readonly stood: Envelope | undefined };
  readonly end: JobEnd | undefined;
  /** The status.json view of the job at the end. */
  readonly status: JobStatus | undefined;
  readonly killed: readonly number[];
}

const BOOT = 'model-boot';
const IDLE_MS = 10_000;
const TEN_MINUTES = 10 * 60_000;
const FRONT_PID = 1_000_001;
const SUPERVISOR_PID = 1_000_002;

type Step = () => void;

/** One seed's world: the shared boot clock, the process table, the job's pending steps. */
class RaceWorld {
  readonly rand: () => number;
  mono = 1_000_000;
  readonly live = new Set<number>();
  readonly killed: number[] = [];
  readonly steps: Step[] = [];
  own: RaceOutcome['own'];

  constructor(readonly seed: number) {
    this.rand = random(seed);
  }

  int(below: number): number {
    return Math.floor(this.rand() * below);
  }

  /** A wall clock stepped by up to ten minutes either way, or not at all. */
  wallStep(): number {
    return [0, TEN_MINUTES, -TEN_MINUTES, this.int(2 * TEN_MINUTES) - TEN_MINUTES][this.int(4)]!;
  }

  /** The job's processes take a few steps here (often none). */
  interleave(): void {
    for (let n = this.rand() < 0.6 ? 0 : 1 + this.int(3); n > 0 && this.steps.length > 0; n--) this.steps.shift()!();
  }

  hostOf(pid: number, wallStep: number): Host {
    const host = { pid, now: () => this.mono + 1_700_000_000_000 + wallStep, monotonic: () => this.monotonic() };
    return host as unknown as Host;
  }

  monotonic() {
    return { ms: this.mono, boot: BOOT };
  }

  alive = (identity: ProcessIdentity): boolean => {
    this.interleave();
    return this.live.has(identity.pid);
  };

  kill = (identity: ProcessIdentity): void => {
    // The verdict is written before the signal is sent: a frozen process may wake in between and try to end.
    this.interleave();
    this.killed.push(identity.pid);
    if (!this.live.delete(identity.pid)) return;
    // A killed process takes no more steps.
    this.steps.length = 0;
  };
}

/** The observers' view of the state folder: every read and write first lets the job's processes move. */
class ObservedStore extends JobStore {
  constructor(root: string, private readonly world: RaceWorld) {
    super(root);
  }

  override readStatus(id: string) {
    this.world.interleave();
    return super.readStatus(id);
  }

  override readEnd(id: string) {
    this.world.interleave();
    return super.readEnd(id);
  }

  override claimEnd(id: string, end: JobEnd) {
    this.world.interleave();
    return super.claimEnd(id, end);
  }

  override readResult(id: string) {
    this.world.interleave();
    return super.readResult(id);
  }
}

function recordOf(id: string, world: RaceWorld, wall: number): JobRecord {
  return {
    id, key: `key-${id}`, program: 'model', command: ['count'], argv: ['count'], cwd: '/', programWords: ['model'],
    detach: true, resume: true, writes: false, idleTimeoutMs: IDLE_MS, timeoutMs: 0, createdAt: wall,
    born: world.monotonic(),
  };
}

/** The steps of one process running the job from `done`: progress (time passing), then what `then` does. */
function runSteps(world: RaceWorld, store: JobStore, job: JobRecord, pid: number, total: number): {
  steps: Step[]; status: () => RunningStatus;
} {
  const host = world.hostOf(pid, world.wallStep());
  let status: RunningStatus | undefined;
  const steps: Step[] = [() => void (status = new RunningStatus(host, store, job))];
  for (let done = 1; done <= total; done++) {
    steps.push(() => {
      world.mono += world.int(400);
      status!.report({ done, total });
      status!.refresh();
    });
  }
  return { steps, status: () => status! };
}

function finishSteps(world: RaceWorld, store: JobStore, job: JobRecord, pid: number, run: () => RunningStatus): Step[] {
  return [
    () => {
      const status = run();
      status.close();
      const answer = buildEnvelope({ exitCode: ExitCode.SUCCESS, durationMs: 1, data: { seed: world.seed } });
      const ending = {
        state: JobState.Done, now: world.mono, from: status.workSoFar, answer, checkpoint: CheckpointFate.Keep,
        holder: { kind: 'self', pid },
      } as const;
      world.own = { answer, stood: endJob(store, job, ending) };
    },
    () => void world.live.delete(pid),
  ];
}

/** The front writes the running status naming the supervisor it started, then exits (interruptible-call.ts). */
function handOffSteps(world: RaceWorld, store: JobStore, job: JobRecord, front: () => RunningStatus): Step[] {
  return [
    () => void world.live.add(SUPERVISOR_PID),
    () => {
      const { workSoFar } = front();
      front().close();
      const now = world.mono;
      const running = { state: JobState.Running, startedAt: workSoFar.startedAt, updatedAt: now, progressAt: now };
      store.writeStatus(job.id, { ...running, pid: SUPERVISOR_PID, ...heartbeatOf(world.monotonic()) });
    },
    () => void world.live.delete(FRONT_PID),
  ];
}

function planSteps(world: RaceWorld, fate: Fate, store: JobStore, job: JobRecord): Step[] {
  const total = 2 + world.int(8);
  const front = runSteps(world, store, job, FRONT_PID, total);
  if (fate === Fate.Finishes) return [...front.steps, ...finishSteps(world, store, job, FRONT_PID, front.status)];
  if (fate === Fate.Crashes) return [...front.steps, () => void world.live.delete(FRONT_PID)];
  // Stopped: it stays alive and writes nothing while time goes by past the idle timeout.
  const frozen = () => void (world.mono += IDLE_MS + STALL_MARGIN_MS + 1 + world.int(IDLE_MS));
  if (fate === Fate.Freezes) return [...front.steps, frozen];
  if (fate === Fate.FreezesThenWakes) {
    return [...front.steps, frozen, ...finishSteps(world, store, job, FRONT_PID, front.status)];
  }
  const next = runSteps(world, store, job, SUPERVISOR_PID, total);
  const handOff = handOffSteps(world, store, job, front.status);
  return [...front.steps, ...handOff, ...next.steps, ...finishSteps(world, store, job, SUPERVISOR_PID, next.status)];
}

/** One observer's look, by one of the judging paths: `job list` / `job cancel` (settle) or `job wait` / status. */
async function look(world: RaceWorld, store: ObservedStore, job: JobRecord): Promise<Seen> {
  const wallStep = world.wallStep();
  const now = () => world.mono + 1_700_000_000_000 + wallStep;
  const { alive, kill } = world;
  if (world.rand() < 0.5) {
    const look = { now: now(), reading: world.monotonic() };
    const settled = settleJob(store, job, { look, alive, kill });
    const answer = settled.answer ?? (settled.verdict === Verdict.Ended ? store.readResult(job.id) : undefined);
    return answer ? { kind: 'final', answer } : { kind: 'going' };
  }
  const started = now();
  const answer = await waitOnJob({
    store, now, monotonic: () => world.monotonic(), id: job.id, started, until: started, budgetMs: undefined,
    retryableOf: () => true, alive, kill, sleep: async () => world.interleave(),
  });
  return answer.meta.exit_code === ExitCode.INCOMPLETE ? { kind: 'going' } : { kind: 'final', answer };
}

/**
 * Plays one seed: a job with a fate, observers looking at random moments
 * (each through its own interleavings) until the job's processes have no
 * step left, then once more after the idle timeout has passed.
 */
export async function playRace(root: string, seed: number): Promise<RaceOutcome> {
  const world = new RaceWorld(seed);
  const fates = Object.values(Fate);
  const fate = fates[world.int(fates.length)]!;
  const store = new JobStore(root);
  const observed = new ObservedStore(root, world);
  const job = recordOf(`model-${seed.toString(16).padStart(8, '0')}`, world, 1_700_000_000_000 + world.mono);
  world.live.add(FRONT_PID);
  store.create(job, { state: JobState.Running, pid: FRONT_PID, startedAt: 0, updatedAt: 0, progressAt: 0,
    ...heartbeatOf(world.monotonic()) });
  world.steps.push(...planSteps(world, fate, store, job));
  const seen: Seen[] = [];
  while (world.steps.length > 0) {
    if (world.rand() < 0.5) world.steps.shift()!();
    else seen.push(await look(world, observed, job));
  }
  world.mono += 3 * IDLE_MS;
  seen.push(await look(world, observed, job));
  const { own, killed } = world;
  return { fate, seen, own, end: store.readEnd(job.id), status: store.readStatus(job.id), killed };
}
