import { rmSync } from 'node:fs';
import { openByteSource } from '../../engine/worker/byte-source.js';
import { ProgressUnit } from '../../contract/vocabulary/progress-unit.js';
import { CHECKPOINT_FORMAT, openCheckpointStore } from '../../runtime/storage/checkpoint-store.js';
import { map as analyzeMap } from '../analyze/map/csv-stats-map.js';
import { readCsvHeader } from '../csv-header.js';

const MiB = 1024 * 1024;

/** Analyze's checkpoint state after one 4 MiB chunk of the file: what each of its checkpoint writes holds. */
function analyzeState(path: string): unknown {
  const source = openByteSource(path);
  const header = readCsvHeader(path, source.size, MiB);
  const bytes = Buffer.alloc(4 * MiB);
  const length = source.read(bytes, 0, bytes.length, header.dataStart);
  source.close();
  const end = bytes.lastIndexOf(10, length - 1) + 1;
  const info = { start: header.dataStart, end: header.dataStart + end, options: { width: header.names.length } };
  const stats = analyzeMap(bytes.subarray(0, end), info);
  return { fileIndex: 0, finished: [], current: { header, stats, watermark: { offset: info.end, line: 1000 } } };
}

/** A checkpoint store holding analyze's state, and a function that writes one checkpoint of it. */
export async function checkpointWriter(path: string, folder: string) {
  const state = analyzeState(path);
  const store = await openCheckpointStore(folder);
  let k = 0;
  const fingerprint = [{ size: 1, mtimeMs: 1, ino: 1 }];
  return {
    write: () => {
      const progress = { done: ++k, unit: ProgressUnit.Bytes };
      // Outside any call (no Host): the benchmark writes a record as a call would, with the machine's time.
      return store.save({ version: CHECKPOINT_FORMAT, fingerprint, progress, state, savedAt: Date.now() });
    },
    close: async () => {
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
