// Where chunks end: a function of the input's bytes and the chunk size alone, so a resumed run, a run on more
// threads and a run over the same bytes decompressed or spooled all fold the same chunks.

/**
 * Grid points lie at whole multiples of the chunk size from the input's first byte. A chunk that starts at a
 * record start ends at the first record start at or after the next grid point past its start: a resume from any
 * chunk end (the watermark) continues on the same grid, and grid points inside one long record give one chunk.
 */
export function nextGridPoint(start: number, chunkSize: number): number {
  return (Math.floor(start / chunkSize) + 1) * chunkSize;
}

/** The grid cell a chunk starting at `start` begins in: its index, the same whichever run cut it. */
export function gridCell(start: number, chunkSize: number): number {
  return Math.floor(start / chunkSize);
}
