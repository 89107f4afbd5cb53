import type { Fold, FoldChunk } from '../../engine/chunked-run.js';
import type { BadRow } from './map/bad-row.js';
import type { ImportChunk } from './map/import-map.js';
import type { ImportState } from './import-records.js';
import { OnBadRow } from './on-bad-row.js';
import { releaseSlot } from './map/row-slots.js';
import type { ImportTarget, TargetBatch } from './target/import-target.js';


/** Records a chunk's span in the ledger, in the batch that commits its rows. */
export type SpanWriter = (batch: TargetBatch, start: number, end: number, digest: Uint8Array) => void;

const BAD_SAMPLE_LIMIT = 100;
const RANGE_LIMIT = 1000;

/** A row not imported: counted, sampled for the answer, and put in the target's rejects (in the chunk's batch). */
function noteBad(state: ImportState, line: number, reason: BadRow, batch?: TargetBatch, column?: number): void {
  batch?.reject(line, reason, column);
  state.badCount++;
  state.rangeOpen = false;
  if (state.badSample.length < BAD_SAMPLE_LIMIT) {
    state.badSample.push(column === undefined ? { line, reason } : { line, reason, column });
  }
}

/** Imported rows `firstLine`..`lastLine` (ids `firstId`..`lastId`) extend the open range or start one. */
function noteRun(
  state: ImportState, firstLine: number, lastLine: number, rows: number, firstId: number, lastId: number,
): void {
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

/** The ids the keys of the chunk's first `stopAt` rows already have in the table. */
function knownIds(target: ImportTarget, keys: readonly string[], stopAt: number): Promise<Map<string, number>> {
  return target.keyIds([...new Set(keys.slice(0, stopAt))]);
}

/** Row `r` of the chunk: a view over its one buffer (the constructor is about twice as fast as subarray). */
function rowView(partial: ImportChunk): (r: number) => Uint8Array {
  const { buffer, byteOffset } = partial.packed;
  return (r) => {
    const start = r === 0 ? 0 : partial.ends[r - 1]!;
    return new Uint8Array(buffer, byteOffset + start, partial.ends[r]! - start);
  };
}

/**
 * The file's line on which the record before the chunk's `next`-th good row ends (a record may span lines):
 * the line before the next record (a bad one noted before that row, or that row), else the chunk's last line.
 */
function endLineBefore(chunk: FoldChunk<ImportChunk>, next: number, badIndex: number): number {
  const { partial } = chunk;
  const bad = partial.bad[badIndex];
  if (bad !== undefined && bad.before === next) return chunk.line + bad.line - 1;
  if (next < partial.rows) return chunk.line + partial.lines[next]! - 1;
  // The chunk's last line: the one its last newline ends (a last record without one ends a line further).
  return Math.max(chunk.line + partial.lines[next - 1]!, chunk.line + chunk.newlines - 1);
}

/** What one chunk's rows are staged into: its batch (none in a dry run), the known ids of its keys. */
interface Staging {
  readonly batch: TargetBatch | undefined;
  readonly existing: Map<string, number>;
  readonly keyed: boolean;
  /** The rows past this one are not staged (the first bad one, with --on-bad-row fail). */
  readonly stopAt: number;
}

/** Stages the chunk's good rows before `stopAt` and notes the bad ones among them; answers the bad rows noted. */
function stageRows(state: ImportState, chunk: FoldChunk<ImportChunk>, staging: Staging): number {
  const { partial } = chunk;
  const { batch, existing, keyed, stopAt } = staging;
  const rowBytes = rowView(partial);
  let badIndex = 0;
  let r = 0;
  while (r < stopAt) {
    while (badIndex < partial.bad.length && partial.bad[badIndex]!.before <= r) {
      const bad = partial.bad[badIndex++]!;
      noteBad(state, chunk.line + bad.line, bad.reason, batch, bad.column);
    }
    // The good rows up to the next bad one: a run of lines, and (appending) of consecutive ids.
    const end = Math.min(stopAt, badIndex < partial.bad.length ? partial.bad[badIndex]!.before : stopAt);
    const firstId = state.nextId;
    if (keyed) {
      for (let q = r; q < end; q++) {
        const key = partial.keys![q]!;
        const known = existing.get(key);
        const id = known ?? state.nextId++;
        if (known === undefined) existing.set(key, id);
        batch?.putKeyed(key, id, known === undefined, rowBytes(q));
        noteRun(state, chunk.line + partial.lines[q]!, endLineBefore(chunk, q + 1, badIndex), 1, id, id);
      }
    } else {
      batch?.putRows(firstId, { bytes: partial.packed, ends: partial.ends, from: r, to: end });
      state.nextId = firstId + end - r;
      noteRun(state, chunk.line + partial.lines[r]!, endLineBefore(chunk, end, badIndex), end - r, firstId,
        state.nextId - 1);
    }
    r = end;
  }
  return badIndex;
}

/**
 * The main-side fold: give each good row its id in file order (or the id
 * its key already has) and stage the puts; the safe point commits them with
 * the checkpoint in one batch.
 */
export function importFold(
  target: ImportTarget | undefined, keyed: boolean, onBadRow: OnBadRow, span: SpanWriter | undefined,
): Fold<ImportChunk, ImportState> {
  return async function* (chunks, state) {
    for await (const chunk of chunks) {
      const { partial } = chunk;
      const batch = target?.batch();
      if (batch && span) span(batch, chunk.start, chunk.end, partial.digest);
      const stopAt = onBadRow === OnBadRow.Fail && partial.bad.length > 0 ? partial.bad[0]!.before : partial.rows;
      const existing = keyed && target && partial.keys
        ? await knownIds(target, partial.keys, stopAt)
        : new Map<string, number>();
      let badIndex = stageRows(state, chunk, { batch, existing, keyed, stopAt });
      // The batch holds copies of the rows: the worker may pack another chunk into their slot.
      releaseSlot(partial.slot);
      state.pending = batch;
      if (onBadRow === OnBadRow.Fail && partial.bad.length > 0) {
        const bad = partial.bad[0]!;
        noteBad(state, chunk.line + bad.line, bad.reason, batch, bad.column);
        state.failed = { line: chunk.line + bad.line, reason: bad.reason };
        yield state;
        return state;
      }
      for (; badIndex < partial.bad.length; badIndex++) {
        const bad = partial.bad[badIndex]!;
        noteBad(state, chunk.line + bad.line, bad.reason, batch, bad.column);
      }
      yield state;
    }
    return state;
  };
}
