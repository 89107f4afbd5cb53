// Everything a Redis holds, as text a test can search for an input's values: every key's contents, with each
// base64 run in them decoded too (chunk tasks and replies travel as base64 of V8's serializer, whose strings
// are the input's bytes as they are).
import { Redis } from 'ioredis';

export interface RedisContents {
  readonly keys: readonly string[];
  readonly text: string;
  /** INFO memory's used_memory, in bytes. */
  readonly usedMemory: number;
  /** The longest stream (BullMQ's event streams), in entries. */
  readonly longestStream: number;
}

/** A value as text, with its base64 runs decoded beside it. */
export function searchable(value: string): string {
  const decoded = (value.match(/[A-Za-z0-9+/]{24,}={0,2}/g) ?? []).map((run) => Buffer.from(run, 'base64').toString('latin1'));
  return [value, ...decoded].join('\n');
}

async function contentsOf(client: Redis, key: string): Promise<string[]> {
  switch (await client.type(key)) {
    case 'string': return [(await client.get(key)) ?? ''];
    case 'hash': return Object.entries(await client.hgetall(key)).flat();
    case 'list': return client.lrange(key, 0, -1);
    case 'set': return client.smembers(key);
    case 'zset': return client.zrange(key, '0', '-1');
    case 'stream': return (await client.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields]);
    default: return [];
  }
}

export async function scanRedis(url: string, password?: string): Promise<RedisContents> {
  const client = new Redis(url, { maxRetriesPerRequest: 1, ...(password ? { password } : {}) });
  try {
    const keys = await client.keys('*');
    const parts: string[] = [];
    let longestStream = 0;
    for (const key of keys) {
      parts.push(key, ...(await contentsOf(client, key)).map(searchable));
      if ((await client.type(key)) === 'stream') longestStream = Math.max(longestStream, await client.xlen(key));
    }
    const memory = /used_memory:(\d+)/.exec(await client.info('memory'));
    return { keys, text: parts.join('\n'), usedMemory: Number(memory?.[1] ?? NaN), longestStream };
  } finally {
    client.disconnect();
  }
}
