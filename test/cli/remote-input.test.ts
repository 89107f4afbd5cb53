// http:// inputs read by byte range from a real HTTP server started here (test/helpers/range-server.ts): analyze
// and import answer what the local file answers; a budget, a SIGINT and a kill -9 each followed by the identical
// call resume by range (the server's log shows what was read twice); an object replaced between calls or mid-run,
// a server that resets connections and answers 503 at random, and every refusal answer with their codes. s3://
// objects from s3rver, and from an endpoint that sends a range too short or too long, or SlowDown. Waits on facts
// (answers, progress lines), never on a clock.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { envelopeOf, runJson, runShell, startCli, type CliRun } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';
import { filesUnder } from '../helpers/files-under.js';
import { writeMixedCsv } from '../helpers/mixed-csv.js';
import { startRangeServer, type RangeServer } from '../helpers/range-server.js';
import { startS3Store } from '../helpers/s3-store.js';
import { checkpointDone } from '../helpers/checkpoint-peek.js';
import { redisMissing, startRedis } from '../helpers/redis-server.js';
import { REMOTE_LOOKAHEAD } from '../../src/engine/worker/chunk-reader.js';
import { SAMPLE_BYTES } from '../../src/commands/import/target/column-plan.js';
import { startWorkers } from '../helpers/queue-worker-process.js';

const world = tempWorld('remote-input');
const home = (name: string) => ({ STINT_HOME: world.path(`home-${name}`), STINT_CHECKPOINT_INTERVAL_MS: '0' });
const CHUNK = 256 * 1024;
const local = world.path('mixed.csv');
writeMixedCsv(local, 6 * 1024 * 1024);
const bytes = readFileSync(local);
const HEARTBEAT = /\] stint analyze: .* \[(\d+)\/(\d+) bytes\]/;

const servers: RangeServer[] = [];
after(() => Promise.all(servers.map((server) => server.close().catch(() => undefined))));
async function serving(name: string, body: Uint8Array, options = {}): Promise<RangeServer> {
  const server = await startRangeServer(options);
  servers.push(server);
  server.put(name, body);
  return server;
}

type Envelope = Awaited<ReturnType<typeof runJson>>['envelope'];
const analyze = (input: string, env: Record<string, string>, extra: string[] = []) =>
  runJson(['analyze', input, '--chunk-size', String(CHUNK), '--budget', '0', ...extra], { env });

/** The local file's answer, the one every remote read of the same bytes must give. */
const expected = (async () => (await analyze(local, home('local'))).envelope)();

/**
 * A remote answer as the local file's would read: the input named by its path, and cited by the local file's
 * size and mtime (a server's Last-Modified has whole seconds) with no ETag. Everything else compared whole.
 */
function asLocal(envelope: Envelope, url: string, localEnvelope: Envelope): unknown {
  const text = JSON.stringify(envelope.data).replaceAll(JSON.stringify(url).slice(1, -1), local);
  const data = JSON.parse(text) as { established: { cite: Record<string, unknown> }[] };
  const localCite = (localEnvelope.data as unknown as typeof data).established[0]!.cite;
  for (const entry of data.established) {
    delete entry.cite['etag'];
    entry.cite['mtime'] = localCite['mtime'];
  }
  return data;
}

async function assertSameAsLocal(envelope: Envelope, url: string, message: string): Promise<void> {
  const local = await expected;
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  assert.equal(JSON.stringify(asLocal(envelope, url, local)), JSON.stringify(local.data), message);
}

test('analyze of an http:// object answers what the local file answers', async () => {
  const server = await serving('mixed.csv', bytes);
  const url = server.urlOf('mixed.csv');
  const { envelope } = await analyze(url, home('whole'));
  await assertSameAsLocal(envelope, url, 'the same answer as the file on disk');
  const cite = (envelope.data as unknown as { established: { cite: { etag?: string } }[] }).established[0]!.cite;
  assert.match(cite.etag ?? '', /^".+"$/, 'the answer cites the version it read');
  // Besides the header's samples (64 KiB each), every byte once: a chunk that starts again from its true start
  // (a quoted line break fooled its first guess) and the bytes two chunks share come from the fetch thread's cache.
  const { maxTimesSent, bytesSent } = server.coverage('mixed.csv');
  assert.ok(bytesSent <= bytes.length + 4 * 64 * 1024, `read once: ${bytesSent} bytes of ${bytes.length}`);
  assert.ok(maxTimesSent <= 3, `no byte past the samples read twice (at most ${maxTimesSent} times)`);
});

/** Where the ranges a call asked for begin, past the header's samples (which every call reads again). */
const rangeStarts = (server: RangeServer, fromRequest: number) => server.log.slice(fromRequest)
  .filter((r) => r.method === 'GET' && r.from !== undefined && r.from > 64 * 1024).map((r) => r.from!);

test('a budget, a SIGINT and a kill -9, each followed by the identical call, resume by range', async () => {
  for (const interruption of ['budget', 'SIGINT', 'SIGKILL'] as const) {
    const server = await serving('mixed.csv', bytes);
    const url = server.urlOf('mixed.csv');
    const env = home(`interrupted-${interruption}`);
    const args = ['analyze', url, '--chunk-size', String(CHUNK), '--workers', '1', '--heartbeat-ms', '5'];
    let first: CliRun;
    if (interruption === 'budget') {
      first = (await runJson([...args, '--budget', '300ms'], { env })).run;
    } else {
      const running = startCli([...args, '--budget', '0'], { env });
      const total = Number((await running.stderrLine(HEARTBEAT))?.[2]);
      // On to a tenth of the object or more (progress with at most one digit fewer than the total).
      await running.stderrLine(new RegExp(`\\] stint analyze: .* \\[(\\d{${String(total).length - 1},})/`));
      running.kill(interruption);
      first = await running.done;
    }
    const firstCode = first.code ?? first.signal;
    // A budget detaches analyze (its job reads on in the background); a signal leaves a checkpoint.
    const saved = interruption === 'budget' ? undefined : (await checkpointDone(env.STINT_HOME)) ?? 0;
    if (saved !== undefined) assert.ok(saved > 0, `${interruption}: a checkpoint part of the way (${saved})`);
    const secondCall = server.log.length;
    const { envelope } = await runJson([...args, '--budget', '0'], { env });
    await assertSameAsLocal(envelope, url, `after a ${interruption} (first call: ${firstCode})`);
    if (saved !== undefined) {
      // The identical call reads on from its checkpoint's chunk: nothing before it is asked for again.
      const earliest = Math.min(...rangeStarts(server, secondCall));
      assert.ok(earliest >= saved - CHUNK - 1, `${interruption}: resumed at byte ${earliest}, checkpoint ${saved}`);
    }
    // Bytes read twice: at most the chunks in flight when the first call stopped (one worker: two), the one
    // the fetch thread read ahead, and the header's samples.
    const again = server.coverage('mixed.csv').bytesSent - bytes.length;
    assert.ok(again <= 3 * CHUNK + 8 * 64 * 1024, `${interruption}: ${again} bytes read twice`);
  }
});

test('an object replaced between calls is read anew (CHECKPOINT_DISCARDED), never as a mix of two', async () => {
  const server = await serving('mixed.csv', bytes);
  const url = server.urlOf('mixed.csv');
  const env = home('replaced');
  const args = ['analyze', url, '--chunk-size', String(CHUNK), '--workers', '1', '--heartbeat-ms', '5'];
  const running = startCli([...args, '--budget', '0'], { env });
  assert.ok(await running.stderrLine(HEARTBEAT), 'the run reports progress');
  running.kill('SIGINT');
  const stopped = await running.done;
  assert.ok((await checkpointDone(env.STINT_HOME) ?? 0) > 0, `stopped with a checkpoint (${stopped.code})`);
  const other = world.path('other.csv');
  writeMixedCsv(other, 6 * 1024 * 1024, 11);
  server.replace('mixed.csv', readFileSync(other));
  const { envelope } = await runJson([...args, '--budget', '0'], { env });
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  assert.ok(envelope.warnings.some((w) => w.code === 'CHECKPOINT_DISCARDED'), JSON.stringify(envelope.warnings));
  const fresh = await analyze(other, home('other'));
  const columns = (e: Envelope) => JSON.stringify((e.data as { established: { a: unknown }[] }).established[0]!.a);
  assert.equal(columns(envelope), columns(fresh.envelope), 'the answer is the new version\'s alone');
});

test('an object replaced mid-run: INPUT_CHANGED (6), nothing of the new version read as the old', async () => {
  const server = await serving('mixed.csv', bytes);
  const url = server.urlOf('mixed.csv');
  const args = ['analyze', url, '--chunk-size', String(CHUNK), '--workers', '1', '--heartbeat-ms', '5'];
  const running = startCli([...args, '--budget', '0'], { env: home('mid-run') });
  await running.stderrLine(HEARTBEAT);
  server.replace('mixed.csv', Buffer.concat([bytes, Buffer.from('9,9,9,Oslo,2020-01-01,,\r\n')]));
  const done = await running.done;
  const envelope = JSON.parse(done.stdout) as Envelope;
  // It may have read every range before the replacement landed: then its answer is the old version's, whole.
  if (envelope.meta.exit_code === 0) return assertSameAsLocal(envelope, url, 'all read before the replacement');
  assert.equal(envelope.meta.exit_code, 6, done.stdout);
  assert.equal(envelope.error?.code, 'INPUT_CHANGED');
});

test('a server that resets connections and answers 503 at random: the answer, or a retryable code', async () => {
  for (const seed of [1, 2, 3]) {
    const server = await serving('mixed.csv', bytes, { faults: { seed, rate: 0.2 } });
    const url = server.urlOf('mixed.csv');
    const { envelope } = await analyze(url, home(`faults-${seed}`));
    if (envelope.meta.exit_code === 0) await assertSameAsLocal(envelope, url, `seed ${seed}`);
    else {
      assert.equal(envelope.error?.code, 'REMOTE_UNAVAILABLE', JSON.stringify(envelope.error));
      assert.equal(envelope.error?.retryable, true);
    }
  }
});

test('refused: 404 → 5, 401 → 8, 403 → 7, always 429 → 11, no ranges → 4, a server gone → 12', async () => {
  const cases = [
    { name: 'missing', options: {}, path: 'nope.csv', exit: 5, code: 'FILE_NOT_FOUND' },
    { name: 'no credentials', options: { authorization: 'Bearer s3cret' }, exit: 8, code: 'AUTH_REQUIRED' },
    { name: 'throttled', options: { throttleEvery: 1 }, exit: 11, code: 'REMOTE_THROTTLED' },
    { name: 'no ranges', options: { noRanges: true }, exit: 4, code: 'RANGES_UNSUPPORTED' },
  ];
  for (const c of cases) {
    const server = await serving('mixed.csv', bytes, c.options);
    const { envelope } = await analyze(server.urlOf(c.path ?? 'mixed.csv'), home(`refused-${c.name}`));
    assert.equal(envelope.meta.exit_code, c.exit, `${c.name}: ${JSON.stringify(envelope.error)}`);
    assert.equal(envelope.error?.code, c.code, c.name);
  }
  const basic = `Basic ${Buffer.from('u:p').toString('base64')}`;
  const secured = await serving('mixed.csv', bytes, { authorization: basic });
  const wrong = secured.urlOf('mixed.csv').replace('http://', 'http://u:wrong@');
  const refused = await analyze(wrong, home('wrong-password'));
  assert.equal(refused.envelope.error?.code, 'PERMISSION_DENIED');
  assert.ok(!JSON.stringify(refused.envelope).includes('wrong'), 'the password never appears in the answer');
  const right = secured.urlOf('mixed.csv').replace('http://', 'http://u:p@');
  const allowed = await analyze(right, home('right-password'));
  assert.equal(allowed.envelope.meta.exit_code, 0, JSON.stringify(allowed.envelope.error));
  const gone = await serving('mixed.csv', bytes);
  const url = gone.urlOf('mixed.csv');
  await gone.close();
  const unreachable = await analyze(url, home('gone'));
  assert.equal(unreachable.envelope.meta.exit_code, 12);
  assert.equal(unreachable.envelope.error?.retryable, true);
});

test('analyze of a URL with a password, paused by its budget, goes on in the background with that password,'
  + ' which no file of the state folder holds', async () => {
  const password = 'p@ss word';
  const basic = `Basic ${Buffer.from(`u:${password}`).toString('base64')}`;
  const server = await serving('mixed.csv', bytes, { authorization: basic });
  const url = server.urlOf('mixed.csv').replace('http://', `http://u:${encodeURIComponent(password)}@`);
  // Ranges past the first chunk wait, so the budget surely ends with work left: the job goes on in a supervisor.
  server.holdFrom(CHUNK);
  const env = { ...home('detached-password'), STINT_HTTP_PASSWORD: undefined };
  const paused = await runJson(['analyze', url, '--chunk-size', String(CHUNK), '--budget', '1s'], { env });
  assert.equal(paused.envelope.meta.exit_code, 14, JSON.stringify(paused.envelope.error));
  const job = paused.envelope.data as unknown as { state: string; job_id: string };
  assert.equal(job.state, 'running');
  server.holdFrom(undefined);
  const { envelope } = await runJson(['job', 'wait', job.job_id, '--budget', '0'], { env });
  // The answer names the object without its credentials.
  await assertSameAsLocal(envelope, server.urlOf('mixed.csv'), 'the background run read with the call\'s password');
  const kept = filesUnder(env.STINT_HOME).map((file) => readFileSync(file).toString('latin1'));
  assert.ok(kept.length > 0 && kept.every((text) => !text.includes('p@ss') && !text.includes('p%40ss')),
    'no file of the state folder holds the password');
});

/** The table of a SQLite file as CSV, by stint's own export. */
async function exported(db: string): Promise<string> {
  const output = world.path(`${db}.csv`);
  const { envelope } = await runJson(['export', `sqlite:${world.path(db)}`, '--table', 't', '--output', output,
    '--budget', '0'], { env: home(`export-${db}`) });
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  return readFileSync(output, 'utf8');
}

/** Imports `input` into the SQLite file `db`, calling again while the call pauses (exit 14); answers the calls. */
async function importWhole(input: string, db: string, env: Record<string, string>, budget = '0'): Promise<number> {
  const args = ['import', input, '--into', `sqlite:${world.path(db)}`, '--table', 't', '--chunk-size', '64KiB',
    '--budget', budget];
  for (let calls = 1; calls <= 200; calls++) {
    const { envelope } = await runJson(args, { env });
    if (envelope.meta.exit_code === 0) return calls;
    assert.equal(envelope.meta.exit_code, 14, JSON.stringify(envelope.error));
  }
  throw new Error(`${input} was not imported in 200 calls`);
}

/** The local file's table as CSV, imported once when a test first needs it. */
let localImport: Promise<string> | undefined;
const localTable = () => (localImport ??= importWhole(local, 'local.db', home('import-local'))
  .then(() => exported('local.db')));

test('import of an http:// object writes the table the local file writes, whole or paused by its budget', async () => {
  const server = await serving('mixed.csv', bytes);
  await importWhole(server.urlOf('mixed.csv'), 'remote.db', home('import-remote'));
  assert.equal(await exported('remote.db'), await localTable());
  const paused = await serving('mixed.csv', bytes);
  const calls = await importWhole(paused.urlOf('mixed.csv'), 'paused.db', home('import-paused'), '1s');
  assert.equal(await exported('paused.db'), await localTable(), `the same table after ${calls} calls`);
  // Each call reads the header and the type sample again; the rows' ranges are read about once. A call that
  // pauses drops the chunks it had not committed: with one worker, two read ahead and one being committed. Each was
  // read with the lookahead that finds where its last record ends.
  const again = paused.coverage('mixed.csv').bytesSent - bytes.length;
  const header = bytes.indexOf('\n') + 1;
  const dropped = 3 * (64 * 1024 + REMOTE_LOOKAHEAD + 1);
  assert.ok(again <= calls * (header + SAMPLE_BYTES + 1 + dropped), `${again} bytes read again over ${calls} calls`);
});

test('import of an http:// object with a password: the same table, and no answer or file of the state folder'
  + ' holds the password', async () => {
  const password = 'imp0rt pw@x';
  const server = await serving('mixed.csv', bytes, { authorization: `Basic ${btoa(`u:${password}`)}` });
  const url = server.urlOf('mixed.csv').replace('http://', `http://u:${encodeURIComponent(password)}@`);
  const env = { ...home('import-password'), STINT_HTTP_PASSWORD: undefined };
  const db = world.path('password.db');
  // 10 ms ends before the first safe point: the call surely pauses.
  const first = await runJson(['import', url, '--into', `sqlite:${db}`, '--table', 't', '--chunk-size', '64KiB',
    '--budget', '10ms'], { env });
  assert.equal(first.envelope.meta.exit_code, 14, JSON.stringify(first.envelope.error));
  const paused = (first.envelope.data as unknown as { continue_command: string }).continue_command;
  // The continue_command names the URL without its password, which the caller's environment then gives.
  const rest = await runShell(paused.replace('--budget 10ms', '--budget 0'), { ...env, STINT_HTTP_PASSWORD: password });
  assert.equal(envelopeOf(rest).meta.exit_code, 0, rest.stdout);
  assert.equal(await exported('password.db'), await localTable());
  const said = [first.run.stdout, first.run.stderr, rest.stdout, rest.stderr];
  const kept = filesUnder(env.STINT_HOME).map((file) => readFileSync(file).toString('latin1'));
  for (const text of [...said, ...kept, readFileSync(db).toString('latin1')]) {
    assert.ok(!text.includes('imp0rt') && !text.includes(encodeURIComponent(password)), 'the password is nowhere');
  }
});

test('bench --input of an http:// object measures it, read by range', async () => {
  const server = await serving('mixed.csv', bytes);
  const url = server.urlOf('mixed.csv');
  const { envelope } = await runJson(['bench', '--input', url, '--suite', 'throughput', '--samples', '1'],
    { env: home('bench') });
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  const data = envelope.data as { input: { path: string; bytes: number }; figures: { id: string }[] };
  assert.deepEqual([data.input.path, data.input.bytes], [url, bytes.length]);
  assert.ok(data.figures.some((f) => f.id === 'throughput.engine'), JSON.stringify(data.figures));
  assert.ok(server.coverage('mixed.csv').ranges.length > 1, 'read by ranges');
});

const redisAbsent = redisMissing();
test('--queue with two workers reading the object by range, no file shared: the local file\'s answer',
  { skip: redisAbsent ? `skipped: ${redisAbsent}` : false }, async () => {
    const redis = await startRedis();
    const server = await serving('mixed.csv', bytes);
    const url = server.urlOf('mixed.csv');
    // The workers run in a folder of their own: the object's bytes reach them only from the server.
    const pool = await startWorkers(redis.url, 2, { STINT_HOME: world.path('home-workers') });
    try {
      const { envelope } = await analyze(url, home('queue'), ['--queue', redis.url]);
      await assertSameAsLocal(envelope, url, 'the queue\'s answer is the local file\'s');
      const chunks = pool.flatMap((w) => w.of('chunk')).filter((e) => e['path'] === url);
      assert.ok(chunks.length >= Math.floor(bytes.length / CHUNK), `the workers mapped ${chunks.length} chunks`);
      assert.ok(pool.every((w) => w.of('chunk').length > 0), 'both workers read ranges');
    } finally {
      await Promise.all(pool.map((w) => w.stop()));
      await redis.stop();
    }
  });

// s3:// through a real S3-compatible server (s3rver, from npm) driven by the AWS SDK, in this process.
const startS3 = () => startS3Store(world.path(`s3-${Date.now()}`));

test('s3:// objects: analyze and import answer what the local file does, nothing on stderr;'
  + ' a missing key is 5', async () => {
  const s3 = await startS3();
  try {
    await s3.put('data/mixed.csv', bytes);
    const url = s3.urlOf('data/mixed.csv');
    const { run, envelope } = await analyze(url, { ...home('s3'), ...s3.env });
    await assertSameAsLocal(envelope, url, 'the S3 object\'s answer is the local file\'s');
    // Nothing of the SDK's own on stderr (on Node 20 it prints a notice of the Node versions it will need).
    assert.equal(run.stderr, '', 'a call that finished says nothing on stderr');
    await importWhole(url, 's3.db', { ...home('s3-import'), ...s3.env });
    assert.equal(await exported('s3.db'), await localTable(), 'the S3 object\'s table is the local file\'s');
    const missing = await analyze(s3.urlOf('data/none.csv'), { ...home('s3-missing'), ...s3.env });
    assert.equal(missing.envelope.meta.exit_code, 5, JSON.stringify(missing.envelope.error));
    assert.equal(missing.envelope.error?.code, 'FILE_NOT_FOUND');
  } finally {
    await s3.close();
  }
});

/** How the S3 endpoint below answers a GET of a range. */
type S3Misstep = 'short body' | 'long body' | 'SlowDown';

/**
 * An S3-compatible endpoint that answers HEAD as a store does and every ranged GET with one misstep, so that the
 * real AWS SDK in stint meets what a failing store sends. Stops with the test.
 */
async function misstepping(misstep: S3Misstep): Promise<{ readonly env: Record<string, string>; server: Server }> {
  const etag = '"e1"';
  const server = createServer((request, response) => {
    const head = { 'Content-Type': 'text/csv', ETag: etag, 'Last-Modified': new Date(0).toUTCString() };
    if (request.method === 'HEAD') {
      return void response.writeHead(200, { ...head, 'Content-Length': bytes.length }).end();
    }
    if (misstep === 'SlowDown') {
      const xml = '<?xml version="1.0"?><Error><Code>SlowDown</Code><Message>Reduce your rate</Message></Error>';
      return void response.writeHead(503, { 'Content-Type': 'application/xml' }).end(xml);
    }
    const [, from, to] = /bytes=(\d+)-(\d+)/.exec(request.headers.range ?? '')!.map(Number) as number[];
    const end = misstep === 'short body' ? to! : to! + 2;
    const body = bytes.subarray(from!, Math.min(end, bytes.length));
    const range = `bytes ${from}-${from! + body.length - 1}/${bytes.length}`;
    response.writeHead(206, { ...head, 'Content-Range': range, 'Content-Length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const env = {
    AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`, AWS_ACCESS_KEY_ID: 'K', AWS_SECRET_ACCESS_KEY: 'S',
    AWS_REGION: 'us-east-1',
  };
  return { env, server };
}

test('an S3 store that sends a range one byte short or over, or SlowDown: 12 or 11, retryable, never a wrong answer',
  async () => {
    const cases = [
      { misstep: 'short body', exit: 12, code: 'REMOTE_UNAVAILABLE' },
      { misstep: 'long body', exit: 12, code: 'REMOTE_UNAVAILABLE' },
      { misstep: 'SlowDown', exit: 11, code: 'REMOTE_THROTTLED' },
    ] as const;
    for (const c of cases) {
      const { env, server } = await misstepping(c.misstep);
      try {
        const { envelope } = await analyze('s3://bucket/mixed.csv', { ...home(`s3-${c.misstep}`), ...env });
        assert.equal(envelope.meta.exit_code, c.exit, `${c.misstep}: ${JSON.stringify(envelope.error)}`);
        assert.equal(envelope.error?.code, c.code, c.misstep);
        assert.equal(envelope.error?.retryable, true, c.misstep);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });

test('--queue with two workers reading an s3:// object, no file shared: the local file\'s answer',
  { skip: redisAbsent ? `skipped: ${redisAbsent}` : false }, async () => {
    const s3 = await startS3();
    const redis = await startRedis();
    const pool = await startWorkers(redis.url, 2, { STINT_HOME: world.path('home-s3-workers'), ...s3.env });
    try {
      await s3.put('mixed.csv', bytes);
      const url = s3.urlOf('mixed.csv');
      const { envelope } = await analyze(url, { ...home('s3-queue'), ...s3.env }, ['--queue', redis.url]);
      await assertSameAsLocal(envelope, url, 'the queue\'s answer is the local file\'s');
      assert.ok(pool.every((w) => w.of('chunk').some((e) => e['path'] === url)), 'both workers read ranges');
    } finally {
      await Promise.all(pool.map((w) => w.stop()));
      await redis.stop();
      await s3.close();
    }
  });
