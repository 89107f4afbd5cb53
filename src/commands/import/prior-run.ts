import { isDeepStrictEqual } from 'node:util';
import { ErrorCode } from '../../contract/error-code.js';
import { StintCode } from '../stint-codes.js';
import { StintError } from '../../contract/stint-error.js';
import type { Watermark } from '../../engine/chunked-run.js';
import { matchLedger, type LedgerSpan } from './map/import-ledger.js';
import type { ImportCheckpoint, RunRecord, SavedState } from './import-records.js';
import { TableKey } from './table-store.js';
import type { ImportTarget } from './target/import-target.js';

/** What the table already holds of this import, and so where this call begins. */
export type PriorRun =
  /** Nothing: import from the first record. `stale` names an earlier run of other bytes to forget first. */
  | { readonly kind: 'none'; readonly stale: boolean }
  /** The same bytes were imported to the end: answer that run again, writing nothing. */
  | { readonly kind: 'replay'; readonly record: RunRecord }
  /** Rows up to the watermark are committed (a paused run, or a finished one whose file grew): go on from there. */
  | { readonly kind: 'continue'; readonly watermark: Watermark; readonly state: SavedState };

export interface PriorQuery {
  readonly target: ImportTarget;
  readonly unpack: (bytes: Uint8Array) => unknown;
  readonly idem: string;
  readonly keyGiven: boolean;
  readonly argumentsDigest: string;
  readonly fingerprint: unknown;
  /** The input as it is now. */
  readonly path: string;
  readonly absolute: string;
  readonly size: number;
}

/**
 * Finds the earlier run under this idempotency key and decides, by content
 * when size or mtime changed, whether this call replays it, continues it or
 * starts anew. A paused run never continues over other bytes, and an
 * explicit key never names two inputs.
 */
export async function findPrior(q: PriorQuery): Promise<PriorRun> {
  const saved = await read<ImportCheckpoint>(q, TableKey.checkpoint(q.idem));
  const run = await read<RunRecord>(q, TableKey.run(q.idem));
  const prior = saved ?? run;
  if (!prior) return { kind: 'none', stale: false };
  if (prior.argumentsDigest !== q.argumentsDigest) throw reused(q.idem);
  const match = await matchInput(q, prior);
  if (match.kind === 'extended') throw inputChanged(q.path, 'the last row imported from it runs on with new bytes');
  if (match.kind === 'differs') {
    if (saved) throw inputChanged(q.path, 'other bytes than when this import paused; going on would mix two files');
    if (q.keyGiven) throw reused(q.idem);
    return { kind: 'none', stale: true };
  }
  if (saved) return { kind: 'continue', watermark: saved.watermark, state: saved.state };
  if (!run!.watermark || run!.watermark.offset >= q.size) return replayIfHeld(q, run!);
  return { kind: 'continue', watermark: run!.watermark, state: run!.state };
}

/**
 * A finished run is answered again only while the table still holds the rows it claims: the first and last
 * of each of its ranges (point reads; ids are never reused, and no import deletes a row). None there (the rows
 * were cleared) makes this a new run, which puts them back once; some there refuses, since importing again
 * would double the rest.
 */
async function replayIfHeld(q: PriorQuery, record: RunRecord): Promise<PriorRun> {
  const ranges = record.state?.ranges ?? [];
  const ids = ranges.flatMap((range) => [range.firstId, range.lastId]);
  const found = await q.target.heldRows(ids);
  if (found === ids.length) return { kind: 'replay', record };
  if (found === 0) return { kind: 'none', stale: true };
  throw new StintError(StintCode.TableUnreadable, 'the table lost some of the rows this import put there', {
    context: { idempotency_key: q.idem },
    fix_required: 'Restore the table from a copy, or import into a new --into folder (importing again here '
      + 'would double the rows that are left)',
  });
}

/** A record the table holds; a garbled one stops the call, since guessing could import rows twice. */
async function read<T>(q: PriorQuery, key: string): Promise<T | undefined> {
  const bytes = await q.target.get(key);
  if (!bytes) return undefined;
  try {
    const record = q.unpack(bytes) as T & { argumentsDigest?: unknown };
    if (typeof record?.argumentsDigest === 'string') return record;
  } catch {
    // reported below
  }
  throw new StintError(StintCode.TableUnreadable, `the table's record ${key} is unreadable`, {
    context: { key },
    fix_required: 'Restore the table from a copy, or import into a new --into folder',
  });
}

/** Unchanged metadata is trusted; otherwise the recorded spans are read back and compared. */
async function matchInput(q: PriorQuery, prior: ImportCheckpoint | RunRecord) {
  if (isDeepStrictEqual(prior.fingerprint, q.fingerprint)) return { kind: 'same' as const };
  return matchLedger(q.absolute, q.size, spansOf(q));
}

async function* spansOf(q: PriorQuery): AsyncGenerator<LedgerSpan> {
  const prefix = TableKey.spanPrefix(q.idem);
  for await (const entries of q.target.entries(prefix)) {
    for (const [key, value] of entries) {
      const { end, digest } = q.unpack(value) as { end: number; digest: Uint8Array };
      yield { start: Number(key.slice(prefix.length)), end, digest };
    }
  }
}

/** Deletes the table's record of an earlier run of other bytes (its rows stay: they were imported). */
export async function forgetRun(target: ImportTarget, idem: string, sync: boolean): Promise<void> {
  const batch = target.batch();
  for await (const entries of target.entries(TableKey.spanPrefix(idem))) for (const [key] of entries) batch.del(key);
  batch.del(TableKey.run(idem));
  await batch.write(sync);
}

export function reused(key: string): StintError {
  // The working directory is part of a call's identity: relative names mean other files elsewhere.
  const message = `idempotency key ${key} was used for another import (other arguments, another input, or run `
    + 'from another directory)';
  return new StintError(ErrorCode.IdempotencyKeyReused, message, {
    context: { idempotency_key: key },
    fix_required: 'Use a new --idempotency-key for a new import, or repeat the original arguments and file from '
      + 'the directory the import started in',
  });
}

/** INPUT_CHANGED: the file no longer holds the bytes the committed rows came from. */
function inputChanged(path: string, how: string): StintError {
  return new StintError(ErrorCode.InputChanged, `${path} changed: ${how}`, {
    context: { path },
    fix_required: 'Restore the file, or import it as a new run with a new --idempotency-key (committed rows stay)',
  });
}
