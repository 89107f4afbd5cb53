import { ErrorCode } from '../../contract/error-code.js';
import { STINT_CODES, StintWarning } from '../stint-codes.js';
import type { ErrorDetail } from '../../contract/envelope.js';
import { ExitCode, STANDARD_EXIT_CODES } from '../../contract/exit-code.js';
import { outcomeOf, type Established, type Outcome, type Unresolved } from '../../contract/outcome.js';
import { Cause } from '../../contract/vocabulary/cause.js';
import type { CommandContext, CommandResult } from '../../runtime/authoring/command-spec.js';
import type { Fold } from '../../engine/chunked-run.js';
import { Framing } from '../../engine/worker/framing.js';
import { processFiles, type FileEnd, type ReadableFile } from '../../engine/process-files.js';
import {
  LINE_SAMPLE_LIMIT, mergeTableStats, newTableStats, summarizeColumn, type TableStats,
} from './map/column-stats.js';
import { TOP } from './map/stats/frequent-values.js';
import { Compression } from './compression.js';
import { isGzipFile } from '../../engine/gzip-file.js';
import { readCsvHeader, type CsvHeader } from '../csv-header.js';
import { DELIMITER_NAMES, DELIMITER_VALUES, parseDelimiter } from '../csv-delimiter.js';
import { StintError } from '../../contract/stint-error.js';
import { columnsWanted, pickColumns } from './column-pick.js';
import {
  BASIC, pickStats, sketchesFor, statsShown, statsWanted, WIDE_COLUMNS, type StatsAsked,
} from './stats-pick.js';
import type { FileAnalysis, FileCitation } from './file-analysis.js';
import { plural } from '../../runtime/cli/plural.js';
import { ANALYZE_MAP } from './analyze-map-module.js';
import { analyzeChunkSize } from './analyze-chunk-size.js';
import { meanRecordBytes } from '../csv-record-width.js';

/**
 * Each chunk's sketches are garbage soon after it is sent: a small young generation collects them before V8
 * grows it to its maximum on a long input (peak RSS on 1 GiB about 150 MiB instead of 180, same CPU time).
 */
const WORKER_YOUNG_GENERATION_MB = 8;

type FileResult =
  | { readonly kind: 'established'; readonly entry: Established<FileAnalysis, FileCitation> }
  | { readonly kind: 'unresolved'; readonly entry: Unresolved; readonly exitCode: ExitCode };

/** One file's fold: its header, whether it is gzip, and the statistics merged so far. */
interface FileFold {
  readonly header: CsvHeader;
  readonly gzip: boolean;
  readonly stats: TableStats;
}

/** The main-side fold: merge each chunk's statistics in file order. */
const foldStats: Fold<TableStats, FileFold> = async function* (chunks, fold) {
  for await (const chunk of chunks) {
    mergeTableStats(fold.stats, chunk.partial, chunk.line);
    yield fold;
  }
  return fold;
};

/** What a refusal says beyond its message: its context (the path is the entry's q), suggestion and fix. */
interface Refusal {
  readonly code: string;
  readonly message: string;
  readonly extras?: { readonly context?: object; readonly suggestion?: string; readonly fix_required?: string };
}

/** A file that failed with a code (stint's or the framework's), under the exit code declared for it. */
function unresolvedOf(input: { path: string }, error: Refusal, line?: number): FileResult {
  const { code, message, extras = {} } = error;
  const { path: _path, ...said } = (extras.context ?? {}) as Record<string, unknown>;
  const context = {
    ...said,
    ...(line ? { line } : {}),
    ...(extras.suggestion ? { suggestion: extras.suggestion } : {}),
    ...(extras.fix_required ? { fix_required: extras.fix_required } : {}),
  };
  return {
    kind: 'unresolved',
    entry: {
      q: input.path,
      // The header's errors already name their line; a chunk's error is told it here.
      reason: line && !message.includes(`(line ${line})`) ? `${message} (line ${line})` : message,
      code,
      ...(Object.keys(context).length > 0 ? { context } : {}),
    },
    exitCode: STINT_CODES.exitCodeOf(code) ?? ExitCode.PRECONDITION,
  };
}

/** Number-shaped values no double holds, read as strings (docs/cli.md's rule). */
function warnOutOfRange(ctx: CommandContext, input: ReadableFile, header: CsvHeader, stats: TableStats): void {
  const columns = stats.columns.flatMap((c, k) =>
    (c.outOfRange > 0 ? [{ name: header.names[k]!, count: c.outOfRange }] : []));
  if (columns.length === 0) return;
  const count = columns.reduce((total, c) => total + c.count, 0);
  ctx.warn({
    code: StintWarning.NumberOutOfRange,
    message: `${input.path}: ${count === 1 ? '1 value is' : `${count} values are`} beyond the range of doubles`
      + ` (such as 1e400 or 1e-400) and ${count === 1 ? 'was read as a string' : 'were read as strings'}`
      + ` (${columns.map((c) => c.name).join(', ')})`,
    context: { path: input.path, columns },
  });
}

function warningsFor(ctx: CommandContext, input: ReadableFile, header: CsvHeader, stats: TableStats): void {
  if (stats.ragged.count > 0) {
    ctx.warn({
      code: StintWarning.RaggedRows,
      message: `${input.path}: ${stats.ragged.count === 1 ? '1 row does' : `${stats.ragged.count} rows do`} not`
        + ` have the header's ${plural(header.names.length, 'field')} and ${stats.ragged.count === 1 ? 'was' : 'were'}`
        + ' left out',
      context: { path: input.path, count: stats.ragged.count, lines: stats.ragged.lines },
    });
  }
  // The header's line counts as a row's would: it comes first.
  const count = stats.invalidUtf8.count + (header.invalidUtf8 ? 1 : 0);
  const lines = [...(header.invalidUtf8 ? [header.line] : []), ...stats.invalidUtf8.lines].slice(0, LINE_SAMPLE_LIMIT);
  if (count > 0) {
    const which = count === 1 ? (header.invalidUtf8 ? 'the header is' : '1 line is') : `${count} lines are`;
    const among = header.invalidUtf8 && count > 1 ? ' (the header among them)' : '';
    ctx.warn({
      code: StintWarning.InvalidUtf8Replaced,
      message: `${input.path}: ${which} not valid UTF-8${among}; ${count === 1 ? 'its' : 'their'} bad bytes`
        + ' were read as U+FFFD',
      context: { path: input.path, count, lines },
    });
  }
  warnOutOfRange(ctx, input, header, stats);
  const seen = new Set<string>();
  const duplicates = header.names.filter((name) => (seen.has(name) ? true : (seen.add(name), false)));
  if (duplicates.length > 0) {
    ctx.warn({
      code: StintWarning.DuplicateColumnNames,
      message: `${input.path}: the header repeats ${[...new Set(duplicates)].join(', ')}`,
      context: { path: input.path, names: [...new Set(duplicates)] },
    });
  }
}

/**
 * What the answer shows of each file: the columns (`--columns`) and statistics (`--stats`) asked for, or all, and
 * how many most frequent values a column lists (`--top`).
 */
interface Shown {
  readonly columns: readonly string[] | undefined;
  readonly stats: StatsAsked;
  readonly top: number;
}

/** A wide file answered with the basic statistics because `--stats` was not given: say so, and how to get all. */
function warnBasicByDefault(ctx: CommandContext, input: ReadableFile, columns: number): void {
  ctx.warn({
    code: StintWarning.WideFileBasicStats,
    message: `${input.path}: ${columns} columns (more than ${WIDE_COLUMNS}), so each shows the basic statistics`
      + ` (${BASIC.join(', ')}); --stats all shows every one`,
    context: { path: input.path, columns, stats: BASIC },
  });
}

/** A file read to its end. */
type Analyzed = FileEnd<FileFold> & { readonly kind: 'done' };

function establishedOf(ctx: CommandContext, { file: input, state, watermark }: Analyzed, shown: Shown): FileResult {
  const { header, stats } = state;
  const lastRead = watermark.offset > 0 && watermark.line > 1 ? watermark.line - 1 : watermark.line;
  const lastLine = Math.max(header.dataLine - 1, lastRead);
  const columns = pickColumns(header.names, shown.columns, input.path);
  const chosen = statsShown(shown.stats, columns.length);
  if (chosen && shown.stats === undefined) warnBasicByDefault(ctx, input, columns.length);
  return {
    kind: 'established',
    entry: {
      q: input.path,
      a: {
        rows: stats.rows,
        delimiter: DELIMITER_NAMES[header.delimiter]!,
        ...(chosen ? { stats: chosen } : {}),
        columns: columns.map((k) => pickStats(summarizeColumn(header.names[k]!, stats.columns[k]!, shown.top), chosen)),
      },
      cite: {
        ...(state.gzip ? { compression: Compression.Gzip } : {}),
        path: input.path,
        size: input.size,
        mtime: new Date(input.mtimeMs).toISOString(),
        ...(input.remote?.tag ? { etag: input.remote.tag } : {}),
        bytes: [0, input.size],
        lines: [1, lastLine],
      },
    },
  };
}

/** What one file came to: its statistics, or why it has none. */
function resultOf(ctx: CommandContext, ended: FileEnd<FileFold>, shown: Shown): FileResult {
  const { file } = ended;
  if (ended.kind === 'refused') {
    const line = Number(ended.error.extras.context?.['line']) || undefined;
    return unresolvedOf(file, ended.error, line);
  }
  if (ended.kind === 'failed') {
    return unresolvedOf(file, ended.error, ended.line);
  }
  const { header, stats } = ended.state;
  warningsFor(ctx, ended.file, header, stats);
  return establishedOf(ctx, ended, shown);
}

/** Exit code and error for an outcome: 0 when complete, 3 when partial, the file's own when nothing was established. */
/** A failure that is a service's, not the input's (a remote input's server down or throttling): retry later. */
const serviceFailed = (result: FileResult & { kind: 'unresolved' }) => STANDARD_EXIT_CODES[result.exitCode].retryable;

/** Why files went unanalyzed: bad input, unless every failure was a service's. */
function causeOf(results: readonly FileResult[]): Cause | undefined {
  const failed = results.filter((r): r is FileResult & { kind: 'unresolved' } => r.kind === 'unresolved');
  if (failed.length === 0) return undefined;
  return failed.every(serviceFailed) ? Cause.DependencyDown : Cause.BadInput;
}

function verdict(results: readonly FileResult[], outcome: Outcome): { exitCode: ExitCode; error?: ErrorDetail } {
  const failed = results.filter((r): r is FileResult & { kind: 'unresolved' } => r.kind === 'unresolved');
  if (failed.length === 0) return { exitCode: ExitCode.SUCCESS };
  if (outcome.established.length > 0) {
    return {
      exitCode: ExitCode.PARTIAL_FAILURE,
      error: {
        code: ErrorCode.PartialFailure,
        message: `${failed.length} of ${results.length} files could not be analyzed`,
        retryable: false,
        phase: 'execution',
      },
    };
  }
  const first = failed[0]!;
  const { suggestion, fix_required: fix } = first.entry.context ?? {};
  return {
    exitCode: first.exitCode,
    error: {
      ...(typeof suggestion === 'string' ? { suggestion } : {}),
      ...(typeof fix === 'string' && results.length === 1 ? { fix_required: fix } : {}),
      code: first.entry.code!,
      message: results.length === 1
        ? first.entry.reason
        : `none of ${results.length} files could be analyzed; first: ${first.entry.reason}`,
      retryable: failed.every(serviceFailed),
      phase: 'execution',
    },
  };
}

/** Stopped at a safe point: INCOMPLETE, with the files done so far as the partial outcome. */
function stopped(
  finished: readonly FileResult[],
  remaining: readonly string[],
  ctx: CommandContext,
): CommandResult<Outcome> {
  const established = finished.flatMap((r) => (r.kind === 'established' ? [r.entry] : []));
  const cause = ctx.stopCause() ?? Cause.Budget;
  const unresolved = [
    ...finished.flatMap((r) => (r.kind === 'unresolved' ? [r.entry] : [])),
    ...remaining.map((path) => ({ q: path, reason: `not finished: the work stopped (${cause})` })),
  ];
  return { exitCode: ExitCode.INCOMPLETE, data: outcomeOf(established, unresolved, cause) };
}

/** `--delimiter` as a byte (undefined: detect it); a value not among the four is an argument error. */
function delimiterOf(flag: string | undefined): number | undefined {
  if (flag === undefined) return undefined;
  const delimiter = parseDelimiter(flag);
  if (delimiter !== undefined) return delimiter;
  throw new StintError(ErrorCode.ArgError, `--delimiter ${JSON.stringify(flag)} is not a delimiter stint reads`, {
    phase: 'validation',
    suggestion: 'Use one of , ; | tab (or comma, semicolon, pipe, \\t)',
    context: { flag: '--delimiter', value: flag, allowed: DELIMITER_VALUES },
  });
}

/** A file's own chunk size (analyze-chunk-size.ts), from the records after its header. */
function chunkSizeOf(file: ReadableFile, header: CsvHeader, gzip: boolean): number {
  return analyzeChunkSize(meanRecordBytes(file.absolute, file.size, header, gzip, file.path), header.names.length);
}

/** What the analysis needs of its call: the files and the engine's knobs (analyze-command.ts declares them). */
export interface AnalyzeInput {
  readonly positionals: { readonly file: readonly string[] };
  readonly flags: {
    readonly workers: number | undefined;
    /** Not given: each file's own (analyze-chunk-size.ts). */
    readonly 'chunk-size'?: number | undefined;
    readonly 'max-record-size': number;
    readonly delimiter?: string | undefined;
    readonly columns?: string | undefined;
    readonly stats?: string | undefined;
    readonly top?: number | undefined;
  };
}

/** The analysis itself, loaded only when the command runs (start-up loads the declarations alone). */
export async function runAnalyze({ positionals, flags }: AnalyzeInput, ctx: CommandContext): Promise<CommandResult> {
    const maxRecordBytes = flags['max-record-size'];
    const delimiter = delimiterOf(flags.delimiter);
    const wanted = columnsWanted(flags.columns);
    const shown: Shown = { columns: wanted, stats: statsWanted(flags.stats), top: flags.top ?? TOP };
    const outcome = await processFiles(ctx, {
      paths: positionals.file,
      framing: Framing.Csv,
      mapModule: ANALYZE_MAP,
      workers: flags.workers,
      workerYoungGenerationMb: WORKER_YOUNG_GENERATION_MB,
      maxRecordBytes,
      begin(file) {
        const gzip = isGzipFile(file.absolute);
        const options = { detect: true, gzip, ...(delimiter !== undefined ? { delimiter } : {}) };
        const header = readCsvHeader(file.absolute, file.size, maxRecordBytes, file.path, options);
        // A name the header lacks refuses the file before its work.
        const columns = pickColumns(header.names, wanted, file.path);
        const from = { offset: header.dataStart, line: header.dataLine };
        const width = header.names.length;
        const sketches = sketchesFor(statsShown(shown.stats, columns.length));
        return {
          state: { header, gzip, stats: newTableStats(width) },
          from,
          options: { width, delimiter: header.delimiter, sketches },
          crLineEnds: header.crLineEnds,
          gzip,
          chunkSize: flags['chunk-size'] ?? chunkSizeOf(file, header, gzip),
        };
      },
      fold: foldStats,
      end: (ended) => resultOf(ctx, ended, shown),
    });
    if (outcome.kind === 'stopped') return stopped(outcome.results, outcome.remaining, ctx);

    const results = outcome.results;
    const established = results.flatMap((r) => (r.kind === 'established' ? [r.entry] : []));
    const unresolved = results.flatMap((r) => (r.kind === 'unresolved' ? [r.entry] : []));
    const data = outcomeOf(established, unresolved, causeOf(results));
    const { exitCode, error } = verdict(results, data);
    return { exitCode, data, ...(error ? { error } : {}) };
  }
