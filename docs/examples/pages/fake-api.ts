// A stand-in for a paginated HTTP API: pages of sales, each naming the cursor
// of the next. Local and deterministic, and as slow per page as asked.
import { setTimeout as sleep } from 'node:timers/promises';

export interface Sale { readonly id: number; readonly amount: number }
export interface Page { readonly sales: readonly Sale[]; readonly next?: string }

export class FakeApi {
  /** What a real API calls an ETag or a snapshot id: it changes when the data does. */
  readonly version = 'v1';

  constructor(private readonly pages: number, private readonly delayMs: number) {}

  async fetch(cursor?: string): Promise<Page> {
    await sleep(this.delayMs);
    const page = cursor === undefined ? 0 : Number(cursor.replace('page-', ''));
    const sales = Array.from({ length: 100 }, (_, k) => ({ id: page * 100 + k, amount: (page * 31 + k * 17) % 1000 }));
    return page + 1 < this.pages ? { sales, next: `page-${page + 1}` } : { sales };
  }
}
