// An import into a table of a DuckDB file (@duckdb/node-api, loaded only
// here). A chunk's rows are written to a staging file beside the database
// (the workers' Parquet file; an upsert's rows as CSV), which DuckDB's own
// reader loads into the table, in one transaction with its rejected rows
// and the run's records (kept in stint_import_state in the same file), so a
// kill leaves all of a chunk or none and the identical call resumes from it.
import { rmSync, writeFileSync } from 'node:fs';
import { SqlType } from '../map/sql-type.js';
import { TableKey } from '../table-store.js';
import { appendRun, type ColumnPlan, type ImportTarget, type TargetBatch } from './import-target.js';
import { RowFormat } from '../map/rows/row-format.js';
import { checkTable, quote, rejectsTable, STATE_TABLE, type ExistingTable, type SqlDialect } from './sql-table.js';
import { duckdbError, loadDuckDb, type DuckConnection, type DuckDriver } from './duckdb-driver.js';
import { PackedOutput } from '../../../engine/worker/packed-output.js';
import { appendDuckCsvRow } from '../map/rows/duckdb-csv-rows.js';
import { parquetColumnName } from '../map/rows/parquet/parquet-file.js';
import { DECIMAL_DIGITS, TargetKind } from './target-address.js';

const DUCKDB_TYPE: Readonly<Record<SqlType, string>> = {
  [SqlType.Integer]: 'BIGINT',
  [SqlType.Decimal]: 'DOUBLE',
  [SqlType.Boolean]: 'BOOLEAN',
  [SqlType.Date]: 'DATE',
  // With the session in UTC, a time without a zone is read as UTC, as analyze reads it.
  [SqlType.Timestamp]: 'TIMESTAMPTZ',
  [SqlType.Text]: 'VARCHAR',
};

/** A column's type read back from duckdb_columns().data_type. */
function declaredType(declared: string): SqlType {
  if (/^(U?(TINY|SMALL|BIG|HUGE)?INT|INTEGER)/.test(declared)) return SqlType.Integer;
  if (/^(DOUBLE|FLOAT|REAL|DECIMAL)/.test(declared)) return SqlType.Decimal;
  if (declared === 'BOOLEAN') return SqlType.Boolean;
  if (declared === 'DATE') return SqlType.Date;
  if (declared.startsWith('TIMESTAMP')) return SqlType.Timestamp;
  return SqlType.Text;
}

/** The types whose columns the workers write in DuckDB's own type, when the table declares just that one. */
const NATIVE_TYPES: ReadonlySet<SqlType> = new Set([SqlType.Integer, SqlType.Decimal, SqlType.Boolean]);

export const DUCKDB_DIALECT: SqlDialect = { declare: (type) => DUCKDB_TYPE[type], read: declaredType };

/**
 * Where a commit's rows wait for DuckDB's reader: beside the database (one writer holds it at a time), left by a
 * kill at worst, and written over by the next commit.
 */
const stagingFile = (path: string, extension: string) => `${path}.stint-rows.${extension}`;

/** A file's name as a string literal of DuckDB's SQL. */
const literal = (file: string) => `'${file.replaceAll("'", "''")}'`;

/** DuckDB's reader's longest line by default; a commit with a longer row raises it to fit. */
const LINE_BYTES = 1 << 21;

/** Opens (or creates) the DuckDB file, in UTC, with the table of the run's records. */
export async function duckdbTarget(path: string, table: string, idem: string): Promise<ImportTarget> {
  const driver = loadDuckDb();
  const instance = await driver.open(path);
  let connection: DuckConnection | undefined;
  try {
    connection = await instance.connect();
    await connection.run("SET TimeZone = 'UTC'");
    // Two threads store a commit's rows: with the workers' Parquet written by WebAssembly, the one worker (the
    // default of --workers on 2 cores) leaves a core idle half the time. The bench's 1 GiB file on 2 cores took
    // 21.2 and 22.8 s with two threads, 24.8 and 25.6 s with one, in alternating runs. (While the workers wrote
    // their rows in JavaScript, a second thread lost: 29.3 s against 26.6 s.)
    await connection.run('SET threads = 2');
    // Every commit's staging file has the same name: DuckDB's cache of files it read would serve the last
    // commit's bytes for a new file written within the same second ("Out of buffer" at best).
    await connection.run('SET enable_external_file_cache = false');
    // No key: DuckDB checks a key eagerly, and a record is deleted and written again in one transaction.
    await connection.run(`CREATE TABLE IF NOT EXISTS ${STATE_TABLE} (tbl VARCHAR NOT NULL, key VARCHAR NOT NULL,`
      + ' value BLOB NOT NULL)');
  } catch (error) {
    connection?.closeSync();
    instance.closeSync();
    throw duckdbError(error, path);
  }
  return new DuckDbTarget(driver, connection, () => instance.closeSync(), path, table, idem);
}

class DuckDbTarget implements ImportTarget {
  readonly decimalDigits = DECIMAL_DIGITS[TargetKind.DuckDb];
  readonly rowFormat = RowFormat.DuckDbParquet;
  plan: ColumnPlan | undefined;
  /** The timestamp columns: DuckDB's cast misreads some of their spellings, which are respelled. */
  timestamps: boolean[] = [];
  nativeColumns: boolean[] = [];
  /** Row buffers of batches that were written, for the next ones. */
  readonly spareRows: PackedOutput[] = [];

  constructor(
    readonly driver: DuckDriver, readonly db: DuckConnection, readonly closeFile: () => void,
    readonly path: string, readonly table: string, readonly idem: string,
  ) {}

  async query(sql: string, values?: readonly unknown[]): Promise<unknown[][]> {
    try {
      return (await this.db.runAndReadAll(sql, values)).getRows();
    } catch (error) {
      throw duckdbError(error, this.path);
    }
  }

  async open(plan: ColumnPlan): Promise<readonly SqlType[]> {
    const existing = await this.existing();
    const checked = checkTable(DUCKDB_DIALECT, this.table, plan, existing);
    await this.transaction(async () => {
      for (const statement of checked.create) await this.db.run(statement);
    });
    this.plan = plan;
    this.timestamps = checked.types.map((type) => type === SqlType.Timestamp);
    this.nativeColumns = checked.types.map((type, k) => NATIVE_TYPES.has(type)
      && (existing?.declared.get(plan.names[k]!) ?? DUCKDB_TYPE[type]) === DUCKDB_TYPE[type]);
    return checked.types;
  }

  /** The table as DuckDB describes it (and each column's type as declared), or undefined when it is new. */
  private async existing(): Promise<ExistingTable & { declared: Map<string, string> } | undefined> {
    const named = 'WHERE table_name = ? AND database_name = current_database() AND schema_name = current_schema()';
    const columns = await this.query(`SELECT column_name, data_type FROM duckdb_columns() ${named}`
      + ' ORDER BY column_index', [this.table]);
    if (columns.length === 0) return undefined;
    const constraints = await this.query('SELECT constraint_column_names[1] FROM duckdb_constraints() '
      + `${named} AND constraint_type IN ('UNIQUE', 'PRIMARY KEY') AND len(constraint_column_names) = 1`,
    [this.table]);
    const indexes = await this.query(`SELECT expressions FROM duckdb_indexes() ${named} AND is_unique`, [this.table]);
    const indexed = indexes.map(([expressions]) => String(expressions).replace(/^\[(.*)\]$/, '$1'))
      .filter((column) => !column.includes(',')).map((column) => column.replace(/^"(.*)"$/, '$1'));
    return {
      declared: new Map(columns.map(([name, type]) => [String(name), String(type)])),
      columns: columns.map(([name, type]) => ({ name: String(name), type: declaredType(String(type)) })),
      unique: new Set([...constraints.map(([column]) => String(column)), ...indexed]),
    };
  }

  /** `work` in one transaction; a failure rolls it back (as does a kill: DuckDB replays only what committed). */
  async transaction(work: () => Promise<void>): Promise<void> {
    try {
      await this.db.run('BEGIN TRANSACTION');
      await work();
      await this.db.run('COMMIT');
    } catch (error) {
      await this.db.run('ROLLBACK').catch(() => undefined);
      throw duckdbError(error, this.path);
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const found = await this.query(`SELECT value FROM ${STATE_TABLE} WHERE tbl = ? AND key = ?`, [this.table, key]);
    return (found[0]?.[0] as { bytes: Uint8Array } | undefined)?.bytes;
  }

  async *entries(prefix: string): AsyncIterable<readonly (readonly [string, Uint8Array])[]> {
    const found = await this.query(`SELECT key, value FROM ${STATE_TABLE} WHERE tbl = ? AND starts_with(key, ?)`
      + ' ORDER BY key COLLATE binary', [this.table, prefix]);
    yield found.map(([key, value]) => [String(key), (value as { bytes: Uint8Array }).bytes] as const);
  }

  async nextId(): Promise<number> {
    const stored = await this.get(TableKey.NextId);
    return stored ? Number(Buffer.from(stored).toString()) : 1;
  }

  /** As for PostgreSQL: a run's rows are taken as held while the table holds any row (DuckDB's rowids move). */
  async heldRows(ids: readonly number[]): Promise<number> {
    const found = await this.query(`SELECT EXISTS (SELECT 1 FROM ${quote(this.table)})`);
    return found[0]![0] === true ? ids.length : 0;
  }

  /** The --key values the table holds (their ids are the import's own count, not stored: 0 here). */
  async keyIds(keys: readonly string[]): Promise<Map<string, number>> {
    const column = quote(this.plan!.names[this.plan!.keyIndex!]!);
    const list = keys.map((key) => `'${key.replaceAll("'", "''")}'`).join(', ');
    const found = await this.query(`SELECT ${column}::VARCHAR FROM ${quote(this.table)}`
      + ` WHERE ${column}::VARCHAR IN (${list})`);
    const held = new Set(found.map(([key]) => String(key)));
    return new Map(keys.filter((key) => held.has(key)).map((key) => [key, 0]));
  }

  batch(): TargetBatch {
    return duckdbBatch(this);
  }

  async close(): Promise<void> {
    this.db.closeSync();
    this.closeFile();
  }

  /** One of the run's records written (undefined: deleted), in the open transaction. */
  async writeRecord(key: string, value: Uint8Array | undefined): Promise<void> {
    await this.db.run(`DELETE FROM ${STATE_TABLE} WHERE tbl = ? AND key = ?`, [this.table, key]);
    if (value !== undefined) {
      await this.db.run(`INSERT INTO ${STATE_TABLE} VALUES (?, ?, ?)`, [this.table, key, this.driver.blob(value)]);
    }
  }

  /** Appends a row (as the workers pack it) to a commit's CSV. */
  appendRow(output: PackedOutput, bytes: Uint8Array): void {
    if (!appendDuckCsvRow(output, bytes, this.timestamps)) throw new Error('a row that is not an array of fields');
  }

  /**
   * A commit's rows, the workers' Parquet file (`limit`: its first rows only), into the table; DuckDB casts the
   * columns that come as text to their types as the rows go in.
   */
  async insert(file: Uint8Array, limit: number | undefined): Promise<void> {
    const { names } = this.plan!;
    await this.load(stagingFile(this.path, 'parquet'), file, (staged) =>
      `INSERT INTO ${quote(this.table)} (${names.map(quote).join(', ')})`
      + ` SELECT ${names.map((_, k) => parquetColumnName(k)).join(', ')} FROM read_parquet(${literal(staged)})`
      + (limit === undefined ? '' : ` LIMIT ${limit}`));
  }

  /**
   * A commit's keyed rows (CSV lines, the longest `longest` bytes) into the table, read by DuckDB as text and
   * cast to the columns' types as they go in, each replacing its key's row.
   */
  async upsert(lines: Uint8Array, longest: number): Promise<void> {
    const { names, keyIndex } = this.plan!;
    const columns = names.map(quote);
    const text = `{${names.map((_, k) => `'c${k}': 'VARCHAR'`).join(', ')}}`;
    const others = columns.filter((_, k) => k !== keyIndex).map((c) => `${c} = excluded.${c}`);
    await this.load(stagingFile(this.path, 'csv'), lines, (staged) =>
      `INSERT INTO ${quote(this.table)} (${columns.join(', ')})`
      + ` SELECT ${names.map((_, k) => `c${k}`).join(', ')} FROM read_csv(${literal(staged)},`
      + ` header = false, auto_detect = false, delim = ',', quote = '"', escape = '"', new_line = '\\n',`
      + ` strict_mode = true, columns = ${text}, max_line_size = ${Math.max(LINE_BYTES, longest + 1)})`
      + ` ON CONFLICT (${columns[keyIndex!]}) DO ${others.length ? `UPDATE SET ${others.join(', ')}` : 'NOTHING'}`);
  }

  /** Runs the statement made for the staging file `staged`, which holds `bytes` until it has run. */
  private async load(staged: string, bytes: Uint8Array, statement: (staged: string) => string): Promise<void> {
    writeFileSync(staged, bytes);
    try {
      await this.db.run(statement(staged));
    } finally {
      rmSync(staged, { force: true });
    }
  }
}

/** Bytes a row buffer starts with (it grows to a chunk's rows, and is kept for the next batches). */
const ROW_BYTES = 1 << 20;

/**
 * A commit gathered in one buffer (the workers reuse the rows' bytes once staged) rather than held as strings,
 * and loaded in one go inside the commit's transaction.
 */
function duckdbBatch(target: DuckDbTarget): TargetBatch {
  // At most two batches live at once (one staging while the last one commits): their buffers are reused.
  const staged = target.spareRows.pop() ?? new PackedOutput(ROW_BYTES);
  staged.used = 0;
  let rows = 0;
  /** The rows of the chunk's Parquet file: the commit loads all of them, or its first `rows`. */
  let fileRows = 0;
  let longest = 0;
  /** With --key, a chunk's last row of each key: one upsert may not touch a row twice. */
  const keyed = new Map<string, Uint8Array>();
  const records: [string, Uint8Array | undefined][] = [];
  const rejects: unknown[][] = [];
  const writeAll = async () => {
    if (rows > 0) await target.insert(staged.bytes.subarray(0, staged.used), rows < fileRows ? rows : undefined);
    if (keyed.size > 0) await target.upsert(Buffer.concat([...keyed.values()]), longest);
    for (const [key, value] of records) await target.writeRecord(key, value);
    for (const reject of rejects) {
      await target.db.run(`INSERT INTO ${quote(rejectsTable(target.table))} (run, line, reason, column_name)`
        + ' VALUES (?, ?, ?, ?)', reject);
    }
  };
  return {
    put: (key, value) => records.push([key, value]),
    del: (key) => records.push([key, undefined]),
    putRows(_firstId, run) {
      // The chunk's good rows are one file, every row ending at its end: its first run brings the file, the runs
      // after it (split from it by bad rows, which the file does not hold) only more of its rows, in order.
      if (run.from === 0) {
        appendRun(staged, run);
        fileRows = run.ends.length;
      }
      rows += run.to - run.from;
    },
    putKeyed(key, _id, _fresh, bytes) {
      const start = staged.used;
      target.appendRow(staged, bytes);
      longest = Math.max(longest, staged.used - start);
      keyed.set(key, Buffer.from(staged.bytes.subarray(start, staged.used)));
      staged.used = start;
    },
    reject: (line, reason, column) =>
      rejects.push([target.idem, line, reason, column === undefined ? null : target.plan!.names[column]!]),
    get length() {
      return rows + keyed.size + records.length + rejects.length;
    },
    // DuckDB syncs its log at every commit: --no-sync changes nothing here.
    async write() {
      await target.transaction(writeAll);
      target.spareRows.push(staged);
    },
  };
}
