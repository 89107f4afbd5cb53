// An import into a table of a SQLite file (better-sqlite3, loaded only
// here). A chunk's rows, its rejected rows and the run's records commit in
// one SQLite transaction; the records live in the same file, in
// stint_import_state, so a run resumes from what the file itself holds.
import { createRequire } from 'node:module';
import { SqlType } from '../map/sql-type.js';
import { TableKey } from '../table-store.js';
import { appendRun, type ColumnPlan, type ImportTarget, type RowRun, type TargetBatch } from './import-target.js';
import { RowFormat } from '../map/rows/row-format.js';
import { checkTable, quote, rejectsTable, STATE_TABLE, type ExistingTable, type SqlDialect } from './sql-table.js';
import { loadSqlite, sqliteError, type SqliteDatabase, type SqliteStatement } from './sqlite-driver.js';
import { PackedOutput } from '../../../engine/worker/packed-output.js';
import { appendJsonbFields, appendJsonbRow, closeArray, openArray } from '../map/rows/jsonb-rows.js';
import { DECIMAL_DIGITS, TargetKind } from './target-address.js';

const SQLITE_TYPE: Readonly<Record<SqlType, string>> = {
  [SqlType.Integer]: 'INTEGER',
  [SqlType.Decimal]: 'REAL',
  [SqlType.Boolean]: 'BOOLEAN',
  [SqlType.Date]: 'DATE',
  [SqlType.Timestamp]: 'TIMESTAMP',
  [SqlType.Text]: 'TEXT',
};

/** A column's type read back from its declaration; by SQLite's affinity rules where stint did not declare it. */
function declaredType(declared: string): SqlType {
  const type = declared.toUpperCase();
  const named = Object.entries(SQLITE_TYPE).find(([, name]) => name === type);
  if (named) return named[0] as SqlType;
  if (type.includes('INT')) return SqlType.Integer;
  if (/CHAR|CLOB|TEXT/.test(type) || type === '') return SqlType.Text;
  return SqlType.Decimal;
}

export const SQLITE_DIALECT: SqlDialect = { declare: (type) => SQLITE_TYPE[type], read: declaredType };

/** A field's text as SQLite stores it in a column of `type`: NULL when empty, booleans as 1 and 0. */
export function sqliteValue(type: SqlType, text: string | null): unknown {
  if (text === null || text === '') return null;
  switch (type) {
    case SqlType.Integer: {
      const value = Number(text);
      return Number.isSafeInteger(value) ? value : BigInt(text);
    }
    case SqlType.Decimal: return Number(text);
    case SqlType.Boolean: return (text.charCodeAt(0) | 32) === 116 ? 1 : 0;
    default: return text;
  }
}

/** Opens (or creates) the SQLite file, with the table of the run's records. */
export function sqliteTarget(path: string, table: string, idem: string): ImportTarget {
  const db = loadSqlite().open(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec(`CREATE TABLE IF NOT EXISTS ${STATE_TABLE} (tbl TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL,`
      + ' PRIMARY KEY (tbl, key)) WITHOUT ROWID');
  } catch (error) {
    db.close();
    throw sqliteError(error, path);
  }
  return new SqliteTarget(db, path, table, idem);
}

/** The statements a run's commits use, prepared once the table is known. */
interface Writes {
  /** A chunk's rows, given as one JSONB array (jsonb-rows.ts) and the first one's id, inserted in order. */
  readonly insertRows: SqliteStatement;
  /** The same rows given no rowid: numbered on from the table's largest (or by the rowid's own column). */
  readonly appendRows: SqliteStatement;
  readonly largestRowid: SqliteStatement;
  /** Keyed rows, given as one JSONB array of rows that end with their ids, upserted in order. */
  readonly upsertRows: SqliteStatement;
  readonly putRecord: SqliteStatement;
  readonly delRecord: SqliteStatement;
  readonly reject: SqliteStatement;
}

/** A column as PRAGMA table_info describes it (pk: its place in the primary key, 0 when not in it). */
interface TableColumn {
  readonly name: string;
  readonly type: string;
  readonly pk: number;
}

/** How a field read from a row's JSONB goes into a column of each type: numbers by SQLite's own exact cast. */
const FROM_JSONB: Partial<Record<SqlType, (field: string) => string>> = {
  [SqlType.Integer]: (field) => `CAST(${field} AS INTEGER)`,
  [SqlType.Decimal]: (field) => `CAST(${field} AS REAL)`,
};

/** Bytes a commit's JSONB buffer starts with (it grows to a chunk's rows, and is kept for the next). */
const JSONB_BYTES = 1 << 20;

class SqliteTarget implements ImportTarget {
  readonly decimalDigits = DECIMAL_DIGITS[TargetKind.Sqlite];
  readonly rowFormat = RowFormat.Jsonb;
  plan: ColumnPlan | undefined;
  types: readonly SqlType[] = [];
  private writes: Writes | undefined;
  private synced = true;
  private inTransaction = false;
  /** No column stands for the table's rowid: rows are numbered by the run's ids. */
  private ownRowids = true;
  /** Which columns are boolean: their fields go into the JSONB rows as its true and false. */
  private booleans: boolean[] = [];
  /** The rows of the open commit, reused from one to the next. */
  readonly rows = new PackedOutput(JSONB_BYTES);
  readonly unpack = createRequire(import.meta.url)('msgpackr').unpack as (bytes: Uint8Array) => string[];

  constructor(
    readonly db: SqliteDatabase, readonly path: string, readonly table: string, readonly idem: string,
  ) {}

  async open(plan: ColumnPlan): Promise<readonly SqlType[]> {
    const checked = checkTable(SQLITE_DIALECT, this.table, plan, this.existing());
    this.transact(() => {
      for (const statement of checked.create) this.db.exec(statement);
    });
    this.plan = plan;
    this.types = checked.types;
    this.booleans = checked.types.map((type) => type === SqlType.Boolean);
    this.ownRowids = this.rowidColumn() === undefined;
    return checked.types;
  }

  /** The column that stands for the table's rowid (a lone INTEGER PRIMARY KEY), if any: its values number the rows. */
  rowidColumn(): string | undefined {
    const columns = this.db.prepare(`PRAGMA table_info(${quote(this.table)})`).all() as TableColumn[];
    const keys = columns.filter((column) => column.pk > 0);
    return keys.length === 1 && keys[0]!.type.toUpperCase() === 'INTEGER' ? keys[0]!.name : undefined;
  }

  /**
   * Inserts plain rows numbered from `firstId`. Given no rowid, SQLite numbers rows on from the table's largest,
   * sparing a search per row: that is taken when it gives the same ids. A column that stands for the rowid numbers
   * them by its values whatever the run's ids.
   */
  insertRows(firstId: number, rows: Uint8Array): void {
    const writes = this.statements();
    if (!this.ownRowids) writes.appendRows.run(rows);
    else if (((writes.largestRowid.get() as number | null) ?? 0) === firstId - 1) writes.appendRows.run(rows);
    else writes.insertRows.run(firstId, rows);
  }

  /** The table as SQLite describes it, or undefined when it does not exist yet. */
  private existing(): ExistingTable | undefined {
    const pragma = (name: string, of: string) => this.db.prepare(`PRAGMA ${name}(${quote(of)})`).all();
    const columns = pragma('table_info', this.table) as TableColumn[];
    if (columns.length === 0) return undefined;
    // The rowid's own column is unique without an index.
    const unique = new Set<string>([this.rowidColumn()].filter((name) => name !== undefined));
    for (const index of pragma('index_list', this.table) as { name: string; unique: number }[]) {
      const parts = pragma('index_info', index.name) as { name: string }[];
      if (index.unique && parts.length === 1) unique.add(parts[0]!.name);
    }
    return { columns: columns.map((c) => ({ name: c.name, type: declaredType(c.type) })), unique };
  }

  /**
   * The statements of the run's commits. A row's id (rowid) is its place in the array after the first one's,
   * or, for a keyed row, its last item; a key's row replaces the one it had, keeping its rowid. A table with a
   * column that stands for the rowid is numbered by that column's values instead: no rowid is given. `WHERE
   * true` lets SQLite tell the upsert's ON CONFLICT from a join's ON.
   */
  statements(): Writes {
    if (this.writes) return this.writes;
    const { names, keyIndex } = this.plan!;
    const columns = names.map(quote);
    const fields = this.types.map((type, k) => FROM_JSONB[type]?.(`value->>${k}`) ?? `value->>${k}`);
    const insert = (rowid: string | undefined) => `INSERT INTO ${quote(this.table)} (${columns.join(', ')}`
      + `${rowid ? ', rowid' : ''}) SELECT ${fields.join(', ')}${rowid ? `, ${rowid}` : ''} FROM jsonb_each(?)`;
    const id = (given: string) => (this.ownRowids ? given : undefined);
    let upsert = `${insert(id(`value->>${names.length}`))} WHERE true`;
    if (keyIndex !== undefined) {
      const others = columns.filter((_, k) => k !== keyIndex).map((c) => `${c} = excluded.${c}`);
      const update = others.length ? `UPDATE SET ${others.join(', ')}` : 'NOTHING';
      upsert += ` ON CONFLICT (${columns[keyIndex]}) DO ${update}`;
    }
    this.writes = {
      insertRows: this.db.prepare(insert(id('? + key'))),
      appendRows: this.db.prepare(insert(undefined)),
      largestRowid: this.db.prepare(`SELECT max(rowid) FROM ${quote(this.table)}`).pluck(),
      upsertRows: this.db.prepare(upsert),
      putRecord: this.db.prepare(`INSERT OR REPLACE INTO ${STATE_TABLE} (tbl, key, value) VALUES (?, ?, ?)`),
      delRecord: this.db.prepare(`DELETE FROM ${STATE_TABLE} WHERE tbl = ? AND key = ?`),
      reject: this.db.prepare(`INSERT INTO ${quote(rejectsTable(this.table))} (run, line, reason, column_name)`
        + ' VALUES (?, ?, ?, ?)'),
    };
    return this.writes;
  }

  /** `work` in one transaction; SQLite's errors as coded ones. */
  transact(work: () => void): void {
    try {
      this.db.transaction(work)();
    } catch (error) {
      throw sqliteError(error, this.path);
    }
  }

  /** Opens a batch's transaction; one at a time (a second would nest in the first and commit with it). */
  begin(): void {
    if (this.inTransaction) throw new Error('a SQLite batch began while another was open');
    this.db.exec('BEGIN IMMEDIATE');
    this.inTransaction = true;
  }

  /** Drops the open batch. */
  rollback(): void {
    this.inTransaction = false;
    this.db.exec('ROLLBACK');
  }

  /** Commits the open batch; whether commits fsync follows the call's --no-sync from the next one on. */
  commit(sync: boolean): void {
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      throw sqliteError(error, this.path);
    } finally {
      this.inTransaction = false;
    }
    if (sync !== this.synced) {
      // Changed outside a transaction, as SQLite requires: the first commit is synced whatever the call asks.
      this.db.pragma(`synchronous = ${sync ? 'FULL' : 'NORMAL'}`);
      this.synced = sync;
    }
  }

  /** Appends a row (as the workers pack it) and its id to a commit's JSONB array of rows. */
  appendRow(output: PackedOutput, id: number, bytes: Uint8Array): void {
    if (appendJsonbRow(output, bytes, id, this.booleans)) return;
    appendJsonbFields(output, this.unpack(bytes), id, this.booleans);
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.db.prepare(`SELECT value FROM ${STATE_TABLE} WHERE tbl = ? AND key = ?`).pluck()
      .get(this.table, key) as Uint8Array | undefined;
  }

  async *entries(prefix: string): AsyncIterable<readonly (readonly [string, Uint8Array])[]> {
    // Keys are ASCII: U+FFFF sorts after every key that starts with the prefix.
    const rows = this.db.prepare(`SELECT key, value FROM ${STATE_TABLE} WHERE tbl = ? AND key >= ? AND key < ?`
      + ' ORDER BY key').all(this.table, prefix, `${prefix}\uffff`) as { key: string; value: Uint8Array }[];
    yield rows.map((row) => [row.key, row.value] as const);
  }

  async nextId(): Promise<number> {
    const stored = await this.get(TableKey.NextId);
    const max = this.db.prepare(`SELECT max(rowid) FROM ${quote(this.table)}`).pluck().get() as number | null;
    return Math.max(stored ? Number(Buffer.from(stored).toString()) : 1, (max ?? 0) + 1);
  }

  /** By rowid; as for PostgreSQL, by any row held, where a column's values number the rows. */
  async heldRows(ids: readonly number[]): Promise<number> {
    if (this.rowidColumn() !== undefined) {
      const any = this.db.prepare(`SELECT EXISTS (SELECT 1 FROM ${quote(this.table)})`).pluck().get();
      return any === 1 ? ids.length : 0;
    }
    const has = this.db.prepare(`SELECT count(*) FROM ${quote(this.table)} WHERE rowid = ?`).pluck();
    return ids.filter((id) => (has.get(id) as number) > 0).length;
  }

  async keyIds(keys: readonly string[]): Promise<Map<string, number>> {
    const k = this.plan!.keyIndex!;
    const find = this.db.prepare(`SELECT rowid FROM ${quote(this.table)} WHERE ${quote(this.plan!.names[k]!)} = ?`)
      .pluck();
    const ids = new Map<string, number>();
    for (const key of keys) {
      const id = find.get(sqliteValue(this.types[k]!, key)) as number | undefined;
      if (id !== undefined) ids.set(key, id);
    }
    return ids;
  }

  batch(): TargetBatch {
    return sqliteBatch(this);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** The rows a batch gathers for one statement: from the workers as they are, or keyed ones with their ids. */
interface Gathered {
  /** Where the JSONB array's header is in the target's buffer. */
  readonly at: number;
  readonly keyed: boolean;
  /** The first row's id, and the rows so far (plain rows take the ids that follow). */
  readonly firstId: number;
  count: number;
}

/**
 * A commit as one open SQLite transaction: the run's records and rejects
 * are written as they are staged, the rows gathered as one JSONB array, and
 * `write` inserts them with one statement and commits. The engine stages a
 * chunk only after the last one's commit was made (SQLite commits at once),
 * so one transaction is open at a time; a kill, or a failure before `write`,
 * leaves it uncommitted and SQLite rolls it back.
 */
function sqliteBatch(target: SqliteTarget): TargetBatch {
  const writes = target.statements();
  const output = target.rows;
  let length = 0;
  let open = false;
  let gathered: Gathered | undefined;
  /** Opens the transaction at the first write; `writes` more rows or records in it. */
  const begin = (writes = 1) => {
    if (!open) target.begin();
    open = true;
    length += writes;
  };
  /** The rows, at once; a row the table's own constraints refuse (NOT NULL, CHECK): none of the chunk is kept. */
  const insertRows = () => {
    if (!gathered) return;
    const { at, keyed, firstId } = gathered;
    gathered = undefined;
    closeArray(output, at);
    const rows = output.bytes.subarray(0, output.used);
    try {
      if (keyed) writes.upsertRows.run(rows);
      else target.insertRows(firstId, rows);
    } catch (error) {
      target.rollback();
      throw sqliteError(error, target.path);
    }
  };
  /** The array `count` more rows go into: a new one unless they follow the gathered ones. */
  const gather = (keyed: boolean, firstId: number, count: number) => {
    begin(count);
    if (gathered && (gathered.keyed !== keyed || (!keyed && gathered.firstId + gathered.count !== firstId))) {
      insertRows();
    }
    if (!gathered) {
      output.used = 0;
      gathered = { at: openArray(output), keyed, firstId, count: 0 };
    }
    gathered.count += count;
  };
  return {
    put(key, value) {
      begin();
      writes.putRecord.run(target.table, key, value);
    },
    del(key) {
      begin();
      writes.delRecord.run(target.table, key);
    },
    putRows(firstId: number, run: RowRun) {
      gather(false, firstId, run.to - run.from);
      appendRun(output, run);
    },
    putKeyed(_key, id, _fresh, bytes) {
      gather(true, id, 1);
      target.appendRow(output, id, bytes);
    },
    reject(line, reason, column) {
      begin();
      writes.reject.run(target.idem, line, reason, column === undefined ? null : target.plan!.names[column]!);
    },
    get length() {
      return length;
    },
    async write(sync) {
      insertRows();
      if (open) target.commit(sync);
      open = false;
    },
  };
}
