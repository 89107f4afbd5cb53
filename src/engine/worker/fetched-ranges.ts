// The fetch thread's ranges of remote objects: those it keeps (range-cache.ts),
// those on their way, and those it reads ahead. A worker that finished a
// chunk asks for the next one and sleeps until its bytes are there; fetching
// the ranges after the furthest one asked for while the workers parse hides
// that wait. Only readers that read on where the last asks reached are read
// ahead of (a queue's workers, given chunks far apart, are not), one range of
// an ask's length per reader: two workers finishing at once both find their
// next chunk coming, and a stopped run has read at most one range a reader
// that it did not use.
import type { Answer } from './remote-failure.js';
import { readObjectRange } from './remote-object.js';
import type { RemoteIdentity } from './remote-identity.js';
import { RangeCache } from './range-cache.js';

/** One object's version, as the ranges read of it are kept under. */
interface Version {
  readonly key: string;
  readonly url: string;
  readonly identity: RemoteIdentity;
}

interface OnTheWay {
  readonly key: string;
  readonly from: number;
  readonly to: number;
  readonly answer: Promise<Answer<Uint8Array>>;
}

export class FetchedRanges {
  private readonly cache = new RangeCache();
  private readonly onTheWay: OnTheWay[] = [];
  /** Per version, how far the ranges asked for and read ahead reach. */
  private readonly reached = new Map<string, number>();
  /** Per version, the threads that read on (by thread id). */
  private readonly readers = new Map<string, Set<number>>();

  /**
   * Bytes [from, from + into.length) of the version into `into`: kept ones copied, the rest fetched. `reader`:
   * the asking thread's number when it goes on to read where they end (a chunk's reader).
   */
  async read(url: string, identity: RemoteIdentity, from: number, into: Uint8Array, reader: number | undefined):
    Promise<Answer<number>> {
    const version = { key: `${url}\0${identity.tag ?? identity.lastModified ?? ''}`, url, identity };
    const to = from + into.length;
    if (reader !== undefined) this.readAhead(version, reader, from, to);
    let held = 0;
    while (held < into.length) {
      held += this.cache.read(version.key, from + held, into.subarray(held));
      const at = from + held;
      if (at === to) break;
      const found = this.onTheWay.find((r) => r.key === version.key && r.from <= at && at < r.to);
      const coming = found ?? this.fetch(version, at, this.nextOnTheWay(version.key, at, to));
      const answer = await coming.answer;
      if (!answer.ok) {
        // Another's range that failed (one read ahead, say) is fetched again by this ask: its failure is its own.
        if (found) continue;
        return answer;
      }
      // Copied now, before the cache could lend its memory out again (that needs another answer to arrive).
      const end = Math.min(to, coming.to);
      into.set(answer.value.subarray(at - coming.from, end - coming.from), held);
      held = end - from;
    }
    return { ok: true, value: into.length };
  }

  /** Where the next range on its way after `at` begins, else `to`: an ask fetches only what is not coming. */
  private nextOnTheWay(key: string, at: number, to: number): number {
    return this.onTheWay.reduce((first, r) => (r.key === key && r.from > at && r.from < first ? r.from : first), to);
  }

  private fetch(version: Version, from: number, to: number): OnTheWay {
    const into = (length: number) => this.cache.buffer(from, length);
    const answer = readObjectRange(version.url, version.identity, from, to, into)
      .then((got) => {
        this.onTheWay.splice(this.onTheWay.indexOf(coming), 1);
        if (got.ok) this.cache.keep(version.key, from, got.value);
        return got;
      });
    const coming: OnTheWay = { key: version.key, from, to, answer };
    this.onTheWay.push(coming);
    return coming;
  }

  /** An ask that reads on where the last ones reached: the ranges after it are fetched too, one a reader. */
  private readAhead(version: Version, reader: number, from: number, to: number): void {
    const length = to - from;
    const readers = this.readers.get(version.key) ?? new Set<number>();
    this.readers.set(version.key, readers.add(reader));
    const reached = this.reached.get(version.key);
    this.reached.set(version.key, Math.max(reached ?? 0, to));
    if (reached === undefined || from > reached || from < reached - (readers.size + 1) * length) return;
    const until = Math.min(version.identity.size, to + readers.size * length);
    for (let start = Math.max(reached, to); start < until; start += length) {
      this.fetch(version, start, Math.min(until, start + length));
    }
    this.reached.set(version.key, Math.max(reached, to, until));
  }
}
