// classic-level's native write batches, reused. Its public chained batch
// closes on write and frees its native buffer (a chunk's rows, 10+ MiB) only
// when V8 collects the small JavaScript handle, which a heap of a few MiB
// rarely does: an import kept hundreds of MiB of written batches alive, and
// allocating a fresh one per chunk fragmented the C heap. A cleared LevelDB
// WriteBatch keeps its capacity, so a few reused ones hold the memory flat.
import { createRequire } from 'node:module';

/** The binding's batch calls (classic-level 3, binding.cc: batch_init .. batch_write). */
interface BatchBinding {
  batch_init(db: unknown): object;
  batch_put(batch: object, key: string, value: Uint8Array): void;
  batch_del(batch: object, key: string): void;
  batch_clear(batch: object): void;
  batch_write(batch: object, options: { sync: boolean }): Promise<void>;
}

const BATCH_CALLS = ['batch_init', 'batch_put', 'batch_del', 'batch_clear', 'batch_write'] as const;

/** Native batches of one open database, lent out and taken back cleared. */
export interface NativeBatches {
  /** A cleared batch: a kept one, or a new one. */
  take(): object;
  put(batch: object, key: string, value: Uint8Array): void;
  del(batch: object, key: string): void;
  /** Writes the batch, then clears it and keeps it for the next take (whether or not the write succeeded). */
  write(batch: object, sync: boolean): Promise<void>;
}

/** The binding and the database's native handle, or undefined when classic-level is not laid out as expected. */
function reach(db: object): { binding: BatchBinding; context: unknown } | undefined {
  let binding: Partial<BatchBinding>;
  try {
    const level = createRequire(import.meta.url).resolve('level');
    binding = createRequire(level)('classic-level/binding.js') as Partial<BatchBinding>;
  } catch {
    return undefined;
  }
  const symbol = Object.getOwnPropertySymbols(db).find((s) => s.description === 'context');
  const context = symbol === undefined ? undefined : (db as Record<symbol, unknown>)[symbol];
  if (context === undefined || BATCH_CALLS.some((name) => typeof binding[name] !== 'function')) return undefined;
  return { binding: binding as BatchBinding, context };
}

/**
 * Reused native batches for `db`, or undefined (the caller then uses the
 * public chained batch). At most `keep` cleared batches are kept: an import
 * fills one while the previous one is written.
 */
export function nativeBatches(db: object, keep = 2): NativeBatches | undefined {
  const reached = reach(db);
  if (!reached) return undefined;
  const { binding, context } = reached;
  const free: object[] = [];
  return {
    take: () => free.pop() ?? binding.batch_init(context),
    put: (batch, key, value) => binding.batch_put(batch, key, value),
    del: (batch, key) => binding.batch_del(batch, key),
    async write(batch, sync) {
      try {
        await binding.batch_write(batch, { sync });
      } finally {
        binding.batch_clear(batch);
        if (free.length < keep) free.push(batch);
      }
    },
  };
}
