import type { CsvHeader } from '../csv-header.js';
import type { Watermark } from '../../engine/chunked-run.js';
import { levelSink } from '../../engine/sinks/level-sink.js';
import type { Sink } from '../../engine/sinks/sink.js';
import type { SpanWriter } from './import-fold.js';
import { rangeDigest } from './map/import-ledger.js';
import { openByteSource } from '../../engine/worker/byte-source.js';
import { RECORD_FORMAT, type ImportCheckpoint, type ImportState, type SavedState } from './import-records.js';
import { encodeId, TableKey } from './table-store.js';
import type { ImportTarget, TargetBatch } from './target/import-target.js';

/** The target an import writes, with the codec of its records. */
export interface ImportStore {
  readonly target: ImportTarget;
  readonly pack: (value: unknown) => Uint8Array;
  readonly unpack: (bytes: Uint8Array) => unknown;
}

/** One run into the table: its key, the input it reads, and where it resumes (as findPrior decided). */
export interface ImportRun extends ImportStore {
  readonly idem: string;
  readonly argumentsDigest: string;
  readonly fingerprint: unknown;
  /** The input's absolute path: its header is the ledger's first span. */
  readonly absolute: string;
  readonly header: CsvHeader;
  readonly sync: boolean;
  /** The committed rows this run continues after: a paused run's, or a finished run's whose file grew. */
  readonly resumed: { readonly watermark: Watermark; readonly state: SavedState } | undefined;
}

/** The import's sink; `started` says whether the run's header span and columns are in the table yet. */
export interface ImportSink extends Sink<ImportState> {
  started(): boolean;
}

/** The ledger's writer: a chunk's span, under the run's key, in the batch that commits its rows. */
export function spanWriter(idem: string, pack: (value: unknown) => Uint8Array): SpanWriter {
  return (batch, start, end, digest) => batch.put(TableKey.span(idem, start), pack({ end, digest }));
}

/** The header is the ledger's first span: a file with another header is other bytes. */
export function putHeaderSpan(run: Pick<ImportRun, 'idem' | 'pack' | 'absolute' | 'header'>, batch: TargetBatch): void {
  const { dataStart } = run.header;
  spanWriter(run.idem, run.pack)(batch, 0, dataStart, headerDigest(run.absolute, dataStart));
}

/**
 * An import's commits, through the LevelDB sink: a chunk's rows (and its
 * ledger span, staged in `pending`), the next id, and the run's checkpoint
 * in one batch. It resumes where findPrior found the committed rows end:
 * by content, when only the file's metadata changed.
 */
export function importSink(run: ImportRun): ImportSink {
  let started = run.resumed !== undefined;
  const input = JSON.stringify(run.fingerprint);
  const sink = levelSink<ImportState>({
    db: run.target,
    markKey: TableKey.checkpoint(run.idem),
    sync: run.sync,
    staged(state) {
      const batch = state.pending ?? run.target.batch();
      state.pending = undefined;
      batch.put(TableKey.NextId, encodeId(state.nextId));
      if (!started) {
        putHeaderSpan(run, batch);
        batch.put(TableKey.Columns, run.pack(run.header.names));
      }
      started = true;
      return batch;
    },
    encode({ watermark, state }) {
      const { pending: _, ...saved } = state;
      const { argumentsDigest, fingerprint, header } = run;
      const record: ImportCheckpoint = {
        version: RECORD_FORMAT, argumentsDigest, fingerprint, watermark, header, state: saved,
      };
      return run.pack(record);
    },
    decode(bytes) {
      const record = run.unpack(bytes) as ImportCheckpoint;
      const state = { ...record.state, pending: undefined };
      return { watermark: record.watermark, state, input: JSON.stringify(record.fingerprint) };
    },
  });
  const resumed = run.resumed && { ...run.resumed, state: { ...run.resumed.state, pending: undefined }, input };
  return { resume: () => Promise.resolve(resumed), commit: (mark) => sink.commit(mark), started: () => started };
}

/** The digest of the header's bytes, read once at the start of a run. */
function headerDigest(path: string, dataStart: number): Uint8Array {
  const source = openByteSource(path);
  try {
    return rangeDigest(source, 0, dataStart);
  } finally {
    source.close();
  }
}
