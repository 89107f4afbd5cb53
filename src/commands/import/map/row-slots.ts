// Where a worker packs a chunk's rows: buffers shared with the main thread,
// reused. A reply that carried its rows by copy made the main thread
// allocate 10+ MiB per chunk, freed only when V8 next collected (it let
// 60-100 MiB of them pile up), and the copies' churn fragmented the C heap.
// A shared slot crosses by reference; the main thread hands it back once
// its batch holds the rows.

const FREE = 0;
const BUSY = 1;
/** Bytes before a slot's data: its state, an Int32 both threads change atomically. */
const HEADER = 8;
/** Slots busy at once beyond which a chunk is packed privately (a main thread that stopped handing them back). */
const MAX_SLOTS = 8;

/** What a reply carries: the flag that hands the slot back. */
export type SlotFlag = Int32Array;

/** The main thread's side: the rows are copied out, the worker may reuse the slot. */
export function releaseSlot(flag: SlotFlag | null): void {
  if (flag) Atomics.store(flag, 0, FREE);
}

/** A buffer shared with the main thread, and the flag that says who holds it. */
export interface Slot {
  readonly flag: SlotFlag;
  readonly bytes: Buffer;
}

function newSlot(size: number): Slot {
  const shared = new SharedArrayBuffer(HEADER + size);
  return { flag: new Int32Array(shared, 0, 1), bytes: Buffer.from(shared, HEADER, size) };
}

/** One worker thread's slots. */
export class RowSlots {
  private readonly slots: Slot[] = [];

  /** A free slot, now busy (a new one when all are busy), or undefined past MAX_SLOTS. */
  take(size: number): Slot | undefined {
    for (const [k, slot] of this.slots.entries()) {
      if (Atomics.compareExchange(slot.flag, 0, FREE, BUSY) !== FREE) continue;
      if (slot.bytes.length >= size) return slot;
      // Too small for the chunks seen so far: replaced (this thread holds it, the main thread let go of it).
      return (this.slots[k] = this.busy(newSlot(size)));
    }
    if (this.slots.length >= MAX_SLOTS) return undefined;
    const slot = this.busy(newSlot(size));
    this.slots.push(slot);
    return slot;
  }

  /** A busy slot of `size` bytes in place of `slot`, holding the first `used` bytes of `from`. */
  regrow(slot: Slot, size: number, from: Buffer, used: number): Slot {
    const k = this.slots.indexOf(slot);
    const bigger = this.busy(newSlot(size));
    from.copy(bigger.bytes, 0, 0, used);
    if (k >= 0) this.slots[k] = bigger;
    return bigger;
  }

  private busy(slot: Slot): Slot {
    Atomics.store(slot.flag, 0, BUSY);
    return slot;
  }
}
