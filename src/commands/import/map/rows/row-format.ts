// The form a worker writes a chunk's rows in: what the import's target loads
// as it is, so that the main thread, which commits one chunk after another,
// only copies them. SQLite's writer is the main thread itself: each byte it
// does not convert there is a byte of the import's pace.

export const RowFormat = {
  /** Arrays of strings (nil for an empty field of a typed table): LevelDB's rows, and any keyed import's. */
  MessagePack: 'msgpack',
  /** PostgreSQL's COPY text lines (copy-text-row.ts). */
  CopyText: 'copy-text',
  /** SQLite's JSONB arrays of a row's fields, without its id (jsonb-rows.ts). */
  Jsonb: 'jsonb',
  /** A Parquet file of the chunk's rows, every column text (duckdb-parquet-rows.ts). */
  DuckDbParquet: 'duckdb-parquet',
} as const;
export type RowFormat = (typeof RowFormat)[keyof typeof RowFormat];
