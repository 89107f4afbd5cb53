import { closeSync, openSync } from 'node:fs';
import { ProgressUnit } from '../../contract/vocabulary/progress-unit.js';
import type { CommandContext } from '../../runtime/program/command-spec.js';
import type { SafePoint, Watermark } from '../../engine/chunked-run.js';
import type { CsvHeader } from '../csv-header.js';
import { encodeId, type SpanWriter } from './import-fold.js';
import { fileRangeDigest } from './import-ledger.js';
import type { ImportState } from './import-records.js';
import { importSink } from './import-sink.js';
import { TableKey, type Table, type TableBatch } from './table-store.js';

/** The table an import writes, with the codec of its records. */
export interface ImportStore {
  readonly table: Table;
  readonly pack: (value: unknown) => Uint8Array;
  readonly unpack: (bytes: Uint8Array) => unknown;
}

/** What the commits of one run need to know of it. */
export interface CommitRun {
  readonly ctx: CommandContext;
  readonly absolute: string;
  readonly header: CsvHeader;
  readonly fingerprint: unknown;
  readonly idem: string;
  readonly keyed: boolean;
  readonly sync: boolean;
}

/** How a run's safe points keep what it folded: committed into the table, or (a dry run) checkpointed. */
export interface Commits {
  readonly safePoint: SafePoint<ImportState>;
  /** Resolves once the last commit is durable; rejects with its failure (a full disk). */
  settled(): Promise<void>;
  /** Whether the run's header span and columns are in the table (a continued run's are). */
  started(): boolean;
}

/** The ledger's writer: a chunk's span, under the run's key, in the batch that commits its rows. */
export function spanWriter(idem: string, pack: (value: unknown) => Uint8Array): SpanWriter {
  return (batch, start, end, digest) => batch.put(TableKey.span(idem, start), pack({ end, digest }));
}

/** The header is the ledger's first span: a file with another header is other bytes. */
export function putHeaderSpan(run: CommitRun, span: SpanWriter, batch: TableBatch): void {
  span(batch, 0, run.header.dataStart, headerDigest(run.absolute, run.header.dataStart));
}

/**
 * Safe points that commit a chunk's rows and the checkpoint that records
 * them in one batch, so a kill between them is impossible. One commit is in
 * flight while the next chunk is folded; a stop (or an upsert, whose lookups
 * must see it) waits for it to be durable first.
 */
export function tableCommits(run: CommitRun, store: ImportStore, continued: boolean): Commits {
  const { table, pack, unpack } = store;
  const { ctx, idem, sync, header } = run;
  const { argumentsDigest } = ctx;
  const sink = importSink({ table, idem, argumentsDigest, fingerprint: run.fingerprint, header, sync, pack, unpack });
  const span = spanWriter(idem, pack);
  const input = JSON.stringify(run.fingerprint);
  let started = continued;
  let inflight: Promise<void> = Promise.resolve();
  async function safePoint(folded: ImportState, watermark: Watermark): Promise<boolean> {
    const batch = (folded.pending ??= table.batch());
    batch.put(TableKey.NextId, encodeId(folded.nextId));
    if (!started) {
      putHeaderSpan(run, span, batch);
      batch.put(TableKey.Columns, pack(header.names));
    }
    started = true;
    await inflight;
    const imported = folded.imported;
    const committing = sink.commit({ watermark, state: folded, input });
    folded.pending = undefined;
    inflight = committing.then(() => ctx.progress(imported, undefined, ProgressUnit.Rows));
    // Its failure (a full disk) is thrown where it is awaited; until then it must not count as unhandled.
    inflight.catch(() => undefined);
    if (run.keyed || ctx.stopRequested()) await inflight;
    return ctx.stopRequested();
  }
  return { safePoint, settled: () => inflight, started: () => started };
}

/** A dry run writes nothing: its safe points checkpoint the fold, so the identical call continues it. */
export function dryCheckpoints(ctx: CommandContext): Commits {
  return {
    safePoint(folded, watermark) {
      const { pending: _, ...rest } = folded;
      const done = folded.imported + folded.badCount;
      return ctx.checkpoint({ ...rest, watermark }, { done, unit: ProgressUnit.Rows });
    },
    settled: () => Promise.resolve(),
    started: () => false,
  };
}

/** The digest of the header's bytes, read once at the start of a run. */
function headerDigest(path: string, dataStart: number): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    return fileRangeDigest(fd, 0, dataStart);
  } finally {
    closeSync(fd);
  }
}
