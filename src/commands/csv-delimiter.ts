// Which byte separates a file's fields: comma, tab, semicolon or pipe,
// chosen from its first records (see docs/cli.md, "The files analyze reads").

/** The delimiters a file's fields may be separated by, in the order that breaks a tie. */
export const DELIMITERS = [0x2c, 0x09, 0x3b, 0x7c] as const;
export const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
/** Records after the header that the rule looks at. */
export const SAMPLE_RECORDS = 20;

/** How each delimiter's name reads in a result and in `--delimiter`. */
export const DELIMITER_NAMES: Readonly<Record<number, string>> = {
  0x2c: ',', 0x09: '\t', 0x3b: ';', 0x7c: '|',
};

/** Per record of `bytes` (at most `limit`; empty lines left out): how often each candidate occurs outside quotes. */
function countsPerRecord(bytes: Uint8Array, limit: number): number[][] {
  const records: number[][] = [];
  let counts = DELIMITERS.map(() => 0);
  let inQuote = false;
  for (let i = 0; i < bytes.length && records.length < limit; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) inQuote = !inQuote;
    else if (inQuote) continue;
    else if (c === LF || c === CR) {
      records.push(counts);
      counts = DELIMITERS.map(() => 0);
      if (c === CR && bytes[i + 1] === LF) i++;
    } else {
      const k = DELIMITERS.indexOf(c as (typeof DELIMITERS)[number]);
      if (k >= 0) counts[k]!++;
    }
  }
  if (records.length === 0) records.push(counts); // a header without a line end
  return records.filter((record, k) => k === 0 || record.some((n) => n > 0));
}

/**
 * The rule: among the candidates that occur in the header (outside quotes),
 * prefer one that splits every sampled record into as many fields as the
 * header (consistent), then the one that makes the most header fields, then
 * the earlier of comma, tab, semicolon, pipe. A header with none of them is
 * one column, read with commas. `bytes` starts at the header and ends at a
 * record end (or the end of the input).
 */
export function detectDelimiter(bytes: Uint8Array): number {
  const records = countsPerRecord(bytes, SAMPLE_RECORDS + 1);
  const header = records[0];
  if (!header) return COMMA;
  let best = -1;
  let bestScore = -1;
  DELIMITERS.forEach((_, k) => {
    if (header[k] === 0) return;
    const consistent = records.every((record) => record[k] === header[k]);
    const score = (consistent ? 1e9 : 0) + header[k]!;
    if (score > bestScore) {
      best = k;
      bestScore = score;
    }
  });
  return best < 0 ? COMMA : DELIMITERS[best]!;
}

/** `--delimiter`'s values: each of the four by character or by name (a tab also as `\t`). */
const DELIMITER_BY_VALUE: Readonly<Record<string, number>> = {
  ',': 0x2c, comma: 0x2c, '\t': 0x09, '\\t': 0x09, tab: 0x09, ';': 0x3b, semicolon: 0x3b, '|': 0x7c, pipe: 0x7c,
};
export const DELIMITER_VALUES = Object.keys(DELIMITER_BY_VALUE);

/** `--delimiter`'s value as a byte, or undefined for a value not among DELIMITER_VALUES. */
export function parseDelimiter(text: string): number | undefined {
  return DELIMITER_BY_VALUE[text];
}
