import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  csvRecords, declaredFrom, diffTables, expectedTable, isConsistentSnapshot, CommandName, writeFaultCsv,
} from '../helpers/fault-model.js';
import { Workload } from '../helpers/fault-schedule.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('fault-model');
const header = ['k', 'v'];
const input = [header, ['u1', 'a'], ['u2', 'b'], ['u1', 'c'], ['u3', 'd'], ['u2', 'e']];

test('upsert: one row per key, where the key first came, with its last value', () => {
  assert.deepEqual(expectedTable(input, Workload.Upsert), [header, ['u1', 'c'], ['u2', 'e'], ['u3', 'd']]);
  assert.deepEqual(expectedTable(input, Workload.Append), input);
});

test('a table diff counts lost, doubled and wrong rows', () => {
  const expected = [header, ['r1', 'a'], ['r2', 'b'], ['r3', 'c']];
  assert.deepEqual(diffTables(expected, expected), { lost: 0, doubled: 0, wrong: 0, headerOk: true, examples: [] });
  const doubled = diffTables([header, ['r1', 'a'], ['r2', 'b'], ['r1', 'a'], ['r2', 'b'], ['r3', 'c']], expected);
  assert.equal(doubled.doubled, 2);
  assert.equal(diffTables([header, ['r1', 'a'], ['r3', 'c']], expected).lost, 1);
  assert.equal(diffTables([header, ['r1', 'a'], ['r3', 'c'], ['r2', 'b']], expected).wrong, 2, 'out of order');
  assert.equal(diffTables([header, ['r1', 'a'], ['r2', 'x'], ['r3', 'c']], expected).wrong, 1);
});

test('a mid-run export is consistent when it is a state the table can have had', () => {
  assert.ok(isConsistentSnapshot([header, ['u1', 'a'], ['u2', 'b']], input, Workload.Append));
  assert.ok(!isConsistentSnapshot([header, ['u2', 'b']], input, Workload.Append), 'not a prefix');
  assert.ok(isConsistentSnapshot([header, ['u1', 'c'], ['u2', 'b']], input, Workload.Upsert), 'a later value of u1');
  assert.ok(!isConsistentSnapshot([header, ['u1', 'z']], input, Workload.Upsert), 'a value never imported');
  assert.ok(!isConsistentSnapshot([header, ['u2', 'b']], input, Workload.Upsert), 'u2 before u1');
  assert.ok(!isConsistentSnapshot([['x', 'v']], input, Workload.Append), 'another header');
});

test('the generated input is the same bytes for the same plan, with repeating keys for upsert', () => {
  const plan = { seed: 5, rows: 500, columns: 4, newlines: 0.05, crlf: true, keys: 50 };
  writeFaultCsv(world.path('a.csv'), plan, Workload.Upsert);
  writeFaultCsv(world.path('b.csv'), plan, Workload.Upsert);
  assert.deepEqual(readFileSync(world.path('a.csv')), readFileSync(world.path('b.csv')));
  const records = csvRecords(readFileSync(world.path('a.csv'), 'utf8'));
  assert.equal(records.length, 501);
  assert.ok(new Set(records.slice(1).map((r) => r[0])).size <= 50);
});

test('declared exit codes: the global ones and the command\'s own, never 130/143 by default', () => {
  const declared = declaredFrom({
    exit_codes: { 1: {}, 2: {}, 130: {}, 143: {} },
    commands: { export: { exit_codes: { 0: {}, 12: {} }, flags: { output: {} } } },
  });
  assert.deepEqual([...declared.exitsOf(CommandName.Export)].sort((a, b) => a - b), [0, 1, 2, 12]);
  assert.ok(declared.hasFlag(CommandName.Export, 'output'));
  assert.ok(!declared.hasFlag(CommandName.Export, 'budget'));
});
