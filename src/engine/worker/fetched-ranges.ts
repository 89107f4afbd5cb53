// The fetch thread's ranges of remote objects: those it keeps (range-cache.ts),
// those on their way, and the one it reads ahead. A worker that finished a
// chunk asks for the next one and sleeps until its bytes are there; fetching
// the range after the furthest one asked for while the workers parse hides
// that wait. Only a reader that reads on where the last asks reached is read
// ahead of (a queue's worker, given chunks far apart, is not), one range of
// its ask's length at a time: a stopped run has read at most one range it did
// not use.
import type { Answer } from './remote-failure.js';
import { readObjectRange } from './remote-object.js';
import type { RemoteIdentity } from './remote-identity.js';
import { RangeCache } from './range-cache.js';

/**
 * How many ranges of an ask's length are read past its end: one keeps a worker's next chunk on its way while it
 * parses (more read as much again after an interruption, and gained nothing measurable on localhost).
 */
const READ_AHEAD = 1;

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

  /**
   * Bytes [from, from + into.length) of the version into `into`: kept ones copied, the rest fetched. `readsOn`:
   * the asker goes on to read where they end (a chunk's reader).
   */
  async read(url: string, identity: RemoteIdentity, from: number, into: Uint8Array, readsOn: boolean):
    Promise<Answer<number>> {
    const version = { key: `${url}\0${identity.tag ?? identity.lastModified ?? ''}`, url, identity };
    const to = from + into.length;
    if (readsOn) this.readAhead(version, from, to);
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

  /** An ask that reads on where the last ones reached: the ranges after it are fetched too, READ_AHEAD of them. */
  private readAhead(version: Version, from: number, to: number): void {
    const length = to - from;
    const reached = this.reached.get(version.key);
    this.reached.set(version.key, Math.max(reached ?? 0, to));
    if (reached === undefined || from > reached || from < reached - (READ_AHEAD + 1) * length) return;
    const until = Math.min(version.identity.size, to + READ_AHEAD * length);
    for (let start = Math.max(reached, to); start < until; start += length) {
      this.fetch(version, start, Math.min(until, start + length));
    }
    this.reached.set(version.key, Math.max(reached, to, until));
  }
}
