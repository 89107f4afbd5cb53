// levelSink over a LevelDB folder, as the sink conformance suite drives it.
import { Level } from 'level';
import { levelSink, levelWrites } from '../../../src/index.js';
import { decodeSuiteMark, encodeSuiteMark, type SinkSubject } from '../../../src/testing/index.js';
import { putRows } from './suite-writes.js';

const utf8 = (text: string) => Buffer.from(text);

export const subject: SinkSubject = {
  module: import.meta.url,
  async open(place, run) {
    const db = new Level<string, Uint8Array>(`${place}/level`, { valueEncoding: 'view' });
    await db.open();
    const writes = levelWrites(db);
    const sink = levelSink({
      db: writes,
      markKey: `mark:${run}`,
      staged(state) {
        const batch = writes.batch();
        putRows(state.rows, (row) => batch.put(`row:${row.key}`, utf8(row.value)));
        for (const reject of state.rejects) {
          batch.put(`reject:${String(reject.line).padStart(12, '0')}`, utf8(reject.reason));
        }
        return batch;
      },
      encode: encodeSuiteMark,
      decode: decodeSuiteMark,
    });
    const read = async (prefix: string) => {
      const found: [string, string][] = [];
      for await (const [key, value] of db.iterator({ gte: prefix, lt: `${prefix}\uffff` })) {
        found.push([key.slice(prefix.length), Buffer.from(value).toString()]);
      }
      return found;
    };
    return {
      sink,
      async contents() {
        const rows = (await read('row:')).map(([key, value]) => ({ key, value }));
        const rejects = (await read('reject:')).map(([line, reason]) => ({ line: Number(line), reason }));
        return { rows, rejects };
      },
      close: () => db.close(),
    };
  },
};
