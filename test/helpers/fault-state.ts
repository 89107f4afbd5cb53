// What a schedule leaves behind once it ended: processes that still carry
// its STINT_HOME, jobs not in a terminal state, leases, checkpoints.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseProcStat } from '../../src/runtime/jobs/process-identity.js';

/** Live processes whose environment holds STINT_HOME=home (zombies have an empty environ). */
export function processesOf(home: string): { pid: number; cmdline: string }[] {
  const needle = `STINT_HOME=${home}\0`;
  const found: { pid: number; cmdline: string }[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').includes(needle)) continue;
      found.push({ pid, cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/**
 * Waits (a fact-based wait: until none is left, with a generous guard) for
 * the schedule's processes to end; answers those still alive at the guard.
 */
export async function lingeringProcesses(home: string, guardMs = 20_000): Promise<{ pid: number; cmdline: string }[]> {
  const since = Date.now();
  let left = processesOf(home);
  while (left.length > 0 && Date.now() - since < guardMs) {
    await sleep(50);
    left = processesOf(home);
  }
  return left;
}

/** Whether pid is a process of this STINT_HOME (so the harness may signal it). */
export const isProcessOf = (pid: number, home: string): boolean => processesOf(home).some((p) => p.pid === pid);

interface StatusShape {
  readonly state: string;
  readonly pid?: number;
}

/** Jobs still `running` or `paused`. */
export function staleJobs(home: string): string[] {
  const unfinished = jobFolders(home).filter(({ status }) => status?.state === 'running' || status?.state === 'paused');
  const line = ({ id, dir, status }: JobFolder) =>
    `${id}: ${status!.state} (pid ${status!.pid ?? '-'}: ${pidFacts(status!.pid)}) ${folderFacts(dir)}`;
  return unfinished.map(line);
}

/** What the system says of a pid now: gone, or its state letter, start time and command line. */
function pidFacts(pid: number | undefined): string {
  try {
    const stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').slice(0, 120);
    return `state ${stat?.state}, start ${stat?.start}, ${cmdline || 'no command line'}`;
  } catch {
    return 'gone';
  }
}

/** What a stale job's folder holds, for a finding that can be understood without the folder: files, end, words. */
function folderFacts(dir: string): string {
  const read = (name: string): { status?: { state?: string }; argv?: string[]; createdAt?: number } | undefined => {
    try {
      return JSON.parse(readFileSync(join(dir, name), 'utf8')) as ReturnType<typeof read>;
    } catch {
      return undefined;
    }
  };
  const record = read('job.json');
  const budget = record?.argv?.slice(record.argv.indexOf('--budget')).join(' ') ?? '-';
  const created = record?.createdAt ? new Date(record.createdAt).toISOString() : '-';
  const end = read('end.json')?.status?.state ?? 'none';
  return `[files ${readdirSync(dir).join(',')}; end ${end}; created ${created} by a call with ${budget}]`;
}

/** Leases left in job folders, with the state of their job. */
export function staleLeases(home: string): string[] {
  return jobFolders(home).flatMap(({ id, dir, status }) => {
    if (!existsSync(join(dir, 'lease'))) return [];
    return [`${id} (${status?.state ?? 'no status'}): lease of pid ${readFileSync(join(dir, 'lease'), 'utf8')}`];
  });
}

interface JobFolder {
  readonly id: string;
  readonly dir: string;
  readonly status: StatusShape | undefined;
}

function jobFolders(home: string): JobFolder[] {
  const jobs = join(home, 'jobs');
  if (!existsSync(jobs)) return [];
  return readdirSync(jobs).map((id) => {
    const dir = join(jobs, id);
    try {
      return { id, dir, status: JSON.parse(readFileSync(join(dir, 'status.json'), 'utf8')) as StatusShape };
    } catch {
      // a job folder without a status: its creator died between the two writes
      return { id, dir, status: undefined };
    }
  });
}

/** Checkpoint folders left in STINT_HOME/checkpoints. */
export function leftoverCheckpoints(home: string): string[] {
  const dir = join(home, 'checkpoints');
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** Import checkpoints (`ckpt:` keys) left in the table. */
export async function tableCheckpoints(db: string): Promise<string[]> {
  if (!existsSync(db)) return [];
  const { Level } = await import('level');
  const level = new Level<string, Uint8Array>(db, { valueEncoding: 'view', createIfMissing: false });
  try {
    return await level.keys({ gte: 'ckpt:', lt: 'ckpt;' }).all();
  } finally {
    await level.close();
  }
}
