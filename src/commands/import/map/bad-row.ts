import { BAD_RECORD_MESSAGE, BadRecord } from '../../../engine/worker/csv-records.js';

/** Why a row was not imported (Unresolved.code of a bad row). */
export const BadRow = {
  ...BadRecord,
  FieldCount: 'field_count',
  MissingKey: 'missing_key',
  TypeMismatch: 'type_mismatch',
} as const;
export type BadRow = (typeof BadRow)[keyof typeof BadRow];

export const BAD_ROW_MESSAGE: Readonly<Record<BadRow, string>> = {
  ...BAD_RECORD_MESSAGE,
  [BadRow.FieldCount]: "the row's field count differs from the header's",
  [BadRow.MissingKey]: 'the --key column is empty',
  [BadRow.TypeMismatch]: "a field does not fit its column's type",
};
