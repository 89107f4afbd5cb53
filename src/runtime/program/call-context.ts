import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { WarningDetail } from '../../contract/envelope.js';
import type { Cause } from '../../contract/vocabulary/cause.js';
import { ErrorCode } from '../../contract/error-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { StintError } from '../../contract/stint-error.js';
import { WarningCode } from '../../contract/warning-code.js';
import { readJsonFile, writeFileAtomic } from '../storage/atomic-file.js';
import { CHECKPOINT_FORMAT, openCheckpointStore, type CheckpointStore } from '../storage/checkpoint-store.js';
import type { CommandContext, Restored, StreamOut } from './command-spec.js';
import type { Host } from '../host.js';
import { ensurePrivateDir } from '../storage/state-dir.js';
import { testModeOn } from './test-mode.js';
import type { Pace } from './pace.js';

/** How often a safe point writes its checkpoint when nothing forces it (at least every 10 s of work, per C-035). */
export const CHECKPOINT_INTERVAL_MS = 1_000;
export const CHECKPOINT_INTERVAL_ENV = 'STINT_CHECKPOINT_INTERVAL_MS';
export { TEST_MODE_ENV } from './test-mode.js';

export interface CallContextParts {
  readonly host: Host;
  readonly invocationKey: string;
  readonly argumentsDigest: string;
  /** The Redis URL the chunks go to (FrameworkOptions.queue). */
  readonly queue?: string;
  /** The program's state folder; checkpoints live under it. */
  readonly stateRoot: string;
  readonly stdinPath?: string;
  readonly warnings: WarningDetail[];
  /** True once a stop was requested (budget, signal, cancel). */
  readonly stopRequested: () => boolean;
  /** Resolves once the stop is urgent (CommandContext.stopUrgent). */
  readonly stopUrgent?: Promise<void>;
  /** Why, as an Outcome cause, once requested. */
  readonly stopCause: () => Cause | undefined;
  readonly onProgress?: (progress: Progress) => void;
  /** The budget's ear on the safe points (none without a budget). */
  readonly pace?: Pace;
  /** The caller's stdout, for a call whose data streams there. */
  readonly stdout?: (text: string) => Promise<void>;
  /** The item stream of a streaming command. */
  readonly stream?: StreamOut;
}

/** The context one call's handler gets, and what the runtime does with it after the handler returns. */
export interface CallContext {
  readonly ctx: CommandContext;
  lastProgress(): Progress | undefined;
  /**
   * The work completed: what its last safe point offered is final (nothing resumes from less), so it is
   * published even when that point saved nothing, and a job's end shows all of its work done.
   */
  completed(): void;
  /** Ends the call's hold on its checkpoint: removes it when the work ended, keeps it otherwise. */
  finish(workEnded: boolean): Promise<void>;
}

export function createCallContext(parts: CallContextParts): CallContext {
  const { host, invocationKey, warnings } = parts;
  const testMode = testModeOn(host.env);
  const interval = Number(host.env[CHECKPOINT_INTERVAL_ENV] ?? CHECKPOINT_INTERVAL_MS);
  let progress: Progress | undefined;
  let store: CheckpointStore | undefined;
  let fingerprint: unknown;
  let lastSave = -Infinity;
  // The queue workers that took part, across a resume (kept with the checkpoint); their count is progress.workers.
  const workerIds = new Set<string>();

  // What a safe point offered last: test mode checks that it never decreases, even between the saves.
  let offered = 0;
  // What a safe point offered but did not save (so did not publish): the completed work's last figure.
  let unsaved: Progress | undefined;
  const next = (done: number, total?: number, unit?: string, rows?: number): Progress => {
    if (testMode && done < Math.max(offered, progress?.done ?? 0)) {
      const before = Math.max(offered, progress?.done ?? 0);
      throw new StintError(ErrorCode.ProgressDecreased, `progress went from ${before} down to ${done}`);
    }
    offered = Math.max(offered, done);
    return {
      done: Math.max(done, progress?.done ?? 0),
      ...(total !== undefined ? { total } : {}),
      ...(unit !== undefined ? { unit } : {}),
      ...(rows !== undefined ? { rows } : {}),
      ...(workerIds.size > 0 ? { workers: workerIds.size } : {}),
    };
  };
  const publish = (kept: Progress) => {
    progress = kept;
    parts.onProgress?.(progress);
  };
  const report = (done: number, total?: number, unit?: string, rows?: number) =>
    publish(next(done, total, unit, rows));

  const ctx: CommandContext = {
    cwd: host.cwd,
    interactive: host.stdinIsTTY,
    stdoutWidth: host.stdoutColumns?.(),
    env: host.env,
    programWords: () => host.programWords(),
    invocationKey,
    ...(parts.queue ? { queue: parts.queue } : {}),
    argumentsDigest: parts.argumentsDigest,
    stdinPath: parts.stdinPath,
    stdout: parts.stdout,
    progress: report,
    queueWorkers(seen) {
      const before = workerIds.size;
      for (const id of seen) workerIds.add(id);
      if (workerIds.size === before) return;
      // Seen at the next report; a run that reported nothing yet shows it with its first.
      if (progress) report(progress.done, progress.total, progress.unit, progress.rows);
    },
    warn: (warning) => void warnings.push(warning),
    log: (message) => host.writeStderr(`${message}\n`),
    stopRequested: parts.stopRequested,
    ...(parts.stopUrgent ? { stopUrgent: parts.stopUrgent } : {}),
    ...(parts.pace ? { pace: parts.pace } : {}),
    stopCause: parts.stopCause,
    now: () => host.now(),
    sleep: (ms) => host.sleep(ms),
    stream: parts.stream,
    onSignal(handler) {
      const offs = (['SIGINT', 'SIGTERM'] as const).map((signal) => host.onSignal(signal, () => handler(signal)));
      return () => offs.forEach((off) => off());
    },
    scratchFile(path) {
      if (!store) throw new StintError(ErrorCode.InternalError, 'scratchFile() before restore(): restore first');
      const list = scratchListFor(parts.stateRoot, invocationKey);
      const known = readJsonFile<string[]>(list) ?? [];
      if (!known.includes(path)) writeFileAtomic(list, JSON.stringify([...known, path]));
    },
    async restore<S>(inputs: unknown, usable?: (state: S) => boolean): Promise<Restored<S> | undefined> {
      fingerprint = inputs;
      const sleep = (ms: number) => host.sleep(ms);
      store ??= await openCheckpointStore(ensurePrivateDir(parts.stateRoot, 'checkpoints', invocationKey), sleep);
      const loaded = await store.load<S>();
      const discard = async (reason: string) => {
        await store!.clear();
        warnings.push({
          code: WarningCode.CheckpointDiscarded,
          message: `${reason}; started over`,
          context: { reason, invocation_key: invocationKey },
        });
        return undefined;
      };
      if (loaded.kind === 'none') return undefined;
      if (loaded.kind === 'unreadable') return discard(loaded.reason);
      if (JSON.stringify(loaded.record.fingerprint) !== JSON.stringify(inputs)) {
        return discard('the input changed since the checkpoint');
      }
      if (usable && !usable(loaded.record.state)) return discard("the checkpoint's own files are missing or changed");
      for (const id of loaded.record.workers ?? []) workerIds.add(id);
      const { done, total, unit, rows } = loaded.record.progress;
      report(done, total, unit, rows);
      return { state: loaded.record.state, progress: loaded.record.progress };
    },
    async checkpoint<S>(state: S, at: Progress, force = false): Promise<boolean> {
      if (!store) {
        const message = 'checkpoint() before restore(): a resumable command restores first';
        throw new StintError(ErrorCode.InternalError, message);
      }
      const offer = next(at.done, at.total, at.unit, at.rows);
      unsaved = offer;
      parts.pace?.safePoint();
      const stop = parts.stopRequested();
      // Only what is saved is published: a stop forced before the next save answers with it, and a
      // continuation resumes from it, so no caller or observer ever sees `done` go back.
      // The cadence runs on the monotonic clock: a wall clock stepped back must not hold saves (and progress) off.
      if (force || stop || host.monotonic().ms - lastSave >= interval) {
        const seen = workerIds.size > 0 ? { workers: [...workerIds] } : {};
        const savedAt = host.now();
        const saving = host.monotonic().ms;
        await store.save({ version: CHECKPOINT_FORMAT, fingerprint, progress: offer, state, savedAt, ...seen });
        lastSave = host.monotonic().ms;
        unsaved = undefined;
        // Published first: a stop answered on the commit's word answers with it.
        publish(offer);
        parts.pace?.committed(lastSave - saving);
      }
      // Asked again: the save's own time may have been what made the next safe point too late.
      return stop || parts.stopRequested();
    },
  };

  return {
    ctx,
    lastProgress: () => progress,
    completed() {
      if (unsaved) publish(unsaved);
      unsaved = undefined;
    },
    async finish(workEnded) {
      if (!store) return;
      await store.close();
      store = undefined;
      // The work ended: nothing to continue, so nothing is kept.
      if (workEnded) discardCheckpoint(parts.stateRoot, invocationKey);
    },
  };
}

export const checkpointDirFor = (stateRoot: string, key: string): string => join(stateRoot, 'checkpoints', key);
/** Beside the checkpoint, not in it: the checkpoint is a LevelDB folder, and a cancel must not need to open it. */
const scratchListFor = (stateRoot: string, key: string): string =>
  join(stateRoot, 'checkpoints', `${key}.scratch.json`);

/** What a discard would remove: whether a checkpoint is there, and the scratch files it names. */
export function checkpointHeld(stateRoot: string, key: string): { checkpoint: boolean; scratchFiles: string[] } {
  const scratchFiles = readJsonFile<string[]>(scratchListFor(stateRoot, key)) ?? [];
  return { checkpoint: existsSync(checkpointDirFor(stateRoot, key)), scratchFiles };
}

/** Removes a checkpoint and the scratch files it named (ctx.scratchFile). */
export function discardCheckpoint(stateRoot: string, key: string): void {
  const list = scratchListFor(stateRoot, key);
  for (const path of readJsonFile<string[]>(list) ?? []) rmSync(path, { force: true });
  rmSync(list, { force: true });
  rmSync(checkpointDirFor(stateRoot, key), { recursive: true, force: true });
}
