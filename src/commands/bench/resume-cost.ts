// Resume cost of any interruptible command that speaks stint's contract: the
// time from a continuation's start to its first new progress, at three offsets,
// against the time a fresh start takes to its first progress.
import { cpSync, rmSync } from 'node:fs';
import { SignalExitCode } from '../../contract/exit-code.js';
import { StintError } from '../../contract/stint-error.js';
import { StintCode } from '../stint-codes.js';
import { figureOf, FigureUnit, ratioOf, type Figure, type Ratio } from './figure.js';
import { runShell, watchRun, type StopPolicy, type Target, type Watched } from './watched-run.js';

/** Where continuations are measured: 10, 50 and 90 % of the work. */
export const RESUME_OFFSETS = [0.1, 0.5, 0.9] as const;

/** One offset's continuations: where each started (a fraction of the total, near `target`) and its figure. */
export interface OffsetCost {
  readonly target: number;
  readonly reached: readonly number[];
  readonly figure: string;
}

export interface ResumeCost {
  readonly command: readonly string[];
  readonly figures: readonly Figure[];
  readonly ratios: readonly Ratio[];
  readonly offsets: readonly OffsetCost[];
  /** Every continuation at 90 % took longer than every one at 10 %, and the medians differ by more than 20 %. */
  readonly grows_with_offset: boolean;
}

/** Runs needed for `samples` samples: fresh ones, then per offset one run to reach it and the samples. */
export const resumeSteps = (samples: number): number => samples + RESUME_OFFSETS.length * (1 + samples);

const SIGINT = SignalExitCode.SIGINT;
/** A stop is asked for at most this much (of the work) before its offset, unless one overshot (SEEK_TRIES). */
const MAX_LEAD = 0.2;

function failedRun(target: Target, run: Watched): StintError {
  const error = (run.envelope?.['error'] ?? {}) as { code?: string; message?: string };
  const said = error.message ?? (run.stderrTail.trim().split('\n').pop() || 'no answer');
  return new StintError(StintCode.BenchTargetFailed, `${target.argv.join(' ')} exited ${run.exitCode}: ${said}`, {
    context: { exit_code: run.exitCode, error_code: error.code ?? null },
  });
}

function notResumable(target: Target, why: string): StintError {
  return new StintError(StintCode.BenchNotResumable, `${target.argv.join(' ')}: ${why}`);
}

const stringField = (run: Watched, name: string): string | undefined => {
  const value = (run.envelope?.['data'] as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

/** A run that must end stopped by our SIGINT, paused with its checkpoint (exit 130 and a continue_command). */
function requirePaused(target: Target, run: Watched, what: string): Watched {
  if (run.exitCode === SIGINT && stringField(run, 'continue_command')) return run;
  if (run.exitCode === 0 && run.total === undefined) {
    throw notResumable(target, 'it reported no progress with a total on --heartbeat-ms');
  }
  if (run.exitCode === 0) throw notResumable(target, `it finished before ${what}: give it more work`);
  if (run.exitCode === SIGINT) {
    const said = (run.envelope?.['error'] as { message?: string } | undefined)?.message ?? 'no answer';
    throw notResumable(target, `SIGINT stopped it without a continue_command (${said})`);
  }
  throw failedRun(target, run);
}

/** A run's time to its first new progress, which it must have shown. */
function firstMsOf(target: Target, run: Watched): number {
  if (run.firstMs === undefined) throw notResumable(target, 'it showed no progress on --heartbeat-ms before it ended');
  return run.firstMs;
}

/** Fresh starts: each stopped at its first progress and cancelled, so the next one starts fresh too. */
async function freshStarts(target: Target, samples: number, step: () => void): Promise<number[]> {
  const times: number[] = [];
  for (let k = 0; k < samples; k++) {
    const run = await watchRun(target, { kind: 'first' }, true);
    if (!reachedEnd(run)) await cancel(target, requirePaused(target, run, 'its first progress'));
    times.push(firstMsOf(target, run));
    step();
  }
  return times;
}

async function cancel(target: Target, paused: Watched): Promise<void> {
  const command = stringField(paused, 'cancel_command');
  if (command) await runShell(command, target);
}

/**
 * Continuations from one offset: each stopped at its first new progress. With a snapshot of the state folder, each
 * starts from the same checkpoint; without, each starts where the one before stopped, and one that reaches the end
 * still counts (its first new progress was seen) but ends the offset's samples.
 */
async function continuations(target: Target, samples: number, step: () => void, snapshot?: Snapshot) {
  const times: number[] = [];
  const reached: number[] = [];
  let paused: Watched | undefined;
  let finished = false;
  for (let k = 0; k < samples && !(finished && !snapshot); k++) {
    snapshot?.restore();
    const run = await watchRun(target, { kind: 'first' }, false);
    step();
    finished = reachedEnd(run);
    // A last piece of work can end between two heartbeat lines: then no sample (with a snapshot, the next tries).
    if (finished && run.firstMs === undefined) continue;
    if (!finished) paused = requirePaused(target, run, 'a continuation showed new progress');
    times.push(firstMsOf(target, run));
    reached.push((run.start ?? 0) / (run.total || 1));
  }
  return { times, reached, paused, finished: finished && !snapshot };
}

/**
 * The run did the rest of the work: it exited 0, or our SIGINT came after its work ended and before it answered
 * (a 130 without a continue_command, once new progress was seen).
 */
function reachedEnd(run: Watched): boolean {
  const late = run.exitCode === SIGINT && run.firstMs !== undefined && !stringField(run, 'continue_command');
  return run.exitCode === 0 || late;
}

/** A copy of the command's state folder, put back before each continuation so that all start from one checkpoint. */
interface Snapshot {
  restore(): void;
  remove(): void;
}

function snapshotOf(stateDir: string, name: string): Snapshot {
  const copy = `${stateDir}.bench-${name}`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(stateDir, copy, { recursive: true });
  return {
    restore() {
      rmSync(stateDir, { recursive: true, force: true });
      cpSync(copy, stateDir, { recursive: true });
    },
    remove: () => rmSync(copy, { recursive: true, force: true }),
  };
}

/** Where the command keeps its jobs and checkpoints, when the caller knows it: samples then start alike. */
export interface ResumeOptions {
  readonly samples: number;
  readonly stateDir?: string;
  readonly step: () => void;
}

/**
 * One offset: the work stopped by SIGINT once past it, then continued `samples` times from there. A stop lands at
 * a safe point some way past the heartbeat that asked for it (farther on a busy machine), so it is asked for
 * `lead` early: the overshoot of the offset before, which leaves a continuation at 90 % some work to show.
 */
interface Start {
  /** No job to continue yet: the first stop starts the work. */
  readonly fresh: boolean;
  readonly lead: number;
}

/**
 * Seeks tried at one offset when a stop overshot: to the end, or so near it that no continuation showed work.
 * Each asks earlier than the one before, by at least MAX_LEAD and then a tenth of the work more each time, so the
 * stop that first leaves work to show still lands near its offset (doubling the lead overshot the other way: a
 * "90 %" measured at 67 % on a busy machine).
 */
const SEEK_TRIES = 6;
const LEAD_STEP = 0.1;

/** A seek whose stop overshot to the end, when the caller can take it back: nothing was measured. */
const OVERSHOT = undefined;

async function seekAndContinue(target: Target, fraction: number, options: ResumeOptions, at: Start & Retry) {
  const percent = Math.round(fraction * 100);
  const aim = Math.max(0, fraction - at.lead);
  const stop: StopPolicy = { kind: 'past', fraction: aim };
  const run = await watchRun(target, stop, at.fresh);
  options.step();
  if (at.canRetry && reachedEnd(run)) return OVERSHOT;
  const seek = requirePaused(target, run, `${percent} %`);
  const snapshot = options.stateDir ? snapshotOf(options.stateDir, String(percent)) : undefined;
  try {
    const continued = await continuations(target, options.samples, options.step, snapshot);
    // The next offset goes on from this one's checkpoint, however its samples ended.
    snapshot?.restore();
    return { aim, seek, continued };
  } finally {
    snapshot?.remove();
  }
}

/** Whether a seek that overshot may be taken back (the state folder as it was before it is kept). */
interface Retry {
  readonly canRetry: boolean;
}

/** A step that counts at most `cap` times: however many seeks an offset takes, it counts as one and its samples. */
function cappedStep(step: () => void, cap: number): () => void {
  let counted = 0;
  return () => {
    if (counted++ < cap) step();
  };
}

/**
 * With the state folder known, a stop that overshot (a busy machine) is taken back: to the end in the seek itself,
 * or so near it that no continuation had work left to show. The folder as it was before the seek is put back and
 * the stop asked for earlier.
 */
async function seekWithRetries(target: Target, fraction: number, options: ResumeOptions, at: Start) {
  const before = options.stateDir && !at.fresh ? snapshotOf(options.stateDir, 'seek') : undefined;
  const counted = { ...options, step: cappedStep(options.step, 1 + options.samples) };
  try {
    let lead = at.lead;
    for (let tried = 1; ; tried++) {
      const canRetry = before !== undefined && tried < SEEK_TRIES;
      const measured = await seekAndContinue(target, fraction, counted, { ...at, lead, canRetry });
      if (measured && (measured.continued.times.length > 0 || !canRetry)) return measured;
      before!.restore();
      lead = Math.min(fraction, Math.max(MAX_LEAD, lead + LEAD_STEP));
    }
  } finally {
    before?.remove();
  }
}

async function atOffset(target: Target, fraction: number, options: ResumeOptions, at: Start) {
  const percent = Math.round(fraction * 100);
  const { aim, seek, continued } = await seekWithRetries(target, fraction, options, at);
  if (continued.times.length === 0) {
    const why = `each continuation at ${percent} % ended before it showed progress: give it more work`;
    throw notResumable(target, why);
  }
  if (continued.finished && fraction !== RESUME_OFFSETS.at(-1)) {
    throw notResumable(target, `it finished while measured at ${percent} %: give it more work`);
  }
  const figure = figureOf(`resume.at_${percent}`, `continuation at ${percent} % to first new progress`,
    FigureUnit.Milliseconds, continued.times);
  const overshoot = continued.reached[0]! - aim;
  return { figure, reached: continued.reached, overshoot, paused: options.stateDir ? seek : continued.paused ?? seek };
}

/**
 * Measures `target` (argv without --budget/--heartbeat-ms, which are added): fresh starts, then at each offset
 * the work stopped by SIGINT once past it and continued from there. A budget would not do: when it ends, a
 * detaching command's work goes on in a background job, and nothing would be left to resume.
 */
export async function measureResume(target: Target, options: ResumeOptions): Promise<ResumeCost> {
  const fresh = figureOf('resume.fresh', 'fresh start to first progress', FigureUnit.Milliseconds,
    await freshStarts(target, options.samples, options.step));
  const figures: Figure[] = [fresh];
  const ratios: Ratio[] = [];
  const offsets: OffsetCost[] = [];
  let paused: Watched | undefined;
  let lead = 0;
  try {
    for (const fraction of RESUME_OFFSETS) {
      const measured = await atOffset(target, fraction, options, { fresh: paused === undefined, lead });
      paused = measured.paused;
      lead = Math.min(MAX_LEAD, Math.max(0, measured.overshoot));
      const { figure } = measured;
      const percent = Math.round(fraction * 100);
      figures.push(figure);
      ratios.push(ratioOf(`resume.at_${percent}_vs_fresh`, `resume at ${percent} % / fresh start`, figure, fresh));
      offsets.push({ target: fraction, reached: measured.reached, figure: figure.id });
    }
  } finally {
    if (paused) await cancel(target, paused);
  }
  const [at10, , at90] = figures.slice(1);
  ratios.push(ratioOf('resume.at_90_vs_at_10', 'resume at 90 % / at 10 %', at90!, at10!));
  const grows = at90!.min > at10!.max && at90!.value / at10!.value > 1.2;
  return { command: target.argv, figures, ratios, offsets, grows_with_offset: grows };
}
