// An import into a table of a DuckDB file (@duckdb/node-api, loaded only
// here). A chunk's rows go through DuckDB's appender into a staging table and
// from there into the table, in one transaction with its rejected rows and
// the run's records (kept in stint_import_state in the same file), so a kill
// leaves all of a chunk or none and the identical call resumes from the file.
import { SqlType } from '../map/sql-type.js';
import { TableKey } from '../table-store.js';
import { arrayAt, NIL, stringAt } from '../../../engine/worker/packed-items.js';
import type { ColumnPlan, ImportTarget, TargetBatch } from './import-target.js';
import { checkTable, quote, rejectsTable, STATE_TABLE, type ExistingTable, type SqlDialect } from './sql-table.js';
import { duckdbError, loadDuckDb, type DuckAppender, type DuckConnection, type DuckDriver } from './duckdb-driver.js';
import { PackedOutput } from '../../../engine/worker/packed-output.js';
import { duckdbTimestamp } from './duckdb-timestamp.js';
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

export const DUCKDB_DIALECT: SqlDialect = { declare: (type) => DUCKDB_TYPE[type], read: declaredType };

/** The session's staging table: a chunk's fields as text, cast to the table's types as they move in. */
const STAGE = 'stint_stage';

/** Opens (or creates) the DuckDB file, in UTC, with the table of the run's records. */
export async function duckdbTarget(path: string, table: string, idem: string): Promise<ImportTarget> {
  const driver = loadDuckDb();
  const instance = await driver.open(path);
  let connection: DuckConnection | undefined;
  try {
    connection = await instance.connect();
    await connection.run("SET TimeZone = 'UTC'");
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
  plan: ColumnPlan | undefined;
  /** The columns whose text DuckDB's cast would misread (timestamps), spelled as it reads them. */
  timestamps: number[] = [];
  /** Row buffers of batches that were written, for the next ones. */
  readonly spareRows: PackedOutput[] = [];
  /** The staging table's appender, made once the table is open. */
  appender: DuckAppender | undefined;

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
    const checked = checkTable(DUCKDB_DIALECT, this.table, plan, await this.existing());
    // Timestamps arrive as text (respelled for DuckDB's cast), every other field as its bytes.
    const stage = checked.types.map((type, k) => `c${k} ${type === SqlType.Timestamp ? 'VARCHAR' : 'BLOB'}`);
    await this.transaction(async () => {
      for (const statement of checked.create) await this.db.run(statement);
    });
    await this.query(`CREATE OR REPLACE TEMP TABLE ${STAGE} (${stage.join(', ')})`);
    this.appender = await this.db.createAppender(STAGE, 'main', 'temp');
    this.plan = plan;
    this.timestamps = [...checked.types.keys()].filter((k) => checked.types[k] === SqlType.Timestamp);
    return checked.types;
  }

  /** The table as DuckDB describes it, or undefined when it does not exist yet. */
  private async existing(): Promise<ExistingTable | undefined> {
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
    this.appender?.closeSync();
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

  /** Rows into the table through the staging table (the appender fed by `append`); keyed ones replace their key's. */
  async insert(append: (appender: DuckAppender) => void, keyed: boolean): Promise<void> {
    const appender = this.appender!;
    try {
      append(appender);
      appender.flushSync();
    } catch (error) {
      appender.clear();
      throw error;
    }
    const { names, keyIndex } = this.plan!;
    const columns = names.map(quote);
    let insert = `INSERT INTO ${quote(this.table)} (${columns.join(', ')})`
      + ` SELECT ${names.map((_, k) => (this.timestamps.includes(k) ? `c${k}` : `decode(c${k})`)).join(', ')}`
      + ` FROM ${STAGE}`;
    if (keyed) {
      const others = columns.filter((_, k) => k !== keyIndex).map((c) => `${c} = excluded.${c}`);
      const update = others.length ? `UPDATE SET ${others.join(', ')}` : 'NOTHING';
      insert += ` ON CONFLICT (${columns[keyIndex!]}) DO ${update}`;
    }
    await this.db.run(insert);
    await this.db.run(`DELETE FROM ${STAGE}`);
  }

  /**
   * A row appended from its bytes: each field as the bytes it is (no string made; the staging table's BLOB is
   * decoded to text by DuckDB), nil as NULL, a timestamp as text spelled the way DuckDB's cast reads it.
   */
  appendRow(appender: DuckAppender, row: Uint8Array): void {
    // A plain view: a Buffer's subarray makes a Buffer, dearer than a Uint8Array's, once per field.
    const bytes = new Uint8Array(row.buffer, row.byteOffset, row.length);
    const array = arrayAt(bytes, 0);
    if (!array) throw new Error('a row that is not an array of fields');
    let at = array.next;
    let t = 0;
    for (let k = 0; k < array.count; k++) {
      if (bytes[at] === NIL) {
        appender.appendNull();
        at++;
      } else {
        const field = stringAt(bytes, at)!;
        const end = field.next + field.length;
        if (k === this.timestamps[t]) {
          appender.appendVarchar(duckdbTimestamp(Buffer.from(bytes.buffer, bytes.byteOffset + field.next,
            field.length).toString()));
        } else appender.appendBlob(bytes.subarray(field.next, end));
        at = end;
      }
      if (k === this.timestamps[t]) t++;
    }
    appender.endRow();
  }
}

/** Bytes a row buffer starts with (it grows to a chunk's rows, and is kept for the next batches). */
const ROW_BYTES = 1 << 20;

/**
 * A commit gathered as its rows' bytes, copied (the workers reuse theirs once staged) into one buffer rather
 * than held as strings, and appended in one go inside the commit's transaction.
 */
function duckdbBatch(target: DuckDbTarget): TargetBatch {
  // At most two batches live at once (one staging while the last one commits): their buffers are reused.
  const rows = target.spareRows.pop() ?? new PackedOutput(ROW_BYTES);
  rows.used = 0;
  const ends: number[] = [];
  /** With --key, a chunk's last row of each key: one upsert may not touch a row twice. */
  const keyed = new Map<string, Uint8Array>();
  const records: [string, Uint8Array | undefined][] = [];
  const rejects: unknown[][] = [];
  const appendRows = (appender: DuckAppender) => {
    let start = 0;
    for (const end of ends) {
      target.appendRow(appender, rows.bytes.subarray(start, end));
      start = end;
    }
  };
  const appendKeyed = (appender: DuckAppender) => keyed.forEach((bytes) => target.appendRow(appender, bytes));
  const writeAll = async () => {
    if (ends.length > 0) await target.insert(appendRows, false);
    if (keyed.size > 0) await target.insert(appendKeyed, true);
    for (const [key, value] of records) await target.writeRecord(key, value);
    for (const reject of rejects) {
      await target.db.run(`INSERT INTO ${quote(rejectsTable(target.table))} (run, line, reason, column_name)`
        + ' VALUES (?, ?, ?, ?)', reject);
    }
  };
  return {
    put: (key, value) => records.push([key, value]),
    del: (key) => records.push([key, undefined]),
    putRow(_id, bytes) {
      rows.reserve(bytes.length).set(bytes, rows.used);
      rows.used += bytes.length;
      ends.push(rows.used);
    },
    putKeyed: (key, _id, _fresh, bytes) => keyed.set(key, Uint8Array.prototype.slice.call(bytes)),
    reject: (line, reason, column) =>
      rejects.push([target.idem, line, reason, column === undefined ? null : target.plan!.names[column]!]),
    get length() {
      return ends.length + keyed.size + records.length + rejects.length;
    },
    // DuckDB syncs its log at every commit: --no-sync changes nothing here.
    async write() {
      await target.transaction(writeAll);
      target.spareRows.push(rows);
    },
  };
}
