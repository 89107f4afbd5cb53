import type { CsvHeader } from '../csv-header.js';
import { levelSink } from '../../engine/level-sink.js';
import type { Sink } from '../../engine/sink.js';
import { RECORD_FORMAT, type ImportCheckpoint, type ImportState } from './import-records.js';
import { TableKey, type Table } from './table-store.js';

export interface ImportRun {
  readonly table: Table;
  readonly idem: string;
  readonly argumentsDigest: string;
  readonly fingerprint: unknown;
  readonly header: CsvHeader;
  readonly sync: boolean;
  readonly pack: (value: unknown) => Uint8Array;
  readonly unpack: (bytes: Uint8Array) => unknown;
}

/**
 * An import's commits, through the LevelDB sink: a chunk's rows (and its
 * ledger span, staged in `pending`) and the run's checkpoint in one batch.
 */
export function importSink(run: ImportRun): Sink<ImportState> {
  return levelSink<ImportState>({
    db: run.table,
    markKey: TableKey.checkpoint(run.idem),
    sync: run.sync,
    staged: (state) => state.pending,
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
}
