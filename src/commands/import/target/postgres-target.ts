// An import into a table of a PostgreSQL server (pg, loaded only here). A
// chunk's rows go in by COPY … FROM STDIN inside one transaction with its
// rejected rows and the run's records (kept in stint_import_state on the same
// server), so a kill -9, a SIGINT or a server restart leaves all of a chunk
// or none, and the identical call resumes from what the server holds.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createRequire } from 'node:module';
import { SqlType } from '../map/sql-type.js';
import { TableKey } from '../table-store.js';
import { appendRun, type ColumnPlan, type ImportTarget, type TargetBatch } from './import-target.js';
import { RowFormat } from '../map/rows/row-format.js';
import { checkTable, quote, rejectsTable, STATE_TABLE, type ExistingTable, type SqlDialect } from './sql-table.js';
import { loadPostgres, postgresError, type PgClient, type PgDriver } from './postgres-driver.js';
import { PackedOutput } from '../../../engine/worker/packed-output.js';
import { appendCopyRow } from '../map/rows/copy-text-row.js';
import { DECIMAL_DIGITS, TargetKind } from './target-address.js';


const POSTGRES_TYPE: Readonly<Record<SqlType, string>> = {
  [SqlType.Integer]: 'bigint',
  [SqlType.Decimal]: 'numeric',
  [SqlType.Boolean]: 'boolean',
  [SqlType.Date]: 'date',
  // With the session in UTC, a time without a zone is read as UTC, as analyze reads it.
  [SqlType.Timestamp]: 'timestamptz',
  [SqlType.Text]: 'text',
};

/** A column's type read back from format_type. */
function declaredType(declared: string): SqlType {
  if (/^(bigint|integer|smallint)/.test(declared)) return SqlType.Integer;
  if (/^(numeric|real|double precision)/.test(declared)) return SqlType.Decimal;
  if (declared === 'boolean') return SqlType.Boolean;
  if (declared === 'date') return SqlType.Date;
  if (declared.startsWith('timestamp')) return SqlType.Timestamp;
  return SqlType.Text;
}

export const POSTGRES_DIALECT: SqlDialect = { declare: (type) => POSTGRES_TYPE[type], read: declaredType };

/** A field in COPY's text format: NULL as \N, the format's own characters escaped. */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = String(value);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
    : text;
}

/** Connects, in UTC, and takes the run's advisory lock: two calls of one run never write at once. */
export async function postgresTarget(url: string, table: string, idem: string): Promise<ImportTarget> {
  const driver = loadPostgres();
  const client = driver.client(url);
  // A connection lost while idle is reported on the next query; unheard, it would end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query("SET TIME ZONE 'UTC'");
    const locked = await client.query('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [`${table}/${idem}`]);
    if (locked.rows[0]!['ok'] !== true) throw Object.assign(new Error('the run is held'), { code: '55P03' });
    await client.query(`CREATE TABLE IF NOT EXISTS ${STATE_TABLE} (tbl text NOT NULL, key text NOT NULL,`
      + ' value bytea NOT NULL, PRIMARY KEY (tbl, key))');
  } catch (error) {
    await client.end().catch(() => undefined);
    throw postgresError(error, url);
  }
  return new PostgresTarget(driver, client, url, table, idem);
}

class PostgresTarget implements ImportTarget {
  readonly decimalDigits = DECIMAL_DIGITS[TargetKind.Postgres];
  readonly rowFormat = RowFormat.CopyText;
  plan: ColumnPlan | undefined;
  types: readonly SqlType[] = [];
  readonly unpack = createRequire(import.meta.url)('msgpackr').unpack as (bytes: Uint8Array) => unknown[];
  /** COPY buffers of batches that were written, for the next ones: fresh memory costs a page fault per 4 KiB. */
  readonly spareLines: PackedOutput[] = [];

  constructor(
    readonly driver: PgDriver, readonly client: PgClient, readonly url: string, readonly table: string,
    readonly idem: string,
  ) {}

  async query(sql: string, params?: readonly unknown[]) {
    try {
      return await this.client.query(sql, params);
    } catch (error) {
      throw postgresError(error, this.url);
    }
  }

  async open(plan: ColumnPlan): Promise<readonly SqlType[]> {
    const checked = checkTable(POSTGRES_DIALECT, this.table, plan, await this.existing());
    await this.transaction(async () => {
      for (const statement of checked.create) await this.client.query(statement);
    });
    this.plan = plan;
    this.types = checked.types;
    return checked.types;
  }

  private async existing(): Promise<ExistingTable | undefined> {
    const name = quote(this.table);
    const columns = (await this.query('SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type'
      + ' FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped'
      + ' ORDER BY a.attnum', [name])).rows as { name: string; type: string }[];
    if (columns.length === 0) return undefined;
    const unique = (await this.query('SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a'
      + ' ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]'
      + ' WHERE i.indrelid = to_regclass($1) AND i.indisunique AND i.indnkeyatts = 1', [name])).rows;
    return {
      columns: columns.map((c) => ({ name: c.name, type: declaredType(c.type) })),
      unique: new Set(unique.map((row) => String(row['name']))),
    };
  }

  /** `work` in one transaction; a failure rolls it back (the server does so too when the connection goes). */
  async transaction(work: () => Promise<void>): Promise<void> {
    try {
      await this.client.query('BEGIN');
      await work();
      await this.client.query('COMMIT');
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw postgresError(error, this.url);
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const found = await this.query(`SELECT value FROM ${STATE_TABLE} WHERE tbl = $1 AND key = $2`, [this.table, key]);
    return found.rows[0]?.['value'] as Uint8Array | undefined;
  }

  async *entries(prefix: string): AsyncIterable<readonly (readonly [string, Uint8Array])[]> {
    const found = await this.query(`SELECT key, value FROM ${STATE_TABLE} WHERE tbl = $1 AND starts_with(key, $2)`
      + ' ORDER BY key COLLATE "C"', [this.table, prefix]);
    yield found.rows.map((row) => [String(row['key']), row['value'] as Uint8Array] as const);
  }

  async nextId(): Promise<number> {
    const stored = await this.get(TableKey.NextId);
    return stored ? Number(Buffer.from(stored).toString()) : 1;
  }

  /**
   * A PostgreSQL table has no row ids of its own: a run's rows are taken as held while the table holds any
   * row (a table emptied since is imported again; rows deleted one by one are not noticed).
   */
  async heldRows(ids: readonly number[]): Promise<number> {
    const found = await this.query(`SELECT EXISTS (SELECT 1 FROM ${quote(this.table)}) AS held`);
    return found.rows[0]!['held'] === true ? ids.length : 0;
  }

  /** The --key values the table holds (their ids are the import's own count, not stored: 0 here). */
  async keyIds(keys: readonly string[]): Promise<Map<string, number>> {
    const k = this.plan!.keyIndex!;
    const column = quote(this.plan!.names[k]!);
    const type = POSTGRES_TYPE[this.types[k]!];
    const found = await this.query(`SELECT ${column}::text AS key FROM ${quote(this.table)}`
      + ` WHERE ${column} = ANY($1::${type}[])`, [keys]);
    const held = new Set(found.rows.map((row) => String(row['key'])));
    return new Map(keys.filter((key) => held.has(key)).map((key) => [key, 0]));
  }

  batch(): TargetBatch {
    return postgresBatch(this);
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}

/** Bytes a batch's COPY buffer starts with (it grows to a chunk's rows). */
const COPY_BYTES = 1 << 20;

/** A row's COPY line: from its bytes, else (a row of another shape) from its decoded fields. */
function appendLine(target: PostgresTarget, output: PackedOutput, bytes: Uint8Array): void {
  if (appendCopyRow(output, bytes)) return;
  const text = `${target.unpack(bytes).map(copyField).join('\t')}\n`;
  output.reserve(3 * text.length);
  output.used += output.bytes.write(text, output.used);
}

/** A commit gathered as COPY text (the workers reuse the rows' bytes once staged), written in one transaction. */
function postgresBatch(target: PostgresTarget): TargetBatch {
  // At most two batches live at once (one staging while the last one commits): their buffers are reused.
  const lines = target.spareLines.pop() ?? new PackedOutput(COPY_BYTES);
  lines.used = 0;
  /** With --key, a chunk's last row of each key: one upsert may not touch a row twice. */
  const keyed = new Map<string, Buffer>();
  const records: [string, Uint8Array | undefined][] = [];
  const rejects: unknown[][] = [];
  let rows = 0;
  return {
    put: (key, value) => records.push([key, value]),
    del: (key) => records.push([key, undefined]),
    putRows(_firstId, run) {
      appendRun(lines, run);
      rows += run.to - run.from;
    },
    putKeyed(key, _id, _fresh, bytes) {
      const start = lines.used;
      appendLine(target, lines, bytes);
      keyed.set(key, Buffer.from(lines.bytes.subarray(start, lines.used)));
      lines.used = start;
    },
    reject: (line, reason, column) =>
      rejects.push([target.idem, line, reason, column === undefined ? null : target.plan!.names[column]!]),
    get length() {
      return rows + keyed.size + records.length + rejects.length;
    },
    async write(sync) {
      await target.transaction(async () => {
        if (!sync) await target.client.query('SET LOCAL synchronous_commit = off');
        if (rows > 0) await copyInto(target, quote(target.table), [lines.bytes.subarray(0, lines.used)]);
        if (keyed.size > 0) await upsert(target, [Buffer.concat([...keyed.values()])]);
        for (const [key, value] of records) await writeRecord(target, key, value);
        for (const reject of rejects) {
          await target.client.query(`INSERT INTO ${quote(rejectsTable(target.table))} (run, line, reason, column_name)`
            + ' VALUES ($1, $2, $3, $4)', reject);
        }
      });
      target.spareLines.push(lines);
    },
  };
}

async function writeRecord(target: PostgresTarget, key: string, value: Uint8Array | undefined): Promise<void> {
  if (value === undefined) {
    await target.client.query(`DELETE FROM ${STATE_TABLE} WHERE tbl = $1 AND key = $2`, [target.table, key]);
    return;
  }
  await target.client.query(`INSERT INTO ${STATE_TABLE} (tbl, key, value) VALUES ($1, $2, $3)`
    + ' ON CONFLICT (tbl, key) DO UPDATE SET value = excluded.value', [target.table, key, Buffer.from(value)]);
}

async function copyInto(target: PostgresTarget, table: string, lines: readonly Uint8Array[]): Promise<void> {
  const columns = target.plan!.names.map(quote).join(', ');
  const stream = target.client.query(target.driver.copyFrom(`COPY ${table} (${columns}) FROM STDIN`));
  await pipeline(Readable.from(lines), stream);
}

/** Keyed rows through a staging table: a key the table holds has its row replaced, a new one is appended. */
async function upsert(target: PostgresTarget, lines: readonly Uint8Array[]): Promise<void> {
  const { names, keyIndex } = target.plan!;
  const columns = names.map(quote);
  const stage = quote(`stint_stage_${process.pid}`);
  await target.client.query(`CREATE TEMP TABLE ${stage} (LIKE ${quote(target.table)}) ON COMMIT DROP`);
  await copyInto(target, stage, lines);
  const others = columns.filter((_, k) => k !== keyIndex).map((c) => `${c} = excluded.${c}`);
  await target.client.query(`INSERT INTO ${quote(target.table)} (${columns.join(', ')})`
    + ` SELECT ${columns.join(', ')} FROM ${stage}`
    + ` ON CONFLICT (${columns[keyIndex!]}) DO ${others.length ? `UPDATE SET ${others.join(', ')}` : 'NOTHING'}`);
}
