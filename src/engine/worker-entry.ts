// The pool's thread entry. It imports nothing from the main side: only the
// wire types, the framing and the reader.
import { ErrorCode } from '../contract/error-code.js';
import { ChunkReader } from './chunk-reader.js';
import type { ChunkMap, ChunkReply, ChunkTask } from './worker-protocol.js';

const reader = new ChunkReader();
const maps = new Map<string, ChunkMap<unknown>>();

async function mapOf(url: string): Promise<ChunkMap<unknown>> {
  let map = maps.get(url);
  if (!map) {
    const module = (await import(url)) as { map?: ChunkMap<unknown> };
    if (typeof module.map !== 'function') throw new Error(`${url} has no map export`);
    map = module.map;
    maps.set(url, map);
  }
  return map;
}

const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code) ? code : ErrorCode.WorkerFailed;
};

export default async function mapChunk(task: ChunkTask): Promise<ChunkReply<unknown>> {
  const map = await mapOf(task.mapModule);
  let framed;
  try {
    framed = reader.read(task);
  } catch (error) {
    reader.close();
    return { kind: 'failed', start: task.nominalStart, end: task.nominalStart, error: { code: ErrorCode.FileUnreadable, message: (error as Error).message } };
  }
  if (framed.kind === 'misaligned') return framed;
  if (framed.kind === 'too-long') {
    return {
      kind: 'failed',
      start: framed.start,
      end: framed.start,
      error: {
        code: ErrorCode.RecordTooLong,
        message: `a record at or after this line runs on for more than ${task.maxRecordBytes} bytes (an unterminated quote?)`,
        context: { line_offset: 0 },
      },
    };
  }
  try {
    const partial = map(framed.bytes, { start: framed.start, end: framed.end, options: task.options });
    return { kind: 'mapped', start: framed.start, end: framed.end, newlines: framed.newlines, partial };
  } catch (error) {
    const context = (error as { context?: unknown }).context;
    return {
      kind: 'failed',
      start: framed.start,
      end: framed.end,
      error: { code: codeOf(error), message: (error as Error).message ?? String(error), ...(context && typeof context === 'object' ? { context: { ...context } } : {}) },
    };
  }
}
