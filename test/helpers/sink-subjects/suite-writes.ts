// What every subject's write does alike: the suite's poison row refused after the rows before it.
import { POISON_VALUE, type SuiteRow } from '../../../src/testing/index.js';

/** Each row to `put`, in order; the poison row throws, as a failing write midway would. */
export function putRows(rows: readonly SuiteRow[], put: (row: SuiteRow) => void): void {
  for (const row of rows) {
    if (row.value === POISON_VALUE) throw new Error('the suite\'s poison row: this write fails midway');
    put(row);
  }
}

export async function putRowsAsync(rows: readonly SuiteRow[], put: (row: SuiteRow) => Promise<unknown>) {
  for (const row of rows) {
    if (row.value === POISON_VALUE) throw new Error('the suite\'s poison row: this write fails midway');
    await put(row);
  }
}
