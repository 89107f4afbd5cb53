/** Column types in the result (its own file: the output schema names them without loading the statistics). */
export const ColumnType = {
  Integer: 'integer',
  Number: 'number',
  Boolean: 'boolean',
  String: 'string',
  Empty: 'empty',
  Date: 'date',
  Timestamp: 'timestamp',
} as const;
export type ColumnType = (typeof ColumnType)[keyof typeof ColumnType];
