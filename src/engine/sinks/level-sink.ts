import type { Level } from 'level';
import type { Sink, SinkMark } from './sink.js';

/** Writes gathered for one atomic LevelDB commit. */
export interface LevelBatch {
  put(key: string, value: Uint8Array): void;
  del(key: string): void;
  readonly length: number;
  /** Commits everything at once; synced to disk unless told not to. */
  write(sync: boolean): Promise<void>;
}

/** What the LevelDB sink needs of a database: a read, and batches that commit all or nothing. */
export interface LevelWrites {
  get(key: string): Promise<Uint8Array | undefined>;
  batch(): LevelBatch;
}

/** What levelSink needs: the database, the run's mark key, and how a state becomes writes. */
export interface LevelSinkSpec<S> {
  readonly db: LevelWrites;
  /** The run's own key, for its mark: named for its idempotency key. */
  readonly markKey: string;
  /** The writes the fold staged in its state since the last commit (undefined: none). */
  staged(state: S): LevelBatch | undefined;
  /** The mark as stored: what the state needs to resume, without the staged writes. */
  encode(mark: SinkMark<S>): Uint8Array;
  decode(bytes: Uint8Array): SinkMark<S>;
  /** fsync each commit (default): without it a kill still loses nothing, a power loss may lose the last ones. */
  readonly sync?: boolean;
}

/**
 * The built-in sink: a LevelDB database, where the staged writes and the
 * run's mark go in one batch. The mark is encoded when `commit` is called,
 * so the caller may change its state while that write is in flight.
 */
export function levelSink<S>(spec: LevelSinkSpec<S>): Sink<S> {
  return {
    async resume() {
      const bytes = await spec.db.get(spec.markKey);
      return bytes === undefined ? undefined : spec.decode(bytes);
    },
    // Async so that a failure to stage is a rejected commit, as every sink's is, not a throw.
    async commit(mark) {
      const batch = spec.staged(mark.state) ?? spec.db.batch();
      batch.put(spec.markKey, spec.encode(mark));
      return batch.write(spec.sync ?? true);
    },
  };
}

/** A classic-level database (`new Level(dir, { valueEncoding: 'view' })`, opened) as the sink's writes. */
export function levelWrites(db: Level<string, Uint8Array>): LevelWrites {
  return {
    get: (key) => db.get(key),
    batch() {
      const chained = db.batch();
      return {
        put: (key, value) => void chained.put(key, value),
        del: (key) => void chained.del(key),
        get length() {
          return chained.length;
        },
        write: (sync) => chained.write({ sync }),
      };
    },
  };
}
