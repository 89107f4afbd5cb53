import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultTableName, TargetKind, targetAddress } from '../../../../src/commands/import/target/target-address.js';

test('--into names its kind by scheme; anything else is a LevelDB folder', () => {
  assert.deepEqual(targetAddress('rows.db'), { kind: TargetKind.Level, location: 'rows.db' });
  assert.deepEqual(targetAddress('sqlite:/tmp/a.db'), { kind: TargetKind.Sqlite, location: '/tmp/a.db' });
  assert.deepEqual(targetAddress('sqlite:rel/a.db'), { kind: TargetKind.Sqlite, location: 'rel/a.db' });
  assert.deepEqual(targetAddress('duckdb:x.duckdb'), { kind: TargetKind.DuckDb, location: 'x.duckdb' });
  assert.equal(targetAddress('postgres://u@h/db').kind, TargetKind.Postgres);
  assert.equal(targetAddress('postgresql://h/db').kind, TargetKind.Postgres);
  assert.equal(targetAddress('./postgres').kind, TargetKind.Level);
});

test('a table is named after its file: up to the first dot, letters, digits and _', () => {
  assert.equal(defaultTableName('/data/orders.csv'), 'orders');
  assert.equal(defaultTableName('sales-2024.csv.gz'), 'sales_2024');
  assert.equal(defaultTableName('2024 sales.csv'), 't_2024_sales');
  assert.equal(defaultTableName('-'), 'imported', 'stdin');
  assert.equal(defaultTableName('.hidden.csv'), 'imported');
});
