// The pool's thread entry, in CommonJS. piscina loads its filename with
// require(), and on Node 20.19+ require() of an ES module is cut short by
// Worker.terminate() (the pool closing while a thread still starts) with a
// process abort (a CHECK in node's ModuleWrap::InstantiateSync and
// CreateRequiredModuleFacade). Loaded from here with import(), every ES
// module load in the thread is asynchronous, and that stops cleanly.
import type { ChunkReply, ChunkTask } from './worker-protocol.js';

type Entry = { readonly default: (task: ChunkTask) => Promise<ChunkReply<unknown>> };

const entry: Promise<Entry> = import('./worker-entry.js');
// A failed load is the answer to each task (its error), not an uncaught rejection of the thread.
entry.catch(() => undefined);

export = async function mapChunk(task: ChunkTask): Promise<ChunkReply<unknown>> {
  return (await entry).default(task);
};
