import { isGzipFile } from './gzip-file.js';
import type { InputFile } from './input-file.js';

/** Gzip, or not readable now: its file's own run says why (a bound is only a saving). */
function gzipOrUnread(path: string): boolean {
  try {
    return isGzipFile(path);
  } catch {
    return true;
  }
}

/** The most chunks the inputs can have: none known when one is gzip (it may hold any amount). */
export function chunkBound(inputs: readonly InputFile[], chunkSize: number): { readonly chunksAtMost?: number } {
  let chunks = 0;
  for (const input of inputs) {
    if (input.kind !== 'file') continue;
    if (gzipOrUnread(input.absolute)) return {};
    chunks += Math.max(1, Math.ceil(input.size / chunkSize));
  }
  return { chunksAtMost: chunks };
}
