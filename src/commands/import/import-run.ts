import { ErrorCode } from '../../contract/error-code.js';
import { StintCode } from '../stint-codes.js';
import { ExitCode } from '../../contract/exit-code.js';
import { outcomeOf, type Established, type Unresolved } from '../../contract/outcome.js';
import { StintError } from '../../contract/stint-error.js';
import { Cause } from '../../contract/vocabulary/cause.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import type { CommandContext, CommandResult, FrameworkOptions } from '../../runtime/authoring/command-spec.js';
import { openWorkerPool, type WorkerPool } from '../../engine/chunk-pool.js';
import { DEFAULT_MAX_RECORD_BYTES, type Watermark } from '../../engine/chunked-run.js';
import type { FileOutcome, FileWork } from '../../engine/file-work.js';
import { processFile } from '../../engine/process-file.js';
import type { Progress } from '../../contract/incomplete.js';
import { ProgressUnit } from '../../contract/vocabulary/progress-unit.js';
import { readCsvHeader, type CsvHeader } from '../csv-header.js';
import { Framing } from '../../engine/worker/framing.js';
import { fingerprintOf, inputOf } from '../../engine/input-file.js';
import { BAD_ROW_MESSAGE } from './map/bad-row.js';
import { Effect } from './import-effect.js';
import { plural } from '../../runtime/cli/plural.js';
import type { ImportChunk, ImportMapOptions } from './map/import-map.js';
import { RECORD_FORMAT, type ImportState, type RunRecord, type SavedState } from './import-records.js';
import { findPrior, forgetRun } from './prior-run.js';
import { importFold } from './import-fold.js';
import type { OnBadRow } from './on-bad-row.js';
import { importSink, putHeaderSpan, spanWriter, type ImportSink, type ImportStore } from './import-sink.js';
import { IMPORT_MAP } from './import-map-module.js';
import type { ImportTarget } from './target/import-target.js';
import { TableKey } from './table-store.js';
import { openTarget } from './target/open-target.js';
import { COMMIT_BYTES, DECIMAL_DIGITS, shownUrl, TargetKind, targetAddress } from './target/target-address.js';
import { checkNames } from './target/sql-table.js';
import { columnPlan, parseSchema } from './target/column-plan.js';
import type { SqlType } from './map/sql-type.js';


/** Chunk failures that say nothing about the rows: the run fails with them and the same call resumes. */
const RESUMABLE_FAILURES: ReadonlySet<string> = new Set([
  ErrorCode.InputTruncated, ErrorCode.InputReplaced, ErrorCode.FileUnreadable,
]);

export { Effect } from './import-effect.js';

/** One import call, settled before its table opens: the input, its header and the flags that shape the run. */
interface ImportCall {
  readonly ctx: CommandContext;
  /** The input as the call names it: what the run opens (a URL's credentials included). */
  readonly file: string;
  /** The input as answers show it (a URL without its credentials). */
  readonly path: string;
  readonly absolute: string;
  readonly size: number;
  readonly header: CsvHeader;
  readonly fingerprint: unknown;
  readonly keyIndex: number | undefined;
  readonly keyed: boolean;
  readonly idem: string;
  readonly keyGiven: boolean;
  readonly into: string;
  readonly table: string | undefined;
  readonly schema: ReadonlyMap<string, SqlType>;
  readonly dryRun: boolean;
  readonly sync: boolean;
  readonly onBadRow: OnBadRow;
  readonly workers: number | undefined;
  readonly chunkSize: number;
}

/** Where a run begins: a finished run to answer again, or after the committed rows (none: at the first record). */
type ImportStart =
  | { readonly kind: 'replay'; readonly record: RunRecord }
  | {
      readonly kind: 'begin';
      readonly nextId: number;
      readonly resumed?: { watermark: Watermark; state: SavedState };
      /** The column types each field is checked against (none: an untyped table, or a dry run). */
      readonly types?: readonly SqlType[];
      readonly decimalDigits?: number;
    };

/** A bad row as the answer names it: its line, why, and the column whose field did not fit its type. */
function badRowGap(b: SavedState['badSample'][number], names: readonly string[]): Unresolved {
  const column = b.column === undefined ? undefined : names[b.column];
  const reason = BAD_ROW_MESSAGE[b.reason] + (column === undefined ? '' : ` (column ${column})`);
  return { q: `line ${b.line}`, reason, code: b.reason, context: { line: b.line, ...(column ? { column } : {}) } };
}

function outcomeData(path: string, state: SavedState, keyed: boolean, names: readonly string[], extraGap?: Unresolved) {
  const established: Established<{ rows: number; first_id?: number; last_id?: number }>[] = state.ranges.map((r) => ({
    q: `lines ${r.firstLine}-${r.lastLine}`,
    a: { rows: r.rows, ...(keyed ? {} : { first_id: r.firstId, last_id: r.lastId }) },
    cite: { path, lines: [r.firstLine, r.lastLine] },
  }));
  const unresolved: Unresolved[] = state.badSample.map((b) => badRowGap(b, names));
  if (extraGap) unresolved.push(extraGap);
  const gaps = state.badCount + (extraGap ? 1 : 0);
  const outcome = outcomeOf(established, unresolved, gaps > 0 ? Cause.BadInput : undefined);
  return { ...outcome, unresolved_total: gaps, rows_imported: state.imported };
}


/** What an import needs of its call (import-command.ts declares it). */
export interface ImportInput {
  readonly positionals: { readonly file: string };
  readonly flags: {
    readonly into: string;
    readonly table: string | undefined;
    readonly schema: string | undefined;
    readonly key: string | undefined;
    readonly 'dry-run': boolean;
    readonly 'on-bad-row': OnBadRow;
    readonly 'no-sync': boolean;
    readonly workers: number | undefined;
    readonly 'chunk-size': number | undefined;
  };
  readonly options: FrameworkOptions;
}

/** The import itself, loaded only when the command runs (start-up loads the declarations alone). */
export async function runImport(
  { positionals, flags, options }: ImportInput, ctx: CommandContext,
): Promise<CommandResult<Record<string, unknown>>> {
    const input = inputOf(positionals.file, ctx);
    if (input.kind === 'bad') throw input.error;
    const header = readCsvHeader(input.absolute, input.size, DEFAULT_MAX_RECORD_BYTES, input.path);
    const keyIndex = keyIndexOf(header, flags.key);
    const call: ImportCall = {
      ctx, header, keyIndex, keyed: keyIndex !== undefined, fingerprint: fingerprintOf([input]),
      file: positionals.file, path: input.path, absolute: input.absolute, size: input.size,
      idem: options.idempotencyKey!, keyGiven: options.idempotencyKeyGiven === true,
      into: flags.into, table: flags.table, schema: parseSchema(flags.schema, header.names),
      dryRun: flags['dry-run'], sync: !flags['no-sync'],
      onBadRow: flags['on-bad-row'], workers: flags.workers,
      chunkSize: flags['chunk-size'] ?? COMMIT_BYTES[targetAddress(flags.into).kind],
    };
    // The worker threads boot (~60 ms) while msgpackr and LevelDB load and the table opens, not after.
    // processFile awaits the pool; the empty handler only keeps an early failure from going unhandled meanwhile.
    const pooling = openWorkerPool(call.workers);
    pooling.catch(() => undefined);
    // Loaded here, not at the top: every stint call (even --version) loads this module.
    const msgpack = import('msgpackr');
    msgpack.catch(() => undefined);
    let target: ImportTarget | undefined;
    try {
      target = call.dryRun ? undefined : await openTarget({ ...call, idem: call.idem });
      const { pack, unpack } = await msgpack;
      return await importWith(call, pooling, target && { target, pack, unpack });
    } finally {
      // A pool that failed to start has nothing to close; its error is the one thrown above.
      await pooling.then((pool) => pool.close(), () => undefined);
      await target?.close();
    }
  }

/** The index of the --key column, or undefined without --key; a header without it is KEY_COLUMN_MISSING. */
function keyIndexOf(header: CsvHeader, key: string | undefined): number | undefined {
  if (key === undefined) return undefined;
  const index = header.names.indexOf(key);
  if (index === -1) {
    throw new StintError(StintCode.KeyColumnMissing, `--key ${key}: the header has no such column`, {
      context: { columns: header.names },
      fix_required: 'Name a column of the header with --key',
    });
  }
  return index;
}

/** The import once its table (none in a dry run) is open: where it begins, the file through processFile, the answer. */
async function importWith(
  call: ImportCall, pool: Promise<WorkerPool>, store: ImportStore | undefined,
): Promise<CommandResult<Record<string, unknown>>> {
  const start: ImportStart = store ? await startInTable(call, store) : dryStart(call);
  if (start.kind === 'replay') return replayOf(start.record);
  const { ctx, idem, fingerprint, absolute, header, sync } = call;
  const sink = store && importSink({
    ...store, idem, argumentsDigest: ctx.argumentsDigest, fingerprint, absolute, header, sync, resumed: start.resumed,
  });
  const outcome = await processFile(ctx, fileWork(call, pool, store, start, sink));
  return answerOf(call, store, outcome, sink?.started() ?? false);
}

/**
 * A dry run touches no database: into one, each field is checked against the types a new table would get
 * (--schema, else inferred from the file), so the rows that would be rejected are named, not counted as imported.
 */
function dryStart(call: ImportCall): ImportStart {
  const { kind } = targetAddress(call.into);
  if (kind === TargetKind.Level) return { kind: 'begin', nextId: 1 };
  checkNames(call.header.names);
  const decimalDigits = DECIMAL_DIGITS[kind];
  const types = columnPlan(call.absolute, call.header, call.keyIndex, call.schema)(decimalDigits).types();
  return { kind: 'begin', nextId: 1, types, decimalDigits };
}

/** What the table holds of this run decides where it begins; a table that cannot hold the file is refused. */
async function startInTable(call: ImportCall, store: ImportStore): Promise<ImportStart> {
  const { target, unpack } = store;
  const { ctx, idem, fingerprint, path, absolute, size, keyGiven } = call;
  const prior = await findPrior({
    target, unpack, idem, keyGiven, argumentsDigest: ctx.argumentsDigest, fingerprint, path, absolute, size,
  });
  if (prior.kind === 'replay') return prior;
  const plan = columnPlan(absolute, call.header, call.keyIndex, call.schema)(target.decimalDigits);
  const typed = { types: await target.open(plan), decimalDigits: target.decimalDigits };
  if (prior.kind === 'continue') {
    const resumed = { watermark: prior.watermark, state: prior.state };
    return { kind: 'begin', nextId: prior.state.nextId, resumed, ...typed };
  }
  if (prior.stale) await forgetRun(target, idem, call.sync);
  return { kind: 'begin', nextId: await target.nextId(), ...typed };
}

/**
 * The file as processFile takes it: CSV records from after the header, the
 * rows staged by the fold and committed exactly once through the sink (a
 * dry run checkpoints instead), progress in bytes with the rows beside.
 */
function fileWork(
  call: ImportCall, pool: Promise<WorkerPool>, store: ImportStore | undefined, start: ImportStart & { kind: 'begin' },
  sink?: ImportSink,
): FileWork<ImportChunk, ImportState> {
  const { nextId, types, decimalDigits } = start;
  const keyed = call.keyIndex !== undefined ? { keyIndex: call.keyIndex } : {};
  const typed = types ? { types, precision: decimalDigits } : {};
  // A keyed row goes to its batch alone, by its key: it stays MessagePack, which every target reads.
  const rowFormat = store && !call.keyed
    ? { rowFormat: store.target.rowFormat, nativeColumns: store.target.nativeColumns }
    : {};
  const span = store && spanWriter(call.idem, store.pack);
  return {
    path: call.file,
    framing: Framing.Csv,
    mapModule: IMPORT_MAP,
    options: { width: call.header.names.length, ...keyed, ...typed, ...rowFormat } satisfies ImportMapOptions,
    initial: () => ({
      nextId, imported: 0, badCount: 0, badSample: [], ranges: [], rangeOpen: false, pending: undefined,
    }),
    from: { offset: call.header.dataStart, line: call.header.dataLine },
    fold: importFold(store?.target, call.keyed, call.onBadRow, span),
    pool,
    chunkSize: call.chunkSize,
    maxRecordBytes: DEFAULT_MAX_RECORD_BYTES,
    // Bytes of the file (it has a total, so a bar and an ETA), rows beside: a dry run counts every row it
    // checked; a commit, the rows it made durable.
    progress: sink ? committedRows(call.size) : checkedRows(call.size),
    // An upsert's lookups must see the last commit: only an append folds while it is in flight.
    ...(sink ? { sink, commitAhead: !call.keyed } : {}),
  };
}

const committedRows = (size: number) => (state: ImportState, at: Watermark): Progress =>
  ({ done: at.offset, total: size, unit: ProgressUnit.Bytes, rows: state.imported });
const checkedRows = (size: number) => (state: ImportState, at: Watermark): Progress =>
  ({ done: at.offset, total: size, unit: ProgressUnit.Bytes, rows: state.imported + state.badCount });

/** The answer to how the fold ended; a run that reached its end (or its failing row) is recorded in the table. */
async function answerOf(
  call: ImportCall, store: ImportStore | undefined, outcome: FileOutcome<ImportState>, started: boolean,
): Promise<CommandResult<Record<string, unknown>>> {
  const { pending: _, ...folded } = outcome.state;
  if (outcome.kind === 'stopped') {
    // Whatever stopped it (budget, signal, cancel), the committed rows and their checkpoint stay:
    // the identical call continues after them and never imports them again.
    const gap = { q: `lines ${outcome.watermark.line}-`, reason: 'not imported yet: the import paused' };
    const data = outcomeData(call.path, folded, call.keyed, call.header.names, gap);
    return { exitCode: ExitCode.INCOMPLETE, data: { ...data, cause: call.ctx.stopCause() ?? Cause.Budget } };
  }
  if (outcome.kind === 'failed' && RESUMABLE_FAILURES.has(outcome.error.code)) {
    // Not a bad row: fail, keeping the checkpoint so the same call resumes.
    const { code, message, context } = outcome.error;
    throw new StintError(code as ErrorCode, message, { context: { ...context } });
  }
  const table = store?.target.table;
  const how = { dryRun: call.dryRun, into: shownUrl(call.into), names: call.header.names, ...(table ? { table } : {}) };
  const result = resultOf(call.path, folded, call.keyed, outcome, how);
  if (store) await recordRun(call, store, { folded, watermark: outcome.watermark, result, started });
  return call.dryRun ? { ...result, meta: { dry_run: true } } : result;
}

/** The run's end: its checkpoint goes and its response stays, under its key, in one batch. */
async function recordRun(
  call: ImportCall,
  store: ImportStore,
  ended: {
    readonly folded: SavedState;
    readonly watermark: Watermark;
    readonly result: CommandResult<Record<string, unknown>>;
    readonly started: boolean;
  },
): Promise<void> {
  const { folded, watermark, result } = ended;
  const record: RunRecord = {
    version: RECORD_FORMAT, argumentsDigest: call.ctx.argumentsDigest, fingerprint: call.fingerprint,
    watermark, state: folded,
    exitCode: result.exitCode, data: result.data as Record<string, unknown>,
    ...(result.error ? { error: result.error } : {}),
  };
  const last = store.target.batch();
  last.del(TableKey.checkpoint(call.idem));
  last.put(TableKey.run(call.idem), store.pack(record));
  if (!ended.started) putHeaderSpan({ ...call, pack: store.pack }, last);
  await last.write(call.sync);
}

/** A finished run answered again: the same response, and nothing written. */
function replayOf(record: RunRecord): CommandResult<Record<string, unknown>> {
  const data = { ...record.data, effect: Effect.Noop };
  const error = record.error ? { error: record.error } : {};
  return { exitCode: record.exitCode, data, ...error, meta: { idempotency_hit: true } };
}

/** `2 rows imported; 1 row could not be imported`; under --dry-run what would be: `would import 2 rows into t; …`. */
function partialMessage(folded: SavedState, unresolved: number, how: { dryRun: boolean; into: string }): string {
  const rows = plural(folded.imported, 'row');
  if (folded.failed) {
    const at = `stopped at the bad row on line ${folded.failed.line}`;
    if (folded.imported === 0) return `${at}; nothing ${how.dryRun ? 'would be' : 'was'} imported`;
    const before = folded.imported === 1 ? 'the row before it' : `the ${rows} before it`;
    const verb = how.dryRun ? 'would be' : folded.imported === 1 ? 'is' : 'are';
    return `${at}; ${before} ${verb} imported`;
  }
  const done = how.dryRun ? `would import ${rows} into ${how.into}` : `${rows} imported`;
  return `${done}; ${plural(unresolved, 'row')} could not be imported`;
}

/** The response of a run that reached the end of its file (or stopped at a bad row, with --on-bad-row fail). */
function resultOf(
  path: string,
  folded: SavedState,
  keyed: boolean,
  outcome: { kind: 'done' } | { kind: 'failed'; line: number; error: { code: string; message: string } },
  how: { dryRun: boolean; into: string; names: readonly string[]; table?: string },
): CommandResult<Record<string, unknown>> {
  const gap = outcome.kind === 'failed'
    ? {
        q: `line ${outcome.line}-`, reason: outcome.error.message, code: outcome.error.code,
        context: { line: outcome.line },
      }
    : undefined;
  const effect = how.dryRun ? Effect.None : Effect.Written;
  const dry = how.dryRun ? { dry_run: true } : {};
  const table = how.table ? { table: how.table } : {};
  const data = { ...outcomeData(path, folded, keyed, how.names, gap), effect, into: how.into, ...table, ...dry };
  if (folded.badCount === 0 && gap === undefined) return { exitCode: ExitCode.SUCCESS, data };
  const message = partialMessage(folded, data.unresolved_total, how);
  const error = { code: ErrorCode.PartialFailure, message, retryable: false, phase: Phase.Execution };
  return { exitCode: ExitCode.PARTIAL_FAILURE, data, error };
}
