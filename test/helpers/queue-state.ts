// What a queued run left where a test can look: the chunk jobs and live keys in Redis, and the call's checkpoint.
import { readdirSync } from 'node:fs';
import { Redis } from 'ioredis';
import { Level } from 'level';
import { unpack } from 'msgpackr';

/** A chunk job's own keys (its hash, lock, logs): `stint:chunks:`, the run's key, `-c` and 40 hex digits. */
const JOB_KEY = /^stint:chunks:(([0-9a-f]+)-c[0-9a-f]{40})(:|$)/;

/** What Redis holds of any run: the ids of chunk jobs still there (each with its run's key), and live keys. */
export interface QueueLeft {
  readonly jobs: readonly { readonly id: string; readonly run: string; readonly state: string }[];
  readonly live: readonly string[];
}

/** Where a job is, for a failure's message: the queue's lists and sets that hold it, and whether it is locked. */
async function stateOf(client: Redis, id: string): Promise<string> {
  const where: string[] = [];
  for (const list of ['wait', 'active', 'paused']) {
    if ((await client.lpos(`stint:chunks:${list}`, id)) !== null) where.push(list);
  }
  for (const set of ['completed', 'failed', 'delayed', 'prioritized']) {
    if ((await client.zscore(`stint:chunks:${set}`, id)) !== null) where.push(set);
  }
  if (await client.exists(`stint:chunks:${id}:lock`)) where.push('locked');
  return where.join('+') || 'in no list';
}

export async function queueLeft(url: string): Promise<QueueLeft> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const jobs = new Map<string, string>();
    for (const key of await client.keys('stint:chunks:*')) {
      const found = JOB_KEY.exec(key);
      if (found) jobs.set(found[1]!, found[2]!);
    }
    const found = await Promise.all([...jobs].map(async ([id, run]) => ({ id, run, state: await stateOf(client, id) })));
    return { jobs: found, live: await client.keys('stint:live:*') };
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
