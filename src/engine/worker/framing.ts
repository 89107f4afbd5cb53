/** How an input is cut into records. */
export const Framing = {
  /** Records end at a newline outside double quotes (RFC 4180: quoted fields may hold newlines). */
  Csv: 'csv',
  /** Records end at every newline. */
  Lines: 'lines',
  /** No records: chunks are plain byte ranges. */
  Bytes: 'bytes',
} as const;
export type Framing = (typeof Framing)[keyof typeof Framing];

const QUOTE = 0x22;
const NEWLINE = 0x0a;

/** What a framing scan found: where it stopped, in which quote state, and how many newlines it passed. */
export interface ScanState {
  inQuote: boolean;
  newlines: number;
}

/**
 * Advances over bytes[from, to) tracking quote parity and counting newlines.
 * Doubled quotes toggle twice, so parity alone tells inside from outside.
 */
export function scanParity(bytes: Uint8Array, from: number, to: number, state: ScanState, quoted: boolean): void {
  let inQuote = state.inQuote;
  let newlines = state.newlines;
  if (quoted) {
    for (let i = from; i < to; i++) {
      const c = bytes[i];
      if (c === QUOTE) inQuote = !inQuote;
      else if (c === NEWLINE) newlines++;
    }
  } else {
    for (let i = from; i < to; i++) if (bytes[i] === NEWLINE) newlines++;
  }
  state.inQuote = inQuote;
  state.newlines = newlines;
}

/**
 * From `from`, finds the first newline outside quotes and returns the index
 * just past it (the next record's start), or -1 when bytes[from, to) has none.
 * Updates `state` over the bytes it passed.
 */
export function findRecordStart(
  bytes: Uint8Array, from: number, to: number, state: ScanState, quoted: boolean,
): number {
  let inQuote = state.inQuote;
  for (let i = from; i < to; i++) {
    const c = bytes[i];
    if (quoted && c === QUOTE) inQuote = !inQuote;
    else if (c === NEWLINE) {
      state.newlines++;
      if (!inQuote) {
        state.inQuote = false;
        return i + 1;
      }
    }
  }
  state.inQuote = inQuote;
  return -1;
}

/** The longest record a run reads by default before it calls the record malformed (usually an unterminated quote). */
export const DEFAULT_MAX_RECORD_BYTES = 64 * 1024 * 1024;
