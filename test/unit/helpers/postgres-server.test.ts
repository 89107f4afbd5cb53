// The PostgreSQL the database tests start (test/helpers/postgres-server.ts) is a real one: it takes a commit,
// keeps it through a restart and through SIGKILL of every one of its processes, and stops.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { postgresBin, postgresMissing, startPostgres } from '../../helpers/postgres-server.js';

const missing = postgresMissing();

/** One SQL statement through Debian's psql; its rows as text, or the error. */
function psql(url: string, sql: string): string {
  const run = spawnSync(join(postgresBin()!, 'psql'), [url, '-XAtq', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
}

test('a started PostgreSQL keeps a commit through a restart and a crash', { skip: missing }, async () => {
  const server = await startPostgres();
  try {
    psql(server.url, 'CREATE TABLE kept (id integer PRIMARY KEY, word text)');
    psql(server.url, "INSERT INTO kept VALUES (1, 'one'), (2, 'two')");
    await server.restart();
    assert.equal(psql(server.url, 'SELECT string_agg(word, \',\' ORDER BY id) FROM kept'), 'one,two');
    psql(server.url, "INSERT INTO kept VALUES (3, 'three')");
    await server.crash();
    assert.equal(psql(server.url, 'SELECT count(*) FROM kept'), '3');
    assert.equal(psql(server.url, 'SHOW server_encoding'), 'UTF8');
  } finally {
    await server.stop();
  }
  const gone = spawnSync(join(postgresBin()!, 'psql'), [server.url, '-XAtqc', 'SELECT 1'], { encoding: 'utf8' });
  assert.notEqual(gone.status, 0, 'the server still answers after stop');
});
