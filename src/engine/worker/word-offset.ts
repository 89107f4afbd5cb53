// A copy into shared memory (a worker's chunk buffer is shared with the fetch
// thread) moves whole 8-byte words only when source and destination sit at the
// same offset within a word; otherwise it goes byte by byte, several times
// slower (measured: about 0.3 s against 0.04 s per GiB, and most of the fetch
// thread's CPU). So every buffer a remote object's bytes pass through holds the
// object's byte p at an offset with the same remainder as p. An answer read into
// memory of its own (a body of unknown length) does not, and is still copied
// byte by byte.

/** Bytes a copy moves at once when source and destination line up. */
const WORD = 8;

/** Where in a buffer (from a word's start) the object's byte `position` goes. */
export const wordOffset = (position: number): number => position % WORD;

/** The most bytes a buffer needs past a range's length to start it at its word offset. */
export const WORD_SLACK = WORD - 1;
