// The pool's task handler, loaded by import() from worker-start.cjs (the
// thread entry). It imports nothing from the main side: only the wire types,
// the framing and the reader.
import { ErrorCode } from '../../contract/error-code.js';
import { ChunkReader } from './chunk-reader.js';
import { READ_FAILURES } from './byte-source.js';
import { useRemotePort } from './remote-reads.js';
import { Framing, scanParity } from './framing.js';
import type { ChunkMap, ChunkReply, ChunkTask, WindowMap } from './worker-protocol.js';

const reader = new ChunkReader();
/** A handler's worker side: a map over framed chunks, or a self-framing window map. */
type Mapper =
  | { readonly kind: 'chunk'; readonly map: ChunkMap<unknown> }
  | { readonly kind: 'window'; readonly map: WindowMap<unknown> };
const maps = new Map<string, Mapper>();

async function mapOf(url: string): Promise<Mapper> {
  let mapper = maps.get(url);
  if (!mapper) {
    const module = (await import(url)) as { map?: ChunkMap<unknown>; mapWindow?: WindowMap<unknown> };
    if (typeof module.mapWindow === 'function') mapper = { kind: 'window', map: module.mapWindow };
    else if (typeof module.map === 'function') mapper = { kind: 'chunk', map: module.map };
    else throw new Error(`${url} exports neither map nor mapWindow`);
    maps.set(url, mapper);
  }
  return mapper;
}

/** A map's coded error as data; a StintError keeps its context in `extras` (line_offset says where in the chunk). */
function failure(error: unknown, start: number, end: number): ChunkReply<unknown> {
  const thrown = error as { context?: unknown; extras?: { context?: unknown } };
  const context = thrown.extras?.context ?? thrown.context;
  return {
    kind: 'failed',
    start,
    end,
    error: {
      code: codeOf(error),
      message: (error as Error).message ?? String(error),
      ...(context && typeof context === 'object' ? { context: { ...context } } : {}),
    },
  };
}

const tooLong = (task: ChunkTask, start: number): ChunkReply<unknown> => ({
  kind: 'failed',
  start,
  end: start,
  error: {
    code: ErrorCode.RecordTooLong,
    message: `a record at or after this line runs on for more than ${task.maxRecordBytes} bytes`
      + ' (an unterminated quote?)',
    context: { line_offset: 0 },
  },
});

/** A record ran too far: a speculative chunk may have started mid-record (misaligned), an exact one is malformed. */
const overrun = (task: ChunkTask, start: number): ChunkReply<unknown> =>
  task.speculative ? { kind: 'misaligned', start: task.nominalStart } : tooLong(task, start);

/**
 * A self-framing map: parse from the first record start until a record starts at or past nominalEnd, reading
 * further if the last one runs on.
 */
function mapWindowed(map: WindowMap<unknown>, task: ChunkTask): ChunkReply<unknown> {
  let window = reader.readWindow(task);
  if (window.kind === 'misaligned') return window;
  const start = window.start;
  if (start >= task.nominalEnd || start >= task.fileSize) {
    const empty = map(new Uint8Array(0), { start, end: start, options: task.options, limit: 0, atEof: true })!;
    return { kind: 'mapped', start, end: start, newlines: 0, partial: empty.partial };
  }
  for (;;) {
    let result;
    try {
      const end = start + window.bytes.length;
      const limit = task.nominalEnd - start;
      result = map(window.bytes, { start, end, options: task.options, limit, atEof: window.atEof });
    } catch (error) {
      return failure(error, start, start + window.bytes.length);
    }
    if (result) {
      const end = start + result.consumed;
      if (end - task.nominalEnd > task.maxRecordBytes) return overrun(task, start);
      return { kind: 'mapped', start, end, newlines: result.newlines, partial: result.partial };
    }
    const grown = reader.grow(task, start);
    if (!grown || grown.kind !== 'window') return overrun(task, start);
    window = grown;
  }
}

/** A chunk whose bytes came with the task (whole records, cut on the main thread): nothing to read or frame. */
function mapSent(mapper: Mapper, task: ChunkTask, bytes: Uint8Array): ChunkReply<unknown> {
  const start = task.nominalStart;
  const end = start + bytes.length;
  try {
    if (mapper.kind === 'window') {
      const result = mapper.map(bytes, { start, end, options: task.options, limit: bytes.length, atEof: true })!;
      const { consumed, newlines, partial } = result;
      return { kind: 'mapped', start, end: start + consumed, newlines, partial };
    }
    const state = { inQuote: false, newlines: 0 };
    scanParity(bytes, 0, bytes.length, state, task.framing === Framing.Csv);
    const partial = mapper.map(bytes, { start, end, options: task.options });
    return { kind: 'mapped', start, end, newlines: state.newlines, partial };
  } catch (error) {
    return failure(error, start, end);
  }
}

/** A read that failed: a file cut short or replaced mid-run keeps its own code; anything else is unreadable. */
const readError = (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  const context = (error as { extras?: { context?: Record<string, unknown> } }).extras?.context;
  const own = typeof code === 'string' && READ_FAILURES.has(code);
  const wire = { code: own ? code : ErrorCode.FileUnreadable, message: (error as Error).message };
  return context ? { ...wire, context } : wire;
};
/** A map module that cannot load: the module's defect, not a dead thread (so not retryable); the thread lives on. */
const notLoaded = (task: ChunkTask, error: unknown): ChunkReply<unknown> => ({
  kind: 'failed',
  start: task.nominalStart,
  end: task.nominalStart,
  error: {
    code: ErrorCode.WorkerFailed,
    message: `the map module failed to load: ${(error as Error).message ?? String(error)}`,
  },
});

const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  // Node's own ERR_* codes are not ours to put on the wire: they mean the map failed.
  const ours = typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code) && !code.startsWith('ERR_');
  return ours ? code : ErrorCode.WorkerFailed;
};

export default async function mapChunk(task: ChunkTask): Promise<ChunkReply<unknown>> {
  useRemotePort(task.remotePort);
  try {
    return await mapTask(task);
  } finally {
    useRemotePort(undefined);
    task.remotePort?.close();
  }
}

async function mapTask(task: ChunkTask): Promise<ChunkReply<unknown>> {
  let mapper;
  try {
    mapper = await mapOf(task.mapModule);
  } catch (error) {
    return notLoaded(task, error);
  }
  if (task.bytes) return mapSent(mapper, task, task.bytes);
  if (mapper.kind === 'window' && task.framing === Framing.Csv) {
    try {
      return mapWindowed(mapper.map, task);
    } catch (error) {
      reader.close();
      return { kind: 'failed', start: task.nominalStart, end: task.nominalStart, error: readError(error) };
    }
  }
  if (mapper.kind !== 'chunk') throw new Error(`${task.mapModule} frames itself, which only CSV framing supports`);
  const map = mapper.map;
  let framed;
  try {
    framed = reader.read(task);
  } catch (error) {
    reader.close();
    return { kind: 'failed', start: task.nominalStart, end: task.nominalStart, error: readError(error) };
  }
  if (framed.kind === 'misaligned') return framed;
  if (framed.kind === 'too-long') return tooLong(task, framed.start);
  try {
    const partial = map(framed.bytes, { start: framed.start, end: framed.end, options: task.options });
    return { kind: 'mapped', start: framed.start, end: framed.end, newlines: framed.newlines, partial };
  } catch (error) {
    return failure(error, framed.start, framed.end);
  }
}
