import { ErrorCode } from '../../contract/error-code.js';
import { StintCode } from '../stint-codes.js';
import { ExitCode } from '../../contract/exit-code.js';
import { outcomeOf, type Established, type Unresolved } from '../../contract/outcome.js';
import { StintError } from '../../contract/stint-error.js';
import { Cause } from '../../contract/vocabulary/cause.js';
import { DangerLevel } from '../../contract/vocabulary/danger-level.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import { ProgressUnit } from '../../contract/vocabulary/progress-unit.js';
import { SideEffects } from '../../contract/vocabulary/side-effects.js';
import { defineCommand } from '../../runtime/program/define-command.js';
import type { CommandResult } from '../../runtime/program/command-spec.js';
import { openChunkPool, writerWorkerCount } from '../../engine/chunk-pool.js';
import { DEFAULT_MAX_RECORD_BYTES, runChunked, type Fold, type Watermark } from '../../engine/chunked-run.js';
import { readCsvHeader, type CsvHeader } from '../csv-header.js';
import { Framing } from '../../engine/framing.js';
import { workerFailedError } from '../../engine/worker-failed.js';
import { fingerprintOf, inspectInput } from '../../engine/input-file.js';
import { BAD_ROW_MESSAGE, type BadRow } from './bad-row.js';
import { chunkSizeFlag, IMPORT_CHUNK_SIZE, WORKERS_FLAG } from '../engine-flags.js';
import type { ImportChunk, ImportMapOptions } from './import-map.js';
import { closeSync, openSync } from 'node:fs';
import { fileRangeDigest } from './import-ledger.js';
import { RECORD_FORMAT, type ImportState, type RunRecord, type SavedState } from './import-records.js';
import { findPrior, forgetRun, type PriorRun } from './prior-run.js';
import { importSink } from './import-sink.js';
import { openTable, TableKey, type Table, type TableBatch } from './table-store.js';
import { releaseSlot } from './row-slots.js';

const MAP_MODULE = new URL('./import-map.js', import.meta.url).href;
const BAD_SAMPLE_LIMIT = 100;
/** Chunk failures that say nothing about the rows: the run fails with them and the same call resumes. */
const RESUMABLE_FAILURES: ReadonlySet<string> = new Set([
  ErrorCode.InputTruncated, ErrorCode.InputReplaced, ErrorCode.FileUnreadable,
]);
const RANGE_LIMIT = 1000;

/** What to do with a malformed row. */
export const OnBadRow = { Skip: 'skip', Fail: 'fail' } as const;
export type OnBadRow = (typeof OnBadRow)[keyof typeof OnBadRow];

/** Whether a call wrote rows, replayed a finished run, or (dry run) wrote nothing. */
export const Effect = { Written: 'written', Noop: 'noop', None: 'none' } as const;
export type Effect = (typeof Effect)[keyof typeof Effect];

const encodeId = (id: number) => Buffer.from(String(id));

/** Records a chunk's span in the ledger, in the batch that commits its rows. */
type SpanWriter = (batch: TableBatch, start: number, end: number, digest: Uint8Array) => void;

function noteBad(state: ImportState, line: number, reason: BadRow): void {
  state.badCount++;
  state.rangeOpen = false;
  if (state.badSample.length < BAD_SAMPLE_LIMIT) state.badSample.push({ line, reason });
}

/** Imported rows `firstLine`..`lastLine` (ids `firstId`..`lastId`) extend the open range or start one. */
function noteRun(state: ImportState, firstLine: number, lastLine: number, rows: number, firstId: number, lastId: number): void {
  state.imported += rows;
  const last = state.ranges.at(-1);
  if (last && (state.rangeOpen || state.ranges.length >= RANGE_LIMIT)) {
    last.lastLine = lastLine;
    last.rows += rows;
    last.lastId = lastId;
  } else {
    state.ranges.push({ firstLine, lastLine, rows, firstId, lastId });
  }
  state.rangeOpen = true;
}

/**
 * The main-side fold: give each good row its id in file order (or the id
 * its key already has) and stage the puts; the safe point commits them with
 * the checkpoint in one batch.
 */
function importFold(
  table: Table | undefined, keyed: boolean, onBadRow: OnBadRow, span: SpanWriter,
): Fold<ImportChunk, ImportState> {
  return async function* (chunks, state) {
    for await (const chunk of chunks) {
      const { partial } = chunk;
      const batch = table?.batch();
      if (batch) span(batch, chunk.start, chunk.end, partial.digest);
      const stopAt = onBadRow === OnBadRow.Fail && partial.bad.length > 0 ? partial.bad[0]!.before : partial.rows;
      const existing = new Map<string, number>();
      if (keyed && table && partial.keys) {
        const unique = [...new Set(partial.keys.slice(0, stopAt))];
        const found = await table.getMany(unique.map(TableKey.index));
        unique.forEach((key, k) => found[k] && existing.set(key, Number(Buffer.from(found[k]!).toString())));
      }
      // A view per row over the chunk's one buffer: the constructor is about twice as fast as subarray.
      const { buffer, byteOffset } = partial.packed;
      const rowBytes = (r: number) => {
        const start = r === 0 ? 0 : partial.ends[r - 1]!;
        return new Uint8Array(buffer, byteOffset + start, partial.ends[r]! - start);
      };
      let badIndex = 0;
      let r = 0;
      while (r < stopAt) {
        while (badIndex < partial.bad.length && partial.bad[badIndex]!.before <= r) {
          const bad = partial.bad[badIndex++]!;
          noteBad(state, chunk.line + bad.line, bad.reason);
        }
        // The good rows up to the next bad one: a run of lines, and (appending) of consecutive ids.
        const end = Math.min(stopAt, badIndex < partial.bad.length ? partial.bad[badIndex]!.before : stopAt);
        const firstId = state.nextId;
        if (keyed) {
          for (let q = r; q < end; q++) {
            const key = partial.keys![q]!;
            const known = existing.get(key);
            const id = known ?? state.nextId++;
            if (known === undefined) {
              existing.set(key, id);
              batch?.put(TableKey.index(key), encodeId(id));
            }
            batch?.put(TableKey.row(id), rowBytes(q));
            noteRun(state, chunk.line + partial.lines[q]!, chunk.line + partial.lines[q]!, 1, id, id);
          }
        } else {
          if (batch) for (let q = r; q < end; q++) batch.put(TableKey.row(firstId + q - r), rowBytes(q));
          state.nextId = firstId + end - r;
          noteRun(state, chunk.line + partial.lines[r]!, chunk.line + partial.lines[end - 1]!, end - r, firstId, state.nextId - 1);
        }
        r = end;
      }
      // The batch holds copies of the rows: the worker may pack another chunk into their slot.
      releaseSlot(partial.slot);
      if (onBadRow === OnBadRow.Fail && partial.bad.length > 0) {
        const bad = partial.bad[0]!;
        noteBad(state, chunk.line + bad.line, bad.reason);
        state.failed = { line: chunk.line + bad.line, reason: bad.reason };
        state.pending = batch;
        yield state;
        return state;
      }
      for (; badIndex < partial.bad.length; badIndex++) noteBad(state, chunk.line + partial.bad[badIndex]!.line, partial.bad[badIndex]!.reason);
      state.pending = batch;
      yield state;
    }
    return state;
  };
}

function outcomeData(path: string, state: SavedState, keyed: boolean, extraGap?: Unresolved) {
  const established: Established<{ rows: number; first_id?: number; last_id?: number }>[] = state.ranges.map((r) => ({
    q: `lines ${r.firstLine}-${r.lastLine}`,
    a: { rows: r.rows, ...(keyed ? {} : { first_id: r.firstId, last_id: r.lastId }) },
    cite: { path, lines: [r.firstLine, r.lastLine] },
  }));
  const unresolved: Unresolved[] = state.badSample.map((b) => ({ q: `line ${b.line}`, reason: BAD_ROW_MESSAGE[b.reason], code: b.reason, context: { line: b.line } }));
  if (extraGap) unresolved.push(extraGap);
  const gaps = state.badCount + (extraGap ? 1 : 0);
  const outcome = outcomeOf(established, unresolved, gaps > 0 ? Cause.BadInput : undefined);
  return { ...outcome, unresolved_total: gaps, rows_imported: state.imported };
}

export const importCommand = defineCommand({
  name: 'import',
  description: 'Import a CSV file into a LevelDB table exactly once: resumable, idempotent, with every bad row named',
  dangerLevel: DangerLevel.Mutating,
  positionals: [{ name: 'file', type: 'string', description: 'The CSV file (a header row, then records)' }],
  flags: {
    into: { type: 'string', required: true, description: 'The table: a LevelDB folder, created when absent' },
    key: { type: 'string', description: 'Upsert by this column instead of appending (rows keep the id their key first got)' },
    'dry-run': { type: 'boolean', description: 'Read and check the whole file and report what would be written; write nothing' },
    'on-bad-row': { type: 'enum', enumValues: Object.values(OnBadRow), default: OnBadRow.Skip, description: 'skip: report malformed rows and import the rest; fail: stop at the first one' },
    'no-sync': { type: 'boolean', identity: false, description: 'Commit without fsync: faster; a kill still loses nothing, a power loss may lose the last commits' },
    workers: { ...WORKERS_FLAG, description: 'Worker threads (default: one per core but one, which the writes need)' },
    'chunk-size': chunkSizeFlag('Bytes per chunk (one committed batch each)', IMPORT_CHUNK_SIZE),
  },
  interruption: { detach: false, resume: true },
  exitCodes: {
    [ExitCode.SUCCESS]: { description: 'Every row was imported (or the run is replayed unchanged)', retryable: false, sideEffects: SideEffects.Complete },
    [ExitCode.PARTIAL_FAILURE]: { description: 'Some rows were imported; data.unresolved names the others', retryable: false, sideEffects: SideEffects.Partial },
    [ExitCode.PRECONDITION]: { description: 'The input is not a regular CSV file, or lacks the --key column; nothing was written', retryable: false, sideEffects: SideEffects.None },
    [ExitCode.NOT_FOUND]: { description: 'The input file does not exist; nothing was written', retryable: false, sideEffects: SideEffects.None },
    [ExitCode.CONFLICT]: { description: 'The key was used with other arguments or input, or the table has other columns', retryable: false, sideEffects: SideEffects.None },
    [ExitCode.PERMISSION_DENIED]: { description: 'The input cannot be read; nothing was written', retryable: false, sideEffects: SideEffects.None },
    [ExitCode.UNAVAILABLE]: {
      description:
        'The table is held by another process, or a disk is full (NO_SPACE); committed rows stay; call again',
      retryable: false,
      sideEffects: SideEffects.Partial,
    },
    [ExitCode.INCOMPLETE]: { description: 'Paused at a committed checkpoint; run data.continue_command', retryable: false, sideEffects: SideEffects.Partial },
  },
  examples: [{ description: 'Import a file, then export it back', command: 'stint import rows.csv --into rows.db && stint export rows.db --output copy.csv' }],
  async run({ positionals, flags, options }, ctx) {
    const input = inspectInput(positionals.file, ctx.cwd);
    if (input.kind === 'bad') throw input.error;
    const header = readCsvHeader(input.absolute, input.size, DEFAULT_MAX_RECORD_BYTES, input.path);
    const keyIndex = flags.key === undefined ? undefined : header.names.indexOf(flags.key);
    if (keyIndex === -1) {
      throw new StintError(StintCode.KeyColumnMissing, `--key ${flags.key}: the header has no such column`, { context: { columns: header.names }, fix_required: 'Name a column of the header with --key' });
    }
    const fingerprint = fingerprintOf([input]);
    const dryRun = flags['dry-run'];
    const keyed = keyIndex !== undefined;
    const idem = options.idempotencyKey!;
    // The worker threads boot (~60 ms) while msgpackr and LevelDB load and the table opens, not after.
    // Both promises are awaited below; the empty handlers only keep an early failure of one from
    // going unhandled while the other is awaited.
    const pooling = openChunkPool(flags.workers ?? writerWorkerCount());
    pooling.catch(() => undefined);
    // Loaded here, not at the top: every stint call (even --version) loads this module.
    const msgpack = import('msgpackr');
    msgpack.catch(() => undefined);
    let table: Table | undefined;
    try {
      table = dryRun ? undefined : await openTable(flags.into, true);
      const { pack, unpack } = await msgpack;
      const pool = await pooling;
      const sync = !flags['no-sync'];
      let prior: PriorRun = { kind: 'none', stale: false };
      let nextId = 1;
      if (table) {
        prior = await findPrior({
          table, unpack, idem, keyGiven: options.idempotencyKeyGiven === true, argumentsDigest: ctx.argumentsDigest,
          fingerprint, path: input.path, absolute: input.absolute, size: input.size,
        });
        if (prior.kind === 'replay') return replayOf(prior.record);
        const columns = await table.get(TableKey.Columns);
        if (columns && JSON.stringify(unpack(columns)) !== JSON.stringify(header.names)) {
          throw new StintError(StintCode.ColumnsMismatch, `the table at ${flags.into} has other columns than ${input.path}`, {
            context: { table: unpack(columns) as unknown, file: header.names },
            fix_required: 'Import into another --into folder, or make the header match the table',
          });
        }
        if (prior.kind === 'none' && prior.stale) await forgetRun(table, idem, sync);
        const next = await table.get(TableKey.NextId);
        if (next) nextId = Number(Buffer.from(next).toString());
      }
      const restored = dryRun
        ? (await ctx.restore<SavedState & { watermark: Watermark }>(fingerprint))?.state
        : undefined;
      const continued = prior.kind === 'continue' ? prior : undefined;
      const base = continued?.state ?? restored;
      const state: ImportState = { ...(base ?? { nextId, imported: 0, badCount: 0, badSample: [], ranges: [], rangeOpen: false }), pending: undefined };
      const from = continued?.watermark ?? restored?.watermark ?? { offset: header.dataStart, line: header.dataLine };
      const span: SpanWriter = (batch, start, end, digest) =>
        batch.put(TableKey.span(idem, start), pack({ end, digest }));
      const sink = table && importSink({
        table, idem, argumentsDigest: ctx.argumentsDigest, fingerprint, header, sync, pack, unpack,
      });
      const inputText = JSON.stringify(fingerprint);
      let started = continued !== undefined;
      let inflight: Promise<void> = Promise.resolve();

      const outcome = await runChunked({
        pool,
        path: input.absolute,
        fileSize: input.size,
        fileIno: input.ino,
        framing: Framing.Csv,
        mapModule: MAP_MODULE,
        options: { width: header.names.length, ...(keyed ? { keyIndex } : {}) } satisfies ImportMapOptions,
        chunkSize: flags['chunk-size'],
        maxRecordBytes: DEFAULT_MAX_RECORD_BYTES,
        from,
        state,
        fold: importFold(table, keyed, flags['on-bad-row'], span),
        async safePoint(folded, watermark) {
          if (!sink || !table) {
            const { pending: _, ...rest } = folded;
            const done = folded.imported + folded.badCount;
            return ctx.checkpoint({ ...rest, watermark }, { done, unit: ProgressUnit.Rows });
          }
          // The rows of this chunk and the checkpoint that records them: one batch, so a kill between them is impossible.
          const batch = (folded.pending ??= table.batch());
          batch.put(TableKey.NextId, encodeId(folded.nextId));
          if (!started) {
            // The header is the ledger's first span: a file with another header is other bytes.
            span(batch, 0, header.dataStart, headerDigest(input.absolute, header.dataStart));
            batch.put(TableKey.Columns, pack(header.names));
          }
          started = true;
          // One commit in flight while the next chunk is folded; a stop (or an upsert, whose
          // lookups must see it) waits for it to be durable first.
          await inflight;
          const imported = folded.imported;
          const committing = sink.commit({ watermark, state: folded, input: inputText });
          folded.pending = undefined;
          inflight = committing.then(() => ctx.progress(imported, undefined, ProgressUnit.Rows));
          // Its failure (a full disk) is thrown where it is awaited; until then it must not count as unhandled.
          inflight.catch(() => undefined);
          if (keyed || ctx.stopRequested()) await inflight;
          return ctx.stopRequested();
        },
      });

      await inflight;
      const { pending: _, ...folded } = outcome.state;
      if (outcome.kind === 'stopped') {
        // Whatever stopped it (budget, signal, cancel), the committed rows and their checkpoint stay:
        // the identical call continues after them and never imports them again.
        const data = outcomeData(input.path, folded, keyed, { q: `lines ${outcome.watermark.line}-`, reason: 'not imported yet: the import paused' });
        return { exitCode: ExitCode.INCOMPLETE, data: { ...data, cause: ctx.stopCause() ?? Cause.Budget } };
      }
      if (outcome.kind === 'failed' && outcome.error.code === ErrorCode.WorkerFailed) {
        throw workerFailedError(outcome.error);
      }
      if (outcome.kind === 'failed' && RESUMABLE_FAILURES.has(outcome.error.code)) {
        // Not a bad row: fail, keeping the checkpoint so the same call resumes.
        const { code, message, context } = outcome.error;
        throw new StintError(code as ErrorCode, message, { context: { ...context } });
      }
      const result = resultOf(input.path, folded, keyed, outcome, { dryRun, into: flags.into });
      if (table) {
        const record: RunRecord = {
          version: RECORD_FORMAT, argumentsDigest: ctx.argumentsDigest, fingerprint,
          watermark: outcome.watermark, state: folded,
          exitCode: result.exitCode, data: result.data as Record<string, unknown>,
          ...(result.error ? { error: result.error } : {}),
        };
        // The run's end: its checkpoint goes and its response stays, under its key, in one batch.
        const last = table.batch();
        last.del(TableKey.checkpoint(idem));
        last.put(TableKey.run(idem), pack(record));
        if (!started) span(last, 0, header.dataStart, headerDigest(input.absolute, header.dataStart));
        await last.write(sync);
      }
      return dryRun ? { ...result, meta: { dry_run: true } } : result;
    } finally {
      // A pool that failed to start has nothing to close; its error is the one thrown above.
      await pooling.then((pool) => pool.close(), () => undefined);
      await table?.close();
    }
  },
});

/** A finished run answered again: the same response, and nothing written. */
function replayOf(record: RunRecord): CommandResult<Record<string, unknown>> {
  const data = { ...record.data, effect: Effect.Noop };
  const error = record.error ? { error: record.error } : {};
  return { exitCode: record.exitCode, data, ...error, meta: { idempotency_hit: true } };
}

/** The response of a run that reached the end of its file (or stopped at a bad row, with --on-bad-row fail). */
function resultOf(
  path: string,
  folded: SavedState,
  keyed: boolean,
  outcome: { kind: 'done' } | { kind: 'failed'; line: number; error: { code: string; message: string } },
  how: { dryRun: boolean; into: string },
): CommandResult<Record<string, unknown>> {
  const gap = outcome.kind === 'failed'
    ? {
        q: `line ${outcome.line}-`, reason: outcome.error.message, code: outcome.error.code,
        context: { line: outcome.line },
      }
    : undefined;
  const effect = how.dryRun ? Effect.None : Effect.Written;
  const dry = how.dryRun ? { dry_run: true } : {};
  const data = { ...outcomeData(path, folded, keyed, gap), effect, into: how.into, ...dry };
  if (folded.badCount === 0 && gap === undefined) return { exitCode: ExitCode.SUCCESS, data };
  const message = folded.failed
    ? `stopped at the bad row on line ${folded.failed.line}; ${folded.imported} rows before it are imported`
    : `${folded.imported} rows imported; ${data.unresolved_total} could not be`;
  const error = { code: ErrorCode.PartialFailure, message, retryable: false, phase: Phase.Execution };
  return { exitCode: ExitCode.PARTIAL_FAILURE, data, error };
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
