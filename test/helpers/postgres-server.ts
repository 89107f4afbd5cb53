// A real PostgreSQL (Debian's `postgresql` package) for the database tests: a new cluster in its own temporary
// folder, on a free loopback port, stopped when the test file ends. `.ci/run` installs the package when absent.
// PostgreSQL refuses to run as root: under root its programs run as the `postgres` user the package creates, on a
// folder given to that user. Debian keeps the programs off PATH (/usr/lib/postgresql/<major>/bin).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port.js';

const DEBIAN_ROOT = '/usr/lib/postgresql';
const READY = /database system is ready to accept connections/;
const START_LIMIT_MS = 60_000;
const GROUP_POLL_MS = 20;

/** The folder of initdb and postgres: pg_config's, else the newest Debian major's; undefined when neither. */
export function postgresBin(): string | undefined {
  const config = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const named = config.status === 0 ? config.stdout.trim() : '';
  if (named && existsSync(join(named, 'initdb'))) return named;
  if (!existsSync(DEBIAN_ROOT)) return undefined;
  const majors = readdirSync(DEBIAN_ROOT).filter((major) => existsSync(join(DEBIAN_ROOT, major, 'bin', 'initdb')));
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  return newest ? join(DEBIAN_ROOT, newest, 'bin') : undefined;
}

/** The ids the server runs as: the caller's, or the `postgres` user's when the caller is root. */
export function serverIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return { uid: process.getuid!(), gid: process.getgid!() };
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const [uid, gid] = [id('-u'), id('-g')];
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresMissing(): string | undefined {
  if (!postgresBin()) return 'PostgreSQL is not installed (apt-get install -y --no-install-recommends postgresql)';
  if (!serverIds()) return 'PostgreSQL cannot run as root, and there is no postgres user to run it as';
  return undefined;
}

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication: no password). */
  readonly url: string;
  /** Stops it (a fast shutdown: open transactions roll back) and starts it again on the same port and data. */
  restart(): Promise<void>;
  /** Kills every process of it with SIGKILL and starts it again: it recovers from its write-ahead log. */
  crash(): Promise<void>;
  stop(): Promise<void>;
}

/** Whether a process of group `pgid` still runs (a zombie holds nothing: it only waits to be reaped). */
function groupRunning(pgid: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // Ended while the folder was read.
    }
    // After the command's closing parenthesis: state, parent, process group.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(group) === pgid && state !== 'Z') return true;
  }
  return false;
}

/**
 * Resolves once every process of the server's group is gone: a backend that outlives the postmaster holds the
 * shared memory, and a new postmaster refuses to start beside it.
 */
async function groupEnded(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once('exit', resolve));
  for (let waited = 0; waited < START_LIMIT_MS; waited += GROUP_POLL_MS) {
    if (!groupRunning(child.pid!)) return;
    await sleep(GROUP_POLL_MS);
  }
  throw new Error(`a process of the postgres group ${child.pid} outlived it`);
}

/** Starts postgres in its own process group (so a crash kills its backends too); resolves once it is ready. */
function launch(bin: string, data: string, port: number, ids: { uid: number; gid: number }): Promise<ChildProcess> {
  const args = ['-D', data, '-p', String(port), '-k', join(data, '..'), '-c', 'listen_addresses=127.0.0.1'];
  const child = spawn(join(bin, 'postgres'), args, { ...ids, cwd: join(data, '..'), detached: true, stdio: 'pipe' });
  return new Promise((resolve, reject) => {
    let log = '';
    const guard = setTimeout(() => reject(new Error(`postgres did not start: ${log}`)), START_LIMIT_MS);
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      log += text;
      if (READY.test(log)) {
        clearTimeout(guard);
        resolve(child);
      }
    });
    child.stdout!.resume();
    child.on('exit', (code) => reject(new Error(`postgres exited (${code}): ${log}`)));
  });
}

/**
 * A new folder the server's user can write in, removed when the process ends: under the temporary folder, or
 * under /tmp when that user cannot reach it (a TMPDIR inside root's home).
 */
function serverFolder(ids: { uid: number; gid: number }): string {
  for (const parent of [tmpdir(), '/tmp']) {
    const dir = mkdtempSync(join(parent, 'stint-postgres-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    chownSync(dir, ids.uid, ids.gid);
    if (spawnSync('test', ['-w', dir], ids).status === 0) return dir;
  }
  throw new Error(`the postgres user (uid ${ids.uid}) can reach neither ${tmpdir()} nor /tmp`);
}

/** A new cluster, started: its folder is the test file's, removed when the process ends. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBin();
  const ids = serverIds();
  if (!bin || !ids) throw new Error(postgresMissing());
  const folder = serverFolder(ids);
  const data = join(folder, 'data');
  // initdb does not sync its files: a test's cluster need not outlive a machine crash. The server syncs as usual.
  const init = ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync'];
  const made = spawnSync(join(bin, 'initdb'), init, { ...ids, cwd: folder, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`initdb failed: ${made.stderr}`);
  const port = await freePort();
  let child = await launch(bin, data, port, ids);
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // Already gone.
    }
  };
  process.on('exit', () => kill('SIGKILL'));
  const stop = async () => {
    kill('SIGINT');
    await groupEnded(child);
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    async restart() {
      await stop();
      child = await launch(bin, data, port, ids);
    },
    async crash() {
      kill('SIGKILL');
      await groupEnded(child);
      child = await launch(bin, data, port, ids);
    },
  };
}
