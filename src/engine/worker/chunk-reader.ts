import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';
import { Framing, findRecordStart, scanParity, type ScanState } from './framing.js';
import type { ChunkTask } from './worker-protocol.js';
import { openByteSource, type ByteSource } from './byte-source.js';
import { wordOffset } from './word-offset.js';

/** Bytes read past a chunk's end to find where its last record ends (more are read when a record runs on). */
const LOOKAHEAD = 64 * 1024;
/** For a remote input, where the next chunk's reader reads the same bytes again over the network: less. */
export const REMOTE_LOOKAHEAD = 4 * 1024;

/** Another file now has the input's name: it was replaced (moved over) while being read. */
function inputReplaced(path: string): StintError {
  const message = `${path} was replaced by another file during the run`;
  return new StintError(ErrorCode.InputReplaced, message, { context: { path } });
}

/** The file ends before the size the run began with: it was cut short or replaced while being read. */
function inputTruncated(path: string, at: number, fileSize: number): StintError {
  const message = `${path} is shorter than the ${fileSize} bytes it had when the run began`
    + ` (it ends before byte ${at + 1}): it changed during the run`;
  return new StintError(ErrorCode.InputTruncated, message, { context: { path, at, size: fileSize } });
}

/** Lone-CR line ends read as LFs: every CR of buffer[0, length) becomes a LF. */
export function crToLf(buffer: Buffer, length: number): void {
  for (let i = buffer.indexOf(0x0d); i >= 0 && i < length; i = buffer.indexOf(0x0d, i + 1)) buffer[i] = 0x0a;
}

/** A record-aligned view of one chunk, valid until the next read on this thread. */
export type FramedChunk =
  | {
      readonly kind: 'framed';
      readonly bytes: Uint8Array;
      readonly start: number;
      readonly end: number;
      readonly newlines: number;
    }
  | { readonly kind: 'misaligned'; readonly start: number }
  | { readonly kind: 'too-long'; readonly start: number; readonly newlines: number };

/** A self-framing map's view: from a record start to as far as was read. */
export type Window =
  | { readonly kind: 'window'; readonly start: number; readonly bytes: Uint8Array; readonly atEof: boolean }
  | { readonly kind: 'misaligned'; readonly start: number };

/**
 * Reads chunks by byte range into one buffer per thread, reused across
 * chunks: fresh memory costs a page fault per 4 KiB on first touch, and the
 * bytes never cross to another thread.
 */
export class ChunkReader {
  /** The memory reused across chunks; `buffer` is its part from where the byte at bufferStart sits. */
  private memory: Buffer<ArrayBufferLike> = Buffer.allocUnsafe(0);
  private buffer = this.memory;
  private bufferStart = 0;
  private bufferEnd = 0;
  private source: ByteSource | undefined;
  /** The path and remote version the source reads. */
  private sourceKey = '';
  private crToLf = false;
  private lookahead = LOOKAHEAD;

  close(): void {
    this.source?.close();
    this.source = undefined;
    this.sourceKey = '';
    this.bufferStart = 0;
    this.bufferEnd = 0;
  }

  /**
   * Opens the task's input once per thread. The open file is the one the run began with (same inode), or the
   * read fails: bytes of another file under the same name are not this input. A remote object is read as the
   * version the run began with (its server refuses ranges of another).
   */
  private open(task: ChunkTask): void {
    this.crToLf = task.crLineEnds === true;
    const key = `${task.path}\0${task.remote?.tag ?? task.remote?.lastModified ?? ''}`;
    if (this.source && this.sourceKey === key && (task.fileIno === undefined || this.source.ino === task.fileIno)) {
      return;
    }
    this.close();
    this.source = openByteSource(task.path, task.remote, true);
    this.sourceKey = key;
    this.lookahead = task.remote ? REMOTE_LOOKAHEAD : LOOKAHEAD;
    if (task.fileIno !== undefined && this.source.ino !== task.fileIno) {
      this.close();
      throw inputReplaced(task.path);
    }
  }

  /**
   * Makes file bytes [from, to) available in the buffer; returns how far it got (EOF may stop it short). Bytes
   * it holds from `from` on already (a longer read from the same start) are kept, not read again.
   */
  private load(path: string, from: number, to: number, fileSize: number): number {
    to = Math.min(to, fileSize);
    const length = to - from;
    const held = from === this.bufferStart ? Math.max(0, Math.min(this.bufferEnd, to) - from) : 0;
    const shared = this.source!.intoShared;
    // Bytes another thread writes into shared memory are copied fast only at their word offset.
    const offset = shared ? wordOffset(from) : 0;
    if (this.memory.length < offset + length || (shared && !(this.memory.buffer instanceof SharedArrayBuffer))) {
      const size = Math.max(offset + length, this.memory.length * 2);
      const bigger = shared ? Buffer.from(new SharedArrayBuffer(size)) : Buffer.allocUnsafe(size);
      this.buffer.copy(bigger, offset, 0, held);
      this.memory = bigger;
    }
    this.buffer = this.memory.subarray(offset);
    let filled = held;
    while (filled < length) {
      const n = this.source!.read(this.buffer, filled, length - filled, from + filled);
      if (n === 0) throw inputTruncated(path, from + filled, fileSize);
      filled += n;
    }
    if (this.crToLf) crToLf(this.buffer.subarray(held), filled - held);
    this.bufferStart = from;
    this.bufferEnd = from + filled;
    return this.bufferEnd;
  }

  /** Loads a larger window starting at the same offset. */
  private extend(path: string, wanted: number, fileSize: number): number {
    return this.load(path, this.bufferStart, wanted, fileSize);
  }

  /**
   * For a self-framing map: the bytes from the chunk's first record start
   * (the next line start when speculative) to as far as was read. `grow`
   * reads further when the map's last record runs past them.
   */
  readWindow(task: ChunkTask): Window {
    this.open(task);
    const { path, fileSize, nominalEnd, maxRecordBytes } = task;
    const readFrom = task.speculative ? task.nominalStart - 1 : task.nominalStart;
    let limit = this.load(path, readFrom, Math.max(nominalEnd, readFrom + 1) + this.lookahead, fileSize);
    let start = readFrom;
    if (task.speculative) {
      for (;;) {
        const index = this.buffer.indexOf(0x0a, start - this.bufferStart);
        if (index >= 0 && index < limit - this.bufferStart) {
          start = this.bufferStart + index + 1;
          break;
        }
        if (limit >= fileSize) {
          start = fileSize;
          break;
        }
        if (limit - nominalEnd > maxRecordBytes) return { kind: 'misaligned', start: task.nominalStart };
        start = limit;
        limit = this.extend(path, readFrom + 2 * (limit - readFrom), fileSize);
      }
    }
    return this.window(start, limit, fileSize);
  }

  /** Reads twice as far from the same start; undefined once a record runs past nominalEnd by over maxRecordBytes. */
  grow(task: ChunkTask, start: number): Window | undefined {
    const loaded = this.bufferEnd;
    if (loaded >= task.fileSize || loaded - task.nominalEnd > task.maxRecordBytes) return undefined;
    const limit = this.extend(task.path, this.bufferStart + 2 * (loaded - this.bufferStart), task.fileSize);
    return this.window(start, limit, task.fileSize);
  }

  private window(start: number, limit: number, fileSize: number): Window {
    const bytes = this.buffer.subarray(start - this.bufferStart, Math.max(start, limit) - this.bufferStart);
    return { kind: 'window', start, bytes, atEof: limit >= fileSize };
  }

  /**
   * Aligns the task's nominal range to records: starts at the next line start
   * when speculative, ends at the first record start at or after nominalEnd.
   */
  read(task: ChunkTask): FramedChunk {
    this.open(task);
    const { path, fileSize, nominalEnd, maxRecordBytes } = task;
    const quoted = task.framing === Framing.Csv;
    const readFrom = task.speculative && task.framing !== Framing.Bytes ? task.nominalStart - 1 : task.nominalStart;
    let limit = this.load(path, readFrom, Math.max(nominalEnd, readFrom + 1) + this.lookahead, fileSize);
    const at = (offset: number) => offset - this.bufferStart;

    if (task.framing === Framing.Bytes) {
      const end = Math.min(nominalEnd, fileSize);
      return { kind: 'framed', bytes: this.buffer.subarray(0, end - readFrom), start: readFrom, end, newlines: 0 };
    }

    let start = readFrom;
    if (task.speculative) {
      // The next line start at or after nominalStart: the byte before it is a newline.
      for (;;) {
        const index = this.buffer.indexOf(0x0a, at(start));
        if (index >= 0 && index < at(limit)) {
          start = this.bufferStart + index + 1;
          break;
        }
        if (limit >= fileSize) {
          start = fileSize;
          break;
        }
        if (limit - readFrom > nominalEnd - readFrom + maxRecordBytes) {
          return { kind: 'misaligned', start: task.nominalStart };
        }
        start = limit;
        limit = this.extend(path, readFrom + 2 * (limit - readFrom), fileSize);
      }
    }
    if (start >= nominalEnd || start >= fileSize) {
      return { kind: 'framed', bytes: this.buffer.subarray(0, 0), start, end: start, newlines: 0 };
    }

    // Quote state and newlines up to the byte before nominalEnd, then the first record end after it.
    const state: ScanState = { inQuote: false, newlines: 0 };
    if (nominalEnd - 1 > limit) limit = this.extend(path, nominalEnd + this.lookahead, fileSize);
    scanParity(this.buffer, at(start), at(Math.min(nominalEnd - 1, limit)), state, quoted);
    let cursor = Math.min(nominalEnd - 1, limit);
    let end = -1;
    for (;;) {
      const found = findRecordStart(this.buffer, at(cursor), at(limit), state, quoted);
      if (found >= 0) end = this.bufferStart + found;
      else if (limit >= fileSize) end = fileSize;
      if (end >= 0 && end - nominalEnd <= maxRecordBytes) break;
      if (end >= 0 || limit - nominalEnd > maxRecordBytes) {
        if (task.speculative) return { kind: 'misaligned', start: task.nominalStart };
        return { kind: 'too-long', start, newlines: state.newlines };
      }
      cursor = limit;
      limit = this.extend(path, this.bufferStart + 2 * (limit - this.bufferStart), fileSize);
    }
    return { kind: 'framed', bytes: this.buffer.subarray(at(start), at(end)), start, end, newlines: state.newlines };
  }
}
