// A real redis-server (Debian's package) for the queue tests: a free loopback port, its own temporary folder,
// persistence on (appendonly), stopped when the test file ends. `.ci/run` installs it when absent.
// STINT_TEST_REDIS=redis://host:port[/db] runs them against a Redis of yours instead (one no one else uses:
// the tests check that nothing of a run stays there); the tests that stop, restart or kill Redis then skip.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port.js';
import { tempWorld } from './temp-world.js';

/** A Redis of the caller's that the queue tests use instead of starting one. */
export const TEST_REDIS_ENV = 'STINT_TEST_REDIS';
const given = (): string | undefined => process.env[TEST_REDIS_ENV] || undefined;

/** Why a test that restarts or kills Redis cannot run: the Redis is not the suite's own. */
export function redisNotOwned(): string | undefined {
  if (!given()) return undefined;
  return `${TEST_REDIS_ENV} names a Redis the tests do not own (they stop, restart and kill only their own)`;
}

/** Why the queue tests cannot run here, or undefined when redis-server is installed (or STINT_TEST_REDIS given). */
export function redisMissing(): string | undefined {
  if (given()) return undefined;
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return found.status === 0 ? undefined : 'redis-server is not installed (apt-get install -y redis-server)';
}

export interface RedisServer {
  readonly url: string;
  /** Stops it (SIGTERM: it writes its append-only file first) and starts it again on the same port and folder. */
  restart(): Promise<void>;
  /** Kills it with SIGKILL (no final write) and starts it again on the same port, from what its AOF holds. */
  crash(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts redis-server and resolves once it accepts connections (its own log line says so). */
function launch(port: number, dir: string, extra: readonly string[]): Promise<ChildProcess> {
  const child = spawn('redis-server', [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', '',
    '--logfile', '', '--daemonize', 'no', '--protected-mode', 'yes', ...extra,
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let log = '';
    const guard = setTimeout(() => reject(new Error(`redis-server did not start: ${log}`)), 20_000);
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      log += text;
      if (/Ready to accept connections/.test(log)) {
        clearTimeout(guard);
        resolve(child);
      }
    });
    child.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${log}`)));
  });
}

function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** The Redis of STINT_TEST_REDIS: used as it is, never stopped. */
function givenRedis(url: string): RedisServer {
  const notOwned = async () => {
    throw new Error(redisNotOwned());
  };
  return { url, restart: notOwned, crash: notOwned, stop: async () => undefined };
}

/**
 * `config`: more redis-server settings, as its command line takes them (`--requirepass`, `--user ...`); a test
 * that needs them runs only on its own Redis (redisNotOwned).
 */
export async function startRedis(config: readonly string[] = []): Promise<RedisServer> {
  const url = given();
  if (url && config.length === 0) return givenRedis(url);
  const dir = tempWorld('redis').dir;
  const port = await freePort();
  let child = await launch(port, dir, config);
  const stop = async () => {
    child.kill('SIGTERM');
    await ended(child);
  };
  process.on('exit', () => child.kill('SIGKILL'));
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    async restart() {
      await stop();
      child = await launch(port, dir, config);
    },
    async crash() {
      child.kill('SIGKILL');
      await ended(child);
      child = await launch(port, dir, config);
    },
  };
}
