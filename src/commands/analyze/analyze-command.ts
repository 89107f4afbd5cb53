import { ExitCode } from '../../contract/exit-code.js';
import type { Outcome } from '../../contract/outcome.js';
import { DangerLevel } from '../../contract/vocabulary/danger-level.js';
import { SideEffects } from '../../contract/vocabulary/side-effects.js';
import { defineCommand } from '../../runtime/authoring/define-command.js';
import { DEFAULT_MAX_RECORD_BYTES } from '../../engine/worker/framing.js';
import { chunkSizeFlag, MAX_RECORD_SIZE, WORKERS_FLAG } from '../engine-flags.js';
import type { FileAnalysis, FileCitation } from './file-analysis.js';
import { ANALYZE_MAP } from './analyze-map-module.js';
import { ANALYSIS_SCHEMA } from './analysis-schema.js';
import { WIDE_COLUMNS } from './stats-pick.js';
import { CAPACITY, TOP } from './map/stats/frequent-values.js';

export const analyzeCommand = defineCommand({
  name: 'analyze',
  outputSchema: ANALYSIS_SCHEMA,
  description: 'Column statistics of CSV files: rows, and per column'
    + ' its type, counts, nulls, min, max, sum, mean and lengths',
  dangerLevel: DangerLevel.Safe,
  maps: { stats: ANALYZE_MAP },
  positionals: [{
    name: 'file',
    type: 'string',
    variadic: true,
    description: 'CSV files (RFC 4180: a header row, double quotes; comma, tab, semicolon or pipe between fields,'
      + ' detected; lines ending in LF, CRLF or a lone CR), gzip-compressed or not; - reads standard input',
  }],
  stdin: { mode: 'lines', when: (positionals) => (positionals['file'] as readonly string[]).includes('-') },
  flags: {
    delimiter: {
      type: 'string',
      description: 'The byte between fields, instead of detecting it: one of , ; | tab'
        + ' (also comma, semicolon, pipe, \\t or a tab character)',
    },
    columns: {
      type: 'string',
      description: 'Only these columns, by header name, comma-separated (a,b); a name not in a header fails that file',
    },
    stats: {
      type: 'string',
      description: 'Only these statistics, comma-separated: basic (count, nulls, min, max, sum, mean), all, or any'
        + ' of count, nulls, min, max, sum, mean, lengths, stddev, quartiles, distinct, top_values. Default: all,'
        + ` or basic for a file of more than ${WIDE_COLUMNS} columns shown (the answer's stats says which)`,
    },
    top: {
      type: 'integer',
      min: 0,
      max: CAPACITY,
      default: TOP,
      description: `How many most frequent values each column lists, 0 to ${CAPACITY}: fewer keep answers on wide`
        + ' files small (all are counted either way)',
    },
    workers: WORKERS_FLAG,
    'chunk-size': chunkSizeFlag(
      'Bytes per chunk; chunks end on record boundaries. Default: each file its own, from its first records (16MiB,'
        + ' less for a table of hundreds of columns), so a file gives one answer however it is read',
    ),
    'max-record-size': {
      type: 'bytes',
      min: 1024,
      max: MAX_RECORD_SIZE,
      default: DEFAULT_MAX_RECORD_BYTES,
      description: 'A record longer than this fails its file (an unterminated quote)',
    },
  },
  interruption: { detach: true, resume: true },
  exitCodes: {
    [ExitCode.SUCCESS]: { description: 'Every file was analyzed', retryable: false, sideEffects: SideEffects.Complete },
    [ExitCode.PARTIAL_FAILURE]: {
      description: 'Some files were analyzed; the answer names the others and why',
      retryable: false,
      sideEffects: SideEffects.Partial,
    },
    [ExitCode.PRECONDITION]: {
      description: 'The file is not a regular file, is empty, or is not valid CSV',
      retryable: false,
      sideEffects: SideEffects.None,
    },
    [ExitCode.NOT_FOUND]: {
      description: 'The file does not exist (an http:// or https:// server answered 404)',
      retryable: false,
      sideEffects: SideEffects.None,
    },
    [ExitCode.CONFLICT]: {
      description: 'An http:// or https:// object was replaced while it was read: the identical call starts over',
      retryable: true,
      sideEffects: SideEffects.None,
    },
    [ExitCode.PERMISSION_DENIED]: {
      description: 'The file cannot be read (a server answered 403)', retryable: false, sideEffects: SideEffects.None,
    },
    [ExitCode.AUTH_REQUIRED]: {
      description: 'A server wants credentials (401): give them in the URL', retryable: false,
      sideEffects: SideEffects.None,
    },
    [ExitCode.RATE_LIMITED]: {
      description: 'A server kept answering 429 through every retry', retryable: true, sideEffects: SideEffects.None,
    },
    [ExitCode.UNAVAILABLE]: {
      description: 'The same analysis is held by another process, or a server kept failing through every retry',
      retryable: true,
      sideEffects: SideEffects.None,
    },
    [ExitCode.INCOMPLETE]: {
      description: 'The analysis goes on in the background; run its continue_command',
      retryable: true,
      sideEffects: SideEffects.None,
    },
  },
  examples: [
    { description: 'Analyze the bundled sample', command: 'stint analyze fixtures/csv/cities.csv' },
    { description: 'Two columns of a compressed file', command: 'stint analyze --columns city,population data.csv.gz' },
    { description: 'A tab-separated stream', command: 'producer | stint analyze --delimiter tab -' },
    {
      description: 'Plain aggregates only, a small answer',
      command: 'stint analyze --stats basic fixtures/csv/cities.csv',
    },
    {
      description: `Every statistic of a wide file (past ${WIDE_COLUMNS} columns the default is basic)`,
      command: 'stint analyze --stats all wide.csv',
    },
  ],
  async run(input, ctx) {
    const { runAnalyze } = await import('./analyze-run.js');
    return runAnalyze(input, ctx);
  },
  // Loaded for text only: a JSON call never pays for the table code.
  text: async (data, view) => (await import('./analysis-text.js'))
    .renderAnalysisText(data as Outcome<FileAnalysis, FileCitation>, view.width),
});
