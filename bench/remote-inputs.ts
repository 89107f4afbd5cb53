// Analyze of an http:// and an s3:// object against the same file on disk (issue 26): the big file served by
// byte range from this machine (test/helpers/range-server.ts and s3rver through S3's API, both in this process;
// then Debian's nginx, nginx-server.ts, when it is installed), `stint analyze <url>` against
// `stint analyze <file>`. Alternating rounds, medians of wall time and of the stint process's CPU time (and the
// server's, which shares the cores), the load average. DuckDB's read_csv over the same URL needs its httpfs
// extension, which DuckDB downloads on first use: tried, and said when it cannot be had.
import { statSync } from 'node:fs';
import { REPO_ROOT, STINT_BIN } from '../test/helpers/paths.js';
import { startRangeServer } from '../test/helpers/range-server.js';
import { dataFile, home } from './suites.js';
import { alternatingRounds, inThisProcess, median, underGnuTime } from './measure.js';
import { duckDbStats, loadDuckDb } from './duckdb-baseline.js';
import { nginxMissing, serveWithNginx } from './nginx-server.js';
import { s3Object } from './s3-store.js';
import type { Figure, ProcessCost, Rounds, Step } from './measure.js';

const ROUNDS = Number(process.env['BENCH_REMOTE_ROUNDS'] ?? 2);

let calls = 0;
const analyze = (input: string, env: Record<string, string> = {}) =>
  underGnuTime([STINT_BIN, 'analyze', input, '--budget', '0'], { STINT_HOME: home(`remote-${++calls}`), ...env });

/** This process's CPU time so far, in ms: the servers it runs itself. */
function ownCpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** The CPU the server spent while `run` ran (`cpuMs`: its CPU time so far), in ms, noted in `spent`. */
async function serving(spent: number[], cpuMs: () => number, run: () => Promise<ProcessCost>): Promise<ProcessCost> {
  const before = cpuMs();
  const cost = await run();
  spent.push(cpuMs() - before);
  return cost;
}

/** Each round's throughput of the remote input against the file's: how far one run's noise moves the ratio. */
function roundByRound(rounds: Rounds, remote: string, local: string): string {
  const locals = rounds.runs[local]!;
  return rounds.runs[remote]!.map((run, k) => (locals[k]!.wallMs / run.wallMs).toFixed(2)).join(', ');
}

function figures(label: string, rounds: Rounds, remote: string, local: string, server: number[]): Figure[] {
  const of = (name: string, key: 'cpuMs' | 'wallMs') => median(rounds.runs[name]!.map((run) => run[key]));
  const serverCpu = server.length ? `; the server, on the same cores, ${(median(server) / 1000).toFixed(1)} s` : '';
  return [
    ...[remote, local].map((name) => ({
      suite: 'remote', name: `${label}: ${name}, wall`, value: of(name, 'wallMs') / 1000, unit: 's',
      detail: `CPU ${(of(name, 'cpuMs') / 1000).toFixed(1)} s (the stint process)${name === remote ? serverCpu : ''}`,
    })),
    {
      suite: 'remote', name: `${label}: ${remote} / ${local} (wall)`, unit: 'x', target: '<= 1.11',
      value: of(remote, 'wallMs') / of(local, 'wallMs'),
      detail: `throughput ${(of(local, 'wallMs') / of(remote, 'wallMs')).toFixed(2)} of the other's (target >= 0.9); `
        + `CPU ${(of(remote, 'cpuMs') / of(local, 'cpuMs')).toFixed(2)}x; ${ROUNDS} rounds, alternating, `
        + `throughput round by round ${roundByRound(rounds, remote, local)}; ${rounds.load}`,
    },
  ];
}

/** Whether DuckDB can read http:// here: its httpfs extension is downloaded from DuckDB's site on first use. */
async function duckDbOverHttp(): Promise<string> {
  const duck = await loadDuckDb(REPO_ROOT);
  if (!duck) return 'no @duckdb/node-api in bench/node_modules';
  const instance = await duck.DuckDBInstance.create(':memory:', {});
  const connection = await instance.connect();
  try {
    await connection.runAndReadAll('LOAD httpfs');
    return '';
  } catch (error) {
    return `DuckDB cannot read http:// here: ${(error as Error).message.split('\n')[0]}`;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** `stint analyze` of an object (its server in this process) against the file, in alternating rounds. */
async function againstTheFile(label: string, name: string, object: () => Promise<ProcessCost>, big: string,
  serverCpuMs = ownCpuMs) {
  const served: number[] = [];
  const steps: Step[] = [
    [name, () => serving(served, serverCpuMs, object)], ['stint analyze <file>', () => analyze(big)],
  ];
  const rounds = await alternatingRounds(steps, ROUNDS);
  return figures(label, rounds, steps[0]![0], steps[1]![0], served);
}

/** The same through S3's API: s3rver here, read by the AWS SDK in stint. */
async function s3Figures(label: string, big: string): Promise<Figure[]> {
  const object = await s3Object(big, 'big.csv');
  try {
    return await againstTheFile(label, 'stint analyze s3:// (s3rver, localhost)',
      () => analyze(object.url, object.env), big);
  } finally {
    await object.close();
  }
}

/** The same from nginx, in a process of its own, whose CPU is read from /proc; skipped, saying why, without it. */
async function nginxFigures(label: string, big: string): Promise<Figure[]> {
  const missing = nginxMissing();
  if (missing) {
    console.error(`${missing}: the http:// figures from nginx are skipped`);
    return [];
  }
  const nginx = await serveWithNginx(big, 'big.csv');
  try {
    return await againstTheFile(label, 'stint analyze http:// (nginx, localhost)', () => analyze(nginx.url), big,
      () => nginx.cpuMs());
  } finally {
    await nginx.close();
  }
}

export async function remoteFigures(gib: number): Promise<Figure[]> {
  const big = dataFile('big', Math.round(gib * 1024 ** 3));
  const label = `analyze ${(statSync(big).size / 1e6).toFixed(0)} MB`;
  const server = await startRangeServer();
  try {
    server.putFile('big.csv', big);
    const url = server.urlOf('big.csv');
    const ours = 'stint analyze http:// (range server, localhost)';
    const local = await againstTheFile(label, ours, () => analyze(url), big);
    const s3 = await s3Figures(label, big);
    const nginx = await nginxFigures(label, big);
    const unavailable = await duckDbOverHttp();
    if (unavailable) {
      console.error(`${unavailable}: the DuckDB comparison over http:// is skipped`);
      return [...local, ...s3, ...nginx];
    }
    const duck = (await loadDuckDb(REPO_ROOT))!;
    const duckSteps: Step[] = [[ours, () => analyze(url)], ['DuckDB read_csv http://',
      () => inThisProcess(() => duckDbStats(duck, url, 2))]];
    const duckRounds = await alternatingRounds(duckSteps, ROUNDS);
    return [...local, ...s3, ...nginx, ...figures(label, duckRounds, duckSteps[0]![0], duckSteps[1]![0], [])];
  } finally {
    await server.close();
  }
}
