// What a queued run left where a test can look: the chunk jobs and live keys in Redis, and the call's checkpoint.
import { readdirSync } from 'node:fs';
import { Redis } from 'ioredis';
import { Level } from 'level';
import { unpack } from 'msgpackr';

/**
 * A chunk job's own keys (its hash, lock, logs): `<namespace>:chunks-<build>:`, the run's key, `-c` and 40 hex
 * digits (the namespace is the program's name unless set; the queue is named for the program's build).
 */
const JOB_KEY = /^([^:]+:chunks-[0-9a-f]+):(([0-9a-f]+)-c[0-9a-f]{40})(:|$)/;

/** What Redis holds of any run: the ids of chunk jobs still there (each with its run's key), and live keys. */
export interface QueueLeft {
  readonly jobs: readonly { readonly id: string; readonly run: string; readonly state: string }[];
  readonly live: readonly string[];
}

/** Where a job is, for a failure's message: the queue's lists and sets that hold it, and whether it is locked. */
async function stateOf(client: Redis, queue: string, id: string): Promise<string> {
  const where: string[] = [];
  for (const list of ['wait', 'active', 'paused']) {
    if ((await client.lpos(`${queue}:${list}`, id)) !== null) where.push(list);
  }
  for (const set of ['completed', 'failed', 'delayed', 'prioritized']) {
    if ((await client.zscore(`${queue}:${set}`, id)) !== null) where.push(set);
  }
  if (await client.exists(`${queue}:${id}:lock`)) where.push('locked');
  return where.join('+') || 'in no list';
}

export async function queueLeft(url: string): Promise<QueueLeft> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const jobs = new Map<string, { queue: string; run: string }>();
    for (const key of await client.keys('*:chunks-*')) {
      const found = JOB_KEY.exec(key);
      if (found) jobs.set(found[2]!, { queue: found[1]!, run: found[3]! });
    }
    const found = await Promise.all([...jobs].map(async ([id, { queue, run }]) =>
      ({ id, run, state: await stateOf(client, queue, id) })));
    return { jobs: found, live: await client.keys('*:live:*') };
  } finally {
    client.disconnect();
  }
}

/** The one checkpoint under a state folder (its progress and the queue workers it names), once its call ended. */
export async function checkpointRecord(stateDir: string): Promise<{
  readonly key: string;
  readonly progress: { readonly done: number; readonly workers?: number };
  readonly workers?: readonly string[];
} | undefined> {
  const dir = `${stateDir}/checkpoints`;
  const keys = readdirSync(dir).filter((name) => !name.endsWith('.json'));
  if (keys.length !== 1) return undefined;
  const db = new Level<string, Uint8Array>(`${dir}/${keys[0]}`, { valueEncoding: 'view' });
  await db.open();
  try {
    const bytes = await db.get('checkpoint');
    return bytes ? { key: keys[0]!, ...(unpack(bytes) as { progress: { done: number } }) } : undefined;
  } finally {
    await db.close();
  }
}
