// The remote bench's second HTTP server: Debian's nginx, as big files are served in production. It hands the
// file to the socket with sendfile, so it takes little of the two cores it shares with stint here (the tests'
// range server in the bench's own process reads each range into memory and writes it out again). Started in a
// folder of its own on a free port, one process (no master), and stopped by the bench.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../test/helpers/free-port.js';
import { home } from './suites.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'];
/** How long nginx may take to listen: a guard against a server that never does, not a claim about speed. */
const LISTEN_WAIT_MS = 10_000;

export interface NginxFile {
  /** http://127.0.0.1:port/name */
  readonly url: string;
  /** The CPU time nginx has used so far, in ms (its own process: user and system). */
  cpuMs(): number;
  close(): Promise<void>;
}

const nginxPath = (): string | undefined => NGINX.find((path) => existsSync(path));

/** Why nginx cannot serve here, or undefined when it can. */
export const nginxMissing = (): string | undefined =>
  nginxPath() ? undefined : 'no nginx (apt-get install nginx-light)';

function config(root: string, port: number): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `${kind}_temp_path ${join(root, `${kind}-temp`)};`).join(' ');
  return [
    'daemon off;', 'master_process off;', `pid ${join(root, 'nginx.pid')};`, `error_log ${join(root, 'error.log')};`,
    'events { worker_connections 64; }',
    `http { access_log off; sendfile on; keepalive_requests 1000000; ${temp}`,
    `  server { listen 127.0.0.1:${port}; root ${join(root, 'files')}; } }`,
  ].join('\n');
}

/** The clock ticks /proc counts CPU time in, per second. */
const ticksPerSecond = (): number => Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

function cpuMsOf(pid: number, ticks: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command's name: state is the first; utime and stime the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks;
}

async function listening(port: number, child: ChildProcess): Promise<void> {
  const until = Date.now() + LISTEN_WAIT_MS;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(true)).on('error', () => resolve(false));
      socket.on('connect', () => socket.end());
    });
    if (up) return;
    if (child.exitCode !== null || Date.now() > until) throw new Error(`nginx did not listen on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Serves `path` as `name` from nginx. */
export async function serveWithNginx(path: string, name: string): Promise<NginxFile> {
  const root = home('nginx');
  mkdirSync(join(root, 'files'));
  symlinkSync(path, join(root, 'files', name));
  const port = await freePort();
  writeFileSync(join(root, 'nginx.conf'), config(root, port));
  const child = spawn(nginxPath()!, ['-c', join(root, 'nginx.conf'), '-p', root], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    await listening(port, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const ticks = ticksPerSecond();
  return {
    url: `http://127.0.0.1:${port}/${name}`,
    cpuMs: () => cpuMsOf(child.pid!, ticks),
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
