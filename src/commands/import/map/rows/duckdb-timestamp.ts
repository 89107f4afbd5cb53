// DuckDB's cast to TIMESTAMPTZ reads less of ISO 8601 than stint's workers
// accept (see engine/worker/iso-date.ts): no lower-case t or z, no comma
// before a fraction, no leap second. Such a field is spelled the way it reads.
import { parseIsoDate } from '../../../../engine/worker/iso-date.js';

/** Just the forms DuckDB misreads: anything else goes as written (most fields are untouched). */
const MISREAD = /[tz,]|:60(?![0-9])/;

/** A timestamp field the workers accepted, as DuckDB's cast reads the same instant. */
export function duckdbTimestamp(text: string): string {
  if (!MISREAD.test(text)) return text;
  if (/:60(?![0-9])/.test(text)) {
    // A leap second is the next minute's first, as PostgreSQL reads it; its fraction is kept to the millisecond.
    return new Date(parseIsoDate(Buffer.from(text), 0, text.length)).toISOString();
  }
  const date = text.slice(0, 10);
  return `${date}T${text.slice(11).replace(',', '.').replace(/z$/, 'Z')}`;
}
