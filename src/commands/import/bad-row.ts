import { BadRecord } from '../../engine/csv-records.js';

/** Why a row was not imported (Unresolved.code of a bad row). */
export const BadRow = {
  ...BadRecord,
  FieldCount: 'field_count',
  MissingKey: 'missing_key',
} as const;
export type BadRow = (typeof BadRow)[keyof typeof BadRow];

export const BAD_ROW_MESSAGE: Readonly<Record<BadRow, string>> = {
  [BadRow.UnterminatedQuote]: 'a quoted field is not closed',
  [BadRow.TextAfterQuote]: 'characters follow a closing quote',
  [BadRow.QuoteInUnquotedField]: 'a quote inside an unquoted field',
  [BadRow.InvalidUtf8]: 'the row is not valid UTF-8',
  [BadRow.FieldCount]: "the row's field count differs from the header's",
  [BadRow.MissingKey]: 'the --key column is empty',
};
