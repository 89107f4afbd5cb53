import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { StintCode } from '../stint-codes.js';
import { StintError } from '../../contract/stint-error.js';
import { databaseLocked, isLevelLocked } from '../../runtime/storage/level-errors.js';
import { levelWrites, type LevelBatch, type LevelWrites } from '../../engine/sinks/level-sink.js';
import { nativeBatches, type NativeBatches } from './native-batch.js';

/** Ids are zero-padded to 16 digits so that key order is id order. */
const HIGH_WIDTH = 12;
const LOW_SPAN = 10_000;
const ROWS_PER_READ = 4096;
const SPAN_WIDTH = 16;
/** Just past every row key (';' follows ':'). */
const ROW_END = 'row;';
/** The keys an import rewrites with every commit: together they say whether the rows changed. */
const VERSIONED_PREFIXES = ['ckpt:', 'meta:', 'run:'] as const;

/**
 * A row key is made once per imported row, so it is made cheaply: the last
 * four digits come from a table, the rest is cached while ids count up
 * (one number-to-string per 10 000 rows instead of one per row).
 */
let lowDigits: string[] | undefined;
let cachedHigh = -1;
let cachedPrefix = '';
function rowKey(id: number): string {
  lowDigits ??= Array.from({ length: LOW_SPAN }, (_, k) => String(k).padStart(4, '0'));
  const high = Math.floor(id / LOW_SPAN);
  if (high !== cachedHigh) {
    cachedHigh = high;
    cachedPrefix = `row:${String(high).padStart(HIGH_WIDTH, '0')}`;
  }
  return cachedPrefix + lowDigits[id - high * LOW_SPAN]!;
}

/** A row id as the table stores it (meta:next_id, key: entries). */
export const encodeId = (id: number) => Buffer.from(String(id));

/** The layout of a stint table in LevelDB: one place that names every key. */
export const TableKey = {
  Columns: 'meta:columns',
  NextId: 'meta:next_id',
  RowPrefix: 'row:',
  row: rowKey,
  index: (value: string) => `key:${value}`,
  checkpoint: (idempotencyKey: string) => `ckpt:${idempotencyKey}`,
  run: (idempotencyKey: string) => `run:${idempotencyKey}`,
  /** The ledger of a run: one entry per committed chunk, in offset order. */
  spanPrefix: (idempotencyKey: string) => `span:${idempotencyKey}:`,
  span: (idempotencyKey: string, start: number) => `span:${idempotencyKey}:${String(start).padStart(SPAN_WIDTH, '0')}`,
} as const;

/** Writes gathered for one atomic commit (a chained LevelDB batch: no object per operation). */
export type TableBatch = LevelBatch;

/** The table as import and export use it: the writes of a LevelDB sink, and reads. */
export interface Table extends LevelWrites {
  getMany(keys: readonly string[]): Promise<(Uint8Array | undefined)[]>;
  /** Entries whose key starts with `prefix`, in key order, a batch at a time (one native call a batch, not a row). */
  entries(prefix: string): AsyncIterable<readonly [string, Uint8Array][]>;
  /** Rows in id order (after the row key `after` when given), a batch of entries at a time (one native call each). */
  rows(after?: string): AsyncIterable<readonly [string, Uint8Array][]>;
  /** A digest that changes with every import commit: each batch of rows is written with its ckpt: or run: record. */
  version(): Promise<string>;
  close(): Promise<void>;
}

/** The first key after every key that starts with `prefix`. */
const prefixEnd = (prefix: string) =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

/** A batch on a reused native one: written, it is cleared and lent out again. */
function reusedBatch(
  native: NativeBatches, open: () => boolean, track: (write: Promise<void>) => Promise<void>,
): TableBatch {
  const batch = native.take();
  let length = 0;
  let written = false;
  // Once written, the native batch is another's: a late put would land in its commit.
  const assertOpen = () => {
    if (written) throw new Error('this batch was written already');
  };
  return {
    put(key, value) {
      assertOpen();
      native.put(batch, key, value);
      length++;
    },
    del(key) {
      assertOpen();
      native.del(batch, key);
      length++;
    },
    get length() {
      return length;
    },
    write(sync) {
      assertOpen();
      written = true;
      if (!open()) return Promise.reject(new Error('the table is closed'));
      return track(native.write(batch, sync));
    },
  };
}

/** Opens (or creates) a table; a database another process holds is DATABASE_LOCKED, retryable. */
export async function openTable(dir: string, create: boolean): Promise<Table> {
  if (!create && !existsSync(dir)) {
    throw new StintError(StintCode.TableNotFound, `no table at ${dir}`, {
      context: { path: dir },
      fix_required: 'Import into it first: stint import <file.csv> --into <dir>',
    });
  }
  const { Level } = await import('level');
  const db = new Level<string, Uint8Array>(dir, { valueEncoding: 'view', createIfMissing: create });
  try {
    await db.open();
  } catch (error) {
    if (isLevelLocked(error)) throw databaseLocked('the table', dir);
    const message = `the database at ${dir} cannot be opened: ${(error as Error).message}`;
    throw new StintError(StintCode.TableUnreadable, message, { context: { path: dir } });
  }
  /** Entries in a key range, a batch at a time. */
  type Range = { gte?: string; gt?: string; lt: string };
  async function* batches(range: Range): AsyncGenerator<readonly [string, Uint8Array][]> {
    const iterator = db.iterator(range);
    let ahead = iterator.nextv(ROWS_PER_READ);
    try {
      for (;;) {
        const batch = await ahead;
        if (batch.length === 0) return;
        // The next batch is read on LevelDB's thread while the caller works on this one.
        ahead = iterator.nextv(ROWS_PER_READ);
        yield batch;
      }
    } finally {
      // A read ahead still under way lands (or fails) before the iterator closes; its rows are not wanted.
      await ahead.catch(() => undefined);
      await iterator.close();
    }
  }
  const native = nativeBatches(db);
  const writing = new Set<Promise<void>>();
  /** Tracks a write so that close waits for it: the native path is not one of abstract-level's resources. */
  const track = (write: Promise<void>) => {
    writing.add(write);
    void write.then(() => writing.delete(write), () => writing.delete(write));
    return write;
  };
  return {
    get: (key) => db.get(key),
    getMany: (keys) => db.getMany([...keys]),
    // Reused native batches are several times faster than the public chained one, which is the fallback.
    batch: () => (native ? reusedBatch(native, () => db.status === 'open', track) : levelWrites(db).batch()),
    entries: (prefix) => batches({ gte: prefix, lt: prefixEnd(prefix) }),
    rows: (after) =>
      batches(after === undefined ? { gte: TableKey.RowPrefix, lt: ROW_END } : { gt: after, lt: ROW_END }),
    async version() {
      const hash = createHash('sha256');
      for (const prefix of VERSIONED_PREFIXES) {
        for await (const [key, value] of db.iterator({ gte: prefix, lt: `${prefix.slice(0, -1)};` })) {
          hash.update(`${key.length}:${key}${value.length}:`).update(value);
        }
      }
      return hash.digest('hex');
    },
    async close() {
      await Promise.allSettled(writing);
      await db.close();
    },
  };
}
