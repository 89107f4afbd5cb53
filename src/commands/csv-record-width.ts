import { findRecordStart, type ScanState } from '../engine/worker/framing.js';
import type { CsvHeader } from './csv-header.js';
import { sampleOf, withPrefix } from './csv-prefix.js';

/**
 * The records looked at: those in this many bytes after the header. A fixed span of the input's own bytes (its
 * decompressed ones when gzip), so the same records give the same width from a file, its gzip or its spool.
 */
export const RECORD_SAMPLE_BYTES = 64 * 1024;

/**
 * The mean bytes of a record among the first after the header (a record longer than the sample: the sample's
 * length, a bound below); 0 when the input holds no record past its header.
 */
export function meanRecordBytes(path: string, size: number, header: CsvHeader, gzip: boolean, label = path): number {
  const wanted = header.dataStart + RECORD_SAMPLE_BYTES;
  const { bytes } = withPrefix(path, size, label, gzip, (prefix) => sampleOf(prefix, wanted, header.crLineEnds));
  // Fewer bytes than asked: the input ended inside the sample, and its last record may end without a line end.
  const ended = bytes.length < wanted;
  const end = Math.min(bytes.length, wanted);
  const state: ScanState = { inQuote: false, newlines: 0 };
  let records = 0;
  let lastEnd = header.dataStart;
  for (;;) {
    const next = findRecordStart(bytes, lastEnd, end, state, true);
    if (next < 0) break;
    records++;
    lastEnd = next;
  }
  if (ended && end > lastEnd) return (end - header.dataStart) / (records + 1);
  return records === 0 ? end - header.dataStart : (lastEnd - header.dataStart) / records;
}
