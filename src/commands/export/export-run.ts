import { closeSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { ErrorCode } from '../../contract/error-code.js';
import { StintCode } from '../stint-codes.js';
import { ExitCode } from '../../contract/exit-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { StintError } from '../../contract/stint-error.js';
import { Cause } from '../../contract/vocabulary/cause.js';
import { ProgressUnit } from '../../contract/vocabulary/progress-unit.js';
import type { CommandContext, CommandResult } from '../../runtime/authoring/command-spec.js';
import { openTable, TableKey, type Table } from '../import/table-store.js';
import { ExportFormat, formatOf, headerOf, rowWriter, type RowWriter } from './export-format.js';
import { PackedOutput } from '../../engine/worker/packed-output.js';
import { STDOUT } from './stdout-target.js';
import { writtenFile } from './written-file.js';
import { inspectTarget, type OutputTarget } from './output-target.js';
import {
  commitPartial, createPartial, partialMatches, partialPathFor, reopenPartial, sweepStalePartials, writeAt,
  type PartialMark,
} from './partial-file.js';


/** What the export needs to know of the table before the first row. */
interface TableShape {
  readonly columns: string[];
  /** Every id the table handed out is a row (ids are never reused or deleted), so the rows to come are known. */
  readonly total: number;
}

/** The checkpoint: the partial file holds every row up to `after`, in `bytes` bytes. */
interface ExportState extends PartialMark {
  /** The key of the last row written; absent before the first. */
  readonly after?: string;
  readonly rows: number;
}

async function shapeOf(table: Table, name: string): Promise<TableShape> {
  // Loaded here, not at the top: every stint call (even --version) loads this module.
  const { unpack } = await import('msgpackr');
  const columns = await table.get(TableKey.Columns);
  if (!columns) {
    const message = `${name} is not a stint table (no columns recorded)`;
    throw new StintError(StintCode.TableUnreadable, message, { context: { path: name } });
  }
  const next = await table.get(TableKey.NextId);
  return { columns: unpack(columns) as string[], total: next ? Number(Buffer.from(next).toString()) - 1 : 0 };
}

const progressOf = (rows: number, shape: TableShape): Progress =>
  ({ done: rows, ...(rows <= shape.total ? { total: shape.total } : {}), unit: ProgressUnit.Rows });

/** Bytes an export's output buffer starts with (a read batch of rows; it grows for longer ones). */
const BATCH_BYTES = 1024 * 1024;

/**
 * Writes the rows after `after`, one read batch at a time, and hands each batch's bytes (a view valid until the
 * next batch), last key and row count to `sink`, a safe point: it answers whether to stop there.
 */
async function eachBatch(table: Table, after: string | undefined, write: RowWriter,
  sink: (bytes: Buffer, lastKey: string, rows: number) => Promise<boolean>): Promise<boolean> {
  const output = new PackedOutput(BATCH_BYTES);
  for await (const entries of table.rows(after)) {
    output.used = 0;
    for (const [, value] of entries) write(output, value);
    if (await sink(output.bytes.subarray(0, output.used), entries.at(-1)![0], entries.length)) return true;
  }
  return false;
}

/** How the rows are written: decoded by msgpackr only where a row's bytes cannot be copied (see rowWriter). */
async function writerOf(format: ExportFormat, shape: TableShape): Promise<RowWriter> {
  // Loaded here, not at the top: every stint call (even --version) loads this module.
  const { unpack } = await import('msgpackr');
  return rowWriter(format, shape.columns, unpack);
}

/** `--output -`: every row to stdout as it is read (no budget applies: a pipe cannot pause). */
async function streamTable(table: Table, shape: TableShape, format: ExportFormat,
  ctx: CommandContext): Promise<CommandResult> {
  const write = ctx.stdout;
  if (!write) throw new StintError(ErrorCode.InternalError, 'export --output - ran without the stdout stream');
  await write(headerOf(format, shape.columns));
  let rows = 0;
  await eachBatch(table, undefined, await writerOf(format, shape), async (bytes, _key, count) => {
    await write(bytes.toString());
    rows += count;
    ctx.progress(rows, shape.total, ProgressUnit.Rows);
    return false;
  });
  return { exitCode: ExitCode.SUCCESS, data: { rows, columns: shape.columns, output: STDOUT, format } };
}

/** The partial file of this run, continued from the checkpoint when it still matches, else begun anew. */
async function openRun(table: Table, target: OutputTarget, partial: string, header: string,
  ctx: CommandContext): Promise<{ fd: number; state: ExportState }> {
  const fingerprint = { table: await table.version(), target: target.path };
  const restored = await ctx.restore<ExportState>(fingerprint, (state) => partialMatches(partial, state));
  ctx.scratchFile(partial);
  sweepStalePartials(target.path, partial, ctx.now());
  if (restored) return { fd: reopenPartial(partial, restored.state), state: restored.state };
  const { fd, ino } = createPartial(partial, target);
  const bytes = Buffer.from(header);
  writeAt(fd, bytes, 0);
  return { fd, state: { rows: 0, bytes: bytes.length, ino } };
}

/** The file: written beside the target, checkpointed per read batch, renamed over the target only when complete. */
async function exportToFile(table: Table, shape: TableShape, format: ExportFormat, target: OutputTarget, output: string,
  ctx: CommandContext): Promise<CommandResult> {
  const partial = partialPathFor(target.path, ctx.invocationKey);
  try {
    return await writeRun(table, shape, format, target, output, partial, ctx);
  } catch (thrown) {
    // A failed run leaves no partial file: on a full disk it would only keep the next export there failing.
    rmSync(partial, { force: true });
    throw thrown;
  }
}

async function writeRun(table: Table, shape: TableShape, format: ExportFormat, target: OutputTarget, output: string,
  partial: string, ctx: CommandContext): Promise<CommandResult> {
  const { fd, state: restored } = await openRun(table, target, partial, headerOf(format, shape.columns), ctx);
  let state = restored;
  try {
    const stopped = await eachBatch(table, state.after, await writerOf(format, shape), async (bytes, after, count) => {
      writeAt(fd, bytes, state.bytes);
      state = { after, rows: state.rows + count, bytes: state.bytes + bytes.length, ino: state.ino };
      return ctx.checkpoint(state, progressOf(state.rows, shape));
    });
    if (stopped) {
      // The target is untouched; the partial file waits for the continuation (a cancel or timeout removes it).
      const cause = ctx.stopCause() ?? Cause.Budget;
      return { exitCode: ExitCode.INCOMPLETE, data: { rows_exported: state.rows, output, partial, cause } };
    }
    // Checked again: the target may have changed since the run began (a continuation can come much later).
    const final = inspectTarget(output, ctx.cwd);
    commitPartial(fd, partial, final);
    const data = { rows: state.rows, columns: shape.columns, output, file: final.path, format, bytes: state.bytes };
    return { exitCode: ExitCode.SUCCESS, data, claim: writtenFile(final.path) };
  } finally {
    closeSync(fd);
  }
}

/** What an export needs of its call (export-command.ts declares it). */
export interface ExportInput {
  readonly positionals: { readonly table: string };
  readonly flags: { readonly output: string; readonly 'output-format': ExportFormat | undefined };
}

/** The export itself, loaded only when the command runs (start-up loads the declarations alone). */
export async function runExport(
  { positionals, flags }: ExportInput, ctx: CommandContext,
): Promise<CommandResult> {
    const format = formatOf(flags['output-format'], flags.output);
    // The target is judged before the table is even opened: a refusal costs nothing and changes nothing.
    const target = flags.output === STDOUT ? undefined : inspectTarget(flags.output, ctx.cwd);
    const table = await openTable(resolve(ctx.cwd, positionals.table), false);
    try {
      const shape = await shapeOf(table, positionals.table);
      if (!target) return await streamTable(table, shape, format, ctx);
      return await exportToFile(table, shape, format, target, flags.output, ctx);
    } finally {
      await table.close();
    }
  }
