import type { WarningDetail } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { StintError } from '../../contract/stint-error.js';
import { WarningCode } from '../../contract/warning-code.js';
import type { Restored } from '../authoring/command-spec.js';
import type { Host } from '../authoring/host.js';
import type { Pace } from '../authoring/pace.js';
import {
  checkpointDirFor, discardCheckpoint, forgetKeptProgress, recordKeptProgress, recordScratchFile,
} from '../storage/checkpoint-folder.js';
import {
  CHECKPOINT_FORMAT, checkpointStoreExists, openCheckpointStore, type CheckpointStore,
} from '../storage/checkpoint-store.js';
import { ensurePrivateDir } from '../storage/state-dir.js';
import type { CallProgress } from './call-progress.js';
import { slowSaveOf, type SlowSave } from './slow-save.js';

/** How often a safe point writes its checkpoint when nothing forces it (a crash then loses at most this much work). */
export const CHECKPOINT_INTERVAL_MS = 1_000;
export const CHECKPOINT_INTERVAL_ENV = 'STINT_CHECKPOINT_INTERVAL_MS';
/**
 * At the default cadence, the most of the call's time its saves take: a save that took longer than this share of
 * the interval puts the next one off (a large state, such as a wide table's, is not packed every second while the
 * work waits on it). A crash then loses at most that longer gap. An interval set in the environment is kept exactly.
 */
export const CHECKPOINT_TIME_SHARE = 0.05;

/**
 * A work still going this long after its restore found no checkpoint (or a quarter of its call's budget, if
 * less) has its database opened beside it, so that a save a stop forces (a budget that ran out before the first
 * safe point) does not wait for LevelDB to load. A small file's call ends before.
 */
export const OPEN_AHEAD_MS = 500;

const allDone = (at: Progress) => at.total !== undefined && at.done >= at.total;

/** What a call's checkpoint needs of the call. */
export interface CallCheckpointParts {
  readonly host: Host;
  readonly invocationKey: string;
  /** The program's state folder; checkpoints live under it. */
  readonly stateRoot: string;
  readonly warnings: WarningDetail[];
  readonly stopRequested: () => boolean;
  readonly pace?: Pace;
  readonly progress: CallProgress;
}

/**
 * One call's checkpoint: ctx.restore, ctx.checkpoint and ctx.scratchFile, and its release at the call's end. Its
 * LevelDB is opened only when there is one to restore or a save to make: a call whose first safe point is its
 * last (a small file) never loads LevelDB, nor creates and removes a database.
 */
export class CallCheckpoint {
  private restored = false;
  private store: Promise<CheckpointStore> | undefined;
  private openAhead: ReturnType<typeof setTimeout> | undefined;
  private fingerprint: unknown;
  private lastSave = -Infinity;
  /** How long the last save took. */
  private lastCost = 0;
  private saves = 0;
  private readonly interval: number;
  private readonly adaptive: boolean;
  private readonly slow: SlowSave | undefined;

  constructor(private readonly parts: CallCheckpointParts) {
    const set = parts.host.env[CHECKPOINT_INTERVAL_ENV];
    this.interval = Number(set ?? CHECKPOINT_INTERVAL_MS);
    this.adaptive = set === undefined;
    this.slow = slowSaveOf(parts.host.env);
  }

  scratchFile(path: string): void {
    if (!this.restored) throw new StintError(ErrorCode.InternalError, 'scratchFile() before restore(): restore first');
    recordScratchFile(this.parts.stateRoot, this.parts.invocationKey, path);
  }

  async restore<S>(inputs: unknown, usable?: (state: S) => boolean): Promise<Restored<S> | undefined> {
    const { stateRoot, invocationKey, progress } = this.parts;
    this.fingerprint = inputs;
    this.restored = true;
    ensurePrivateDir(stateRoot, 'checkpoints');
    if (!checkpointStoreExists(checkpointDirFor(stateRoot, invocationKey))) return this.openLater();
    const loaded = await (await this.open()).load<S>();
    if (loaded.kind === 'none') return undefined;
    if (loaded.kind === 'unreadable') return this.discard(loaded.reason);
    // Loaded with the store already (a static import would load msgpackr in every call, --version too).
    const { sameFingerprint } = await import('../storage/checkpoint-codec.js');
    if (!sameFingerprint(loaded.record.fingerprint, inputs)) {
      return this.discard('the input changed since the checkpoint');
    }
    if (usable && !usable(loaded.record.state)) {
      return this.discard("the checkpoint's own files are missing or changed");
    }
    progress.keepWorkers(loaded.record.workers ?? []);
    const { done, total, unit, rows } = loaded.record.progress;
    progress.report(done, total, unit, rows);
    return { state: loaded.record.state, progress: loaded.record.progress };
  }

  /** Nothing to restore: the store opens at the first save, or beside the work once it has run a while. */
  private openLater(): undefined {
    const ahead = Math.min(OPEN_AHEAD_MS, (this.parts.pace?.budgetMs ?? Infinity) / 4);
    this.openAhead = setTimeout(() => void this.open().catch(() => undefined), ahead);
    this.openAhead.unref();
    return undefined;
  }

  /** The store, opened at the first need. */
  private open(): Promise<CheckpointStore> {
    const { host, stateRoot, invocationKey } = this.parts;
    const sleep = (ms: number) => host.sleep(ms);
    this.store ??= openCheckpointStore(ensurePrivateDir(stateRoot, 'checkpoints', invocationKey), sleep);
    return this.store;
  }

  private async discard(reason: string): Promise<undefined> {
    await (await this.open()).clear();
    forgetKeptProgress(this.parts.stateRoot, this.parts.invocationKey);
    this.parts.warnings.push({
      code: WarningCode.CheckpointDiscarded,
      message: `${reason}; started over`,
      context: { reason, invocation_key: this.parts.invocationKey },
    });
    return undefined;
  }

  async checkpoint<S>(state: S, at: Progress, force = false): Promise<boolean> {
    const { host, pace, stopRequested, progress } = this.parts;
    if (!this.restored) {
      const message = 'checkpoint() before restore(): a resumable command restores first';
      throw new StintError(ErrorCode.InternalError, message);
    }
    const offer = progress.offer(at);
    pace?.safePoint();
    const stop = stopRequested();
    // Only what is saved is published: a stop forced before the next save answers with it, and a
    // continuation resumes from it, so no caller or observer ever sees `done` go back.
    // The cadence runs on the monotonic clock: a wall clock stepped back must not hold saves (and progress) off.
    // All done, at the default cadence: the call most likely answers next and keeps no checkpoint, so only a stop
    // or the caller asks for a save (an interval set in the environment is kept exactly, this safe point too).
    const due = !(this.adaptive && allDone(offer)) && host.monotonic().ms - this.lastSave >= this.gap();
    if (force || stop || due) {
      const store = await this.open();
      const savedAt = host.now();
      const saving = host.monotonic().ms;
      const record = { version: CHECKPOINT_FORMAT, fingerprint: this.fingerprint, progress: offer, state, savedAt };
      if (this.slow && ++this.saves % this.slow.every === 0) await host.sleep(this.slow.ms);
      await store.save({ ...record, ...progress.workers() });
      this.noteKept(offer);
      this.lastSave = host.monotonic().ms;
      this.lastCost = this.lastSave - saving;
      // Published first: a stop answered on the commit's word answers with it.
      progress.saved(offer);
      pace?.committed(this.lastCost);
    }
    // Asked again: the save's own time may have been what made the next safe point too late.
    return stop || stopRequested();
  }

  /** The time from one save to the next. */
  private gap(): number {
    return this.adaptive ? Math.max(this.interval, this.lastCost / CHECKPOINT_TIME_SHARE) : this.interval;
  }

  private noteKept(offer: Progress): void {
    try {
      recordKeptProgress(this.parts.stateRoot, this.parts.invocationKey, offer);
    } catch {
      // The save is what counts; a note left behind only understates it (a full disk must not stop the work).
    }
  }

  /** Ends the call's hold on its checkpoint: removes it when the work ended, keeps it otherwise. */
  async finish(workEnded: boolean): Promise<void> {
    if (!this.restored) return;
    this.restored = false;
    clearTimeout(this.openAhead);
    const store = this.store;
    this.store = undefined;
    // One that failed to open failed the save that needed it; there is nothing to close.
    if (store) await store.then((opened) => opened.close(), () => undefined);
    // The work ended: nothing to continue, so nothing is kept.
    if (workEnded) discardCheckpoint(this.parts.stateRoot, this.parts.invocationKey);
  }
}
