// The sink conformance suite (stint/testing) against the four built-in sinks
// over real stores, and postgresSink over PGlite as the guide's example uses
// it. Each kill case kills a real process mid-commit with SIGKILL.
import { describe, test, before, after } from 'node:test';
import { sinkConformance, type SinkSubject } from '../../src/testing/index.js';
import { subject as level } from '../helpers/sink-subjects/level-subject.js';
import { subject as sqlite } from '../helpers/sink-subjects/sqlite-subject.js';
import { subject as duckdb } from '../helpers/sink-subjects/duckdb-subject.js';
import { POSTGRES_URL_VARIABLE, subject as postgres } from '../helpers/sink-subjects/postgres-subject.js';
import { postgresMissing, startPostgres, type PostgresServer } from '../helpers/postgres-server.js';

function suite(name: string, subject: SinkSubject): void {
  describe(name, () => {
    for (const check of sinkConformance(subject)) test(check.name, () => check.run());
  });
}

suite('levelSink (LevelDB)', level);
suite('sqliteSink (SQLite, better-sqlite3)', sqlite);
suite('duckdbSink (DuckDB, @duckdb/node-api)', duckdb);

describe('postgresSink (PostgreSQL, pg)', { skip: postgresMissing() }, () => {
  let server: PostgresServer;
  before(async () => {
    server = await startPostgres();
    process.env[POSTGRES_URL_VARIABLE] = server.url;
  });
  after(async () => {
    delete process.env[POSTGRES_URL_VARIABLE];
    await server?.stop();
  });
  for (const check of sinkConformance(postgres)) test(check.name, () => check.run());
});

describe('postgresSink over PGlite (the guide\'s example)', () => {
  before(() => {
    delete process.env[POSTGRES_URL_VARIABLE];
  });
  for (const check of sinkConformance(postgres)) test(check.name, () => check.run());
});
