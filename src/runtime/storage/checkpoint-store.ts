import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as realSleep } from 'node:timers/promises';
import type { Progress } from '../../contract/incomplete.js';
import { databaseLocked, isLevelLocked } from './level-errors.js';

/** What a checkpoint holds: enough to continue, checked against the input before use. */
export interface CheckpointRecord<S = unknown> {
  readonly version: number;
  readonly fingerprint: unknown;
  readonly progress: Progress;
  readonly state: S;
  readonly savedAt: number;
  /** The queue workers (ids) that took part so far (CommandContext.queueWorkers), when the run used a queue. */
  readonly workers?: readonly string[];
}

/**
 * Raised whenever a saved state's shape changes (2: analyze's exact sums; 3: its added statistics; 4: the state
 * kept exactly, checkpoint-codec.ts), so that a checkpoint an older build wrote is discarded with
 * CHECKPOINT_DISCARDED instead of misread: the work starts over.
 */
export const CHECKPOINT_FORMAT = 4;
const LOCK_WAIT_MS = 5_000;
const LOCK_POLL_MS = 50;
const KEY = 'checkpoint';

/** A checkpoint read from disk, or the reason it could not be used. */
export type Loaded<S> =
  | { readonly kind: 'none' }
  | { readonly kind: 'found'; readonly record: CheckpointRecord<S> }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** The narrow face of the store that the runtime's context uses. */
export interface CheckpointStore {
  load<S>(): Promise<Loaded<S>>;
  save<S>(record: CheckpointRecord<S>): Promise<void>;
  clear(): Promise<void>;
  close(): Promise<void>;
}

/** Whether `dir` holds a checkpoint database: LevelDB's CURRENT file names its manifest, and a new one has it. */
export function checkpointStoreExists(dir: string): boolean {
  return existsSync(join(dir, 'CURRENT'));
}

/**
 * A checkpoint in its own LevelDB (checkpoint-codec.ts: packed with msgpackr, the state exactly). A
 * classic-level database is locked by one process: only the process doing
 * the work opens it. A database that cannot be opened for any reason but a
 * lock is destroyed and reported unreadable, so the work starts over.
 * `sleep` paces the wait for a lock (a call passes its host's clock).
 */
export async function openCheckpointStore(
  dir: string,
  sleep: (ms: number) => Promise<unknown> = realSleep,
): Promise<CheckpointStore> {
  const [{ Level }, { decodeCheckpoint, encodeCheckpoint }] = await Promise.all([
    import('level'), import('./checkpoint-codec.js'),
  ]);
  const open = async () => {
    const db = new Level<string, Uint8Array>(dir, { valueEncoding: 'view' });
    await db.open();
    return db;
  };
  let unreadable: string | undefined;
  let db;
  try {
    // A front process hands off while its last moments still hold the lock: wait a little for it.
    for (let waited = 0; ; waited += LOCK_POLL_MS) {
      try {
        db = await open();
        break;
      } catch (error) {
        if (!isLevelLocked(error) || waited >= LOCK_WAIT_MS) throw error;
        await sleep(LOCK_POLL_MS);
      }
    }
  } catch (error) {
    if (isLevelLocked(error)) throw databaseLocked('the checkpoint', dir);
    unreadable = `the checkpoint database could not be opened (${(error as Error).message})`;
    rmSync(dir, { recursive: true, force: true });
    db = await open();
  }
  const store = db;
  return {
    async load<S>(): Promise<Loaded<S>> {
      if (unreadable) return { kind: 'unreadable', reason: unreadable };
      const bytes = await store.get(KEY);
      if (bytes === undefined) return { kind: 'none' };
      try {
        const record = decodeCheckpoint<CheckpointRecord<S>>(bytes, CHECKPOINT_FORMAT);
        if (record?.version !== CHECKPOINT_FORMAT) {
          const reason = `checkpoint format ${String(record?.version)} is not ${CHECKPOINT_FORMAT}`;
          return { kind: 'unreadable', reason };
        }
        return { kind: 'found', record };
      } catch (error) {
        return { kind: 'unreadable', reason: `the checkpoint could not be decoded (${(error as Error).message})` };
      }
    },
    save: (record) => store.put(KEY, encodeCheckpoint(record)),
    clear: () => store.del(KEY),
    close: () => store.close(),
  };
}
