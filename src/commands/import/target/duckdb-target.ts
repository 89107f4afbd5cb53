// An import into a table of a DuckDB file (@duckdb/node-api, loaded only
// here). A chunk's rows go through DuckDB's appender into a staging table and
// from there into the table, in one transaction with its rejected rows and
// the run's records (kept in stint_import_state in the same file), so a kill
// leaves all of a chunk or none and the identical call resumes from the file.
import { createRequire } from 'node:module';
import { SqlType } from '../map/sql-type.js';
import { TableKey } from '../table-store.js';
import { rowFields } from '../../../engine/worker/packed-items.js';
import type { ColumnPlan, ImportTarget, TargetBatch } from './import-target.js';
import { checkTable, quote, rejectsTable, STATE_TABLE, type ExistingTable, type SqlDialect } from './sql-table.js';
import { duckdbError, loadDuckDb, type DuckConnection, type DuckDriver } from './duckdb-driver.js';
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
  types: readonly SqlType[] = [];
  /** The columns whose text DuckDB's cast would misread (timestamps), spelled as it reads them. */
  timestamps: number[] = [];
  readonly unpack = createRequire(import.meta.url)('msgpackr').unpack as (bytes: Uint8Array) => unknown[];

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
    const stage = plan.names.map((_, k) => `c${k} VARCHAR`).join(', ');
    await this.transaction(async () => {
      for (const statement of checked.create) await this.db.run(statement);
    });
    await this.query(`CREATE OR REPLACE TEMP TABLE ${STAGE} (${stage})`);
    this.plan = plan;
    this.types = checked.types;
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
    this.db.closeSync();
    this.closeFile();
  }

  /** Rows into the table through the staging table; keyed ones replace the row their key has. */
  async insert(rows: readonly (readonly (string | null)[])[], keyed: boolean): Promise<void> {
    const appender = await this.db.createAppender(STAGE, 'main', 'temp');
    for (const row of rows) {
      for (const field of row) {
        if (field === null) appender.appendNull();
        else appender.appendVarchar(field);
      }
      appender.endRow();
    }
    appender.flushSync();
    appender.closeSync();
    const { names, keyIndex } = this.plan!;
    const columns = names.map(quote);
    let insert = `INSERT INTO ${quote(this.table)} (${columns.join(', ')})`
      + ` SELECT ${names.map((_, k) => `c${k}`).join(', ')} FROM ${STAGE}`;
    if (keyed) {
      const others = columns.filter((_, k) => k !== keyIndex).map((c) => `${c} = excluded.${c}`);
      insert += ` ON CONFLICT (${columns[keyIndex!]}) DO ${others.length ? `UPDATE SET ${others.join(', ')}` : 'NOTHING'}`;
    }
    await this.db.run(insert);
    await this.db.run(`DELETE FROM ${STAGE}`);
  }

  /** A row's fields from its bytes, a timestamp spelled as DuckDB's cast reads it (empty fields are NULL). */
  fields(bytes: Uint8Array): (string | null)[] {
    const fields = rowFields(bytes) ?? this.unpack(bytes).map((v) => (v === null ? null : String(v)));
    for (const k of this.timestamps) {
      const text = fields[k];
      if (text) fields[k] = duckdbTimestamp(text);
    }
    return fields;
  }
}

/** A commit gathered as rows' fields (the workers reuse the rows' bytes once staged), written in one transaction. */
function duckdbBatch(target: DuckDbTarget): TargetBatch {
  const rows: (string | null)[][] = [];
  /** With --key, a chunk's last row of each key: one upsert may not touch a row twice. */
  const keyed = new Map<string, (string | null)[]>();
  const records: [string, Uint8Array | undefined][] = [];
  const rejects: unknown[][] = [];
  return {
    put: (key, value) => records.push([key, value]),
    del: (key) => records.push([key, undefined]),
    putRow: (_id, bytes) => rows.push(target.fields(bytes)),
    putKeyed: (key, _id, _fresh, bytes) => keyed.set(key, target.fields(bytes)),
    reject: (line, reason, column) =>
      rejects.push([target.idem, line, reason, column === undefined ? null : target.plan!.names[column]!]),
    get length() {
      return rows.length + keyed.size + records.length + rejects.length;
    },
    // DuckDB syncs its log at every commit: --no-sync changes nothing here.
    async write() {
      await target.transaction(async () => {
        if (rows.length > 0) await target.insert(rows, false);
        if (keyed.size > 0) await target.insert([...keyed.values()], true);
        for (const [key, value] of records) {
          await target.db.run(`DELETE FROM ${STATE_TABLE} WHERE tbl = ? AND key = ?`, [target.table, key]);
          if (value === undefined) continue;
          await target.db.run(`INSERT INTO ${STATE_TABLE} VALUES (?, ?, ?)`,
            [target.table, key, target.driver.blob(value)]);
        }
        for (const reject of rejects) {
          await target.db.run(`INSERT INTO ${quote(rejectsTable(target.table))} (run, line, reason, column_name)`
            + ' VALUES (?, ?, ?, ?)', reject);
        }
      });
    },
  };
}
