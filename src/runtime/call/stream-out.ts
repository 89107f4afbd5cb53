import type { Envelope } from '../../contract/envelope.js';
import type { Host } from '../authoring/host.js';
import type { StreamOut } from '../authoring/command-spec.js';

type Fields = Readonly<Record<string, unknown>>;

/** One streaming call's stdout: numbered items and heartbeats until `close`. */
export interface StreamWriter {
  readonly out: StreamOut;
  /** Stops the stream (later writes are dropped) and returns the items written: the last `_seq`. */
  close(): number;
}

/**
 * Writes JSON lines, or for `--format text` the lines `asText` makes. Closing it first is what keeps the
 * terminal line last: a handler still polling after a signal writes nothing more.
 */
export function streamWriter(host: Pick<Host, 'writeStdout'>, asText?: (item: Fields) => string): StreamWriter {
  let seq = 0;
  let closed = false;
  const line = (fields: Fields) => (asText ? `${asText(fields)}\n` : `${JSON.stringify(fields)}\n`);
  return {
    out: {
      async item(item) {
        if (closed) return;
        seq++;
        await host.writeStdout(line({ _seq: seq, ...withoutStreamKeys(item) }));
      },
      async heartbeat(fields = {}) {
        if (closed) return;
        await host.writeStdout(line({ heartbeat: true, ...withoutStreamKeys(fields) }));
      },
    },
    close() {
      closed = true;
      return seq;
    },
  };
}

/** The framework's own keys, not the handler's to set. */
const STREAM_KEYS: ReadonlySet<string> = new Set(['_seq', '_summary', '_count', 'heartbeat']);

function withoutStreamKeys(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !STREAM_KEYS.has(key)));
}

/**
 * The stream's one terminal line: on success a `_summary` with `_count` items that carries the response's
 * fields; otherwise the error envelope with `meta.items_emitted` (the last `_seq`, 0 when none).
 */
export function terminalLine(envelope: Envelope, items: number): Envelope & { _summary?: true; _count?: number } {
  if (envelope.ok) return { _summary: true, _count: items, ...envelope };
  return { ...envelope, meta: { ...envelope.meta, items_emitted: items } };
}
