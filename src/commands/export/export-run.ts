import { closeSync, rmSync } from 'node:fs';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import type { Progress } from '../../contract/incomplete.js';
import { StintError } from '../../contract/stint-error.js';
import { Cause } from '../../contract/vocabulary/cause.js';
import { ProgressUnit } from '../../contract/vocabulary/progress-unit.js';
import type { CommandContext, CommandResult } from '../../runtime/authoring/command-spec.js';
import { ExportFormat, formatOf, headerOf } from './export-format.js';
import type { ExportSource } from './export-source.js';
import { openSource } from './open-source.js';
import { STDOUT } from './stdout-target.js';
import { writtenFile } from './written-file.js';
import { inspectTarget, type OutputTarget } from './output-target.js';
import {
  commitPartial, createPartial, partialMatches, partialPathFor, reopenPartial, sweepStalePartials, writeAt,
  type PartialMark,
} from './partial-file.js';


/** The checkpoint: the partial file holds every row up to `after`, in `bytes` bytes. */
interface ExportState extends PartialMark {
  /** Where the last row written is in the table; absent before the first. */
  readonly after?: string;
  readonly rows: number;
}

const progressOf = (rows: number, source: ExportSource): Progress => {
  const total = source.total !== undefined && rows <= source.total ? { total: source.total } : {};
  return { done: rows, ...total, unit: ProgressUnit.Rows };
};

/** `--output -`: every row to stdout as it is read (no budget applies: a pipe cannot pause). */
async function streamTable(source: ExportSource, format: ExportFormat, ctx: CommandContext): Promise<CommandResult> {
  const write = ctx.stdout;
  if (!write) throw new StintError(ErrorCode.InternalError, 'export --output - ran without the stdout stream');
  await write(headerOf(format, source.columns));
  let rows = 0;
  for await (const batch of source.batches(format, undefined)) {
    await write(batch.bytes.toString());
    rows += batch.rows;
    ctx.progress(rows, source.total, ProgressUnit.Rows);
  }
  return { exitCode: ExitCode.SUCCESS, data: { rows, columns: source.columns, output: STDOUT, format } };
}

/** The partial file of this run, continued from the checkpoint when it still matches, else begun anew. */
async function openRun(source: ExportSource, target: OutputTarget, partial: string, header: string,
  ctx: CommandContext): Promise<{ fd: number; state: ExportState }> {
  const fingerprint = { table: await source.version(), target: target.path };
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
async function exportToFile(source: ExportSource, format: ExportFormat, target: OutputTarget, output: string,
  ctx: CommandContext): Promise<CommandResult> {
  const partial = partialPathFor(target.path, ctx.invocationKey);
  try {
    return await writeRun(source, format, { target, output, partial }, ctx);
  } catch (thrown) {
    // A failed run leaves no partial file: on a full disk it would only keep the next export there failing.
    rmSync(partial, { force: true });
    throw thrown;
  }
}

/** Writes the rows after the checkpoint's into the partial file, a checkpoint per read batch. */
async function writeBatches(source: ExportSource, format: ExportFormat, fd: number, from: ExportState,
  ctx: CommandContext): Promise<{ state: ExportState; stopped: boolean }> {
  let state = from;
  for await (const batch of source.batches(format, state.after)) {
    writeAt(fd, batch.bytes, state.bytes);
    const { rows, bytes } = state;
    state = { after: batch.last, rows: rows + batch.rows, bytes: bytes + batch.bytes.length, ino: state.ino };
    if (await ctx.checkpoint(state, progressOf(state.rows, source))) return { state, stopped: true };
  }
  return { state, stopped: false };
}

async function writeRun(source: ExportSource, format: ExportFormat,
  files: { target: OutputTarget; output: string; partial: string }, ctx: CommandContext): Promise<CommandResult> {
  const { target, output, partial } = files;
  const { fd, state: restored } = await openRun(source, target, partial, headerOf(format, source.columns), ctx);
  try {
    const { state, stopped } = await writeBatches(source, format, fd, restored, ctx);
    if (stopped) {
      // The target is untouched; the partial file waits for the continuation (a cancel or timeout removes it).
      const cause = ctx.stopCause() ?? Cause.Budget;
      return { exitCode: ExitCode.INCOMPLETE, data: { rows_exported: state.rows, output, partial, cause } };
    }
    // Checked again: the target may have changed since the run began (a continuation can come much later).
    const final = inspectTarget(output, ctx.cwd);
    commitPartial(fd, partial, final);
    const data = { rows: state.rows, columns: source.columns, output, file: final.path, format, bytes: state.bytes };
    return { exitCode: ExitCode.SUCCESS, data, claim: writtenFile(final.path) };
  } finally {
    closeSync(fd);
  }
}

/** What an export needs of its call (export-command.ts declares it). */
export interface ExportInput {
  readonly positionals: { readonly table: string };
  readonly flags: {
    readonly output: string;
    readonly 'output-format': ExportFormat | undefined;
    readonly table: string | undefined;
  };
}

/** The export itself, loaded only when the command runs (start-up loads the declarations alone). */
export async function runExport(
  { positionals, flags }: ExportInput, ctx: CommandContext,
): Promise<CommandResult> {
    const format = formatOf(flags['output-format'], flags.output);
    // The target is judged before the table is even opened: a refusal costs nothing and changes nothing.
    const target = flags.output === STDOUT ? undefined : inspectTarget(flags.output, ctx.cwd);
    const source = await openSource(positionals.table, flags.table, ctx.cwd);
    try {
      if (!target) return await streamTable(source, format, ctx);
      return await exportToFile(source, format, target, flags.output, ctx);
    } finally {
      await source.close();
    }
  }
