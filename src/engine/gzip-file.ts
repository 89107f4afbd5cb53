import { openByteSource } from './worker/byte-source.js';

const GZIP_MAGIC = [0x1f, 0x8b];

/** Whether the file starts with gzip's magic bytes (then its size says nothing of how much it holds). */
export function isGzipFile(path: string): boolean {
  const source = openByteSource(path);
  try {
    const head = Buffer.alloc(2);
    const n = source.read(head, 0, 2, 0);
    return n === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  } finally {
    source.close();
  }
}
