#!/usr/bin/env node
// Sums the sales a paginated API returns, page by page, resumably: a stop comes
// between pages, and the continuation asks for the page after the last one summed.
import {
  createProgram, defineCommand, processSource, runCli, DangerLevel, ExitCode, SideEffects, type FoldOver, type Source,
} from 'stint';
import { FakeApi, type Sale } from './fake-api.js';

interface Totals { pages: number; sales: number; amount: number }

/** The API as a source: a page is a chunk, and the cursor after it is the page's `next` (null: past the end). */
function salesPages(api: FakeApi): Source<readonly Sale[], string | null> {
  return {
    fingerprint: () => api.version, // another version discards the checkpoint: the sum starts over
    async *read(cursor) {
      for (let next = cursor; next !== null; ) {
        const page = await api.fetch(next);
        next = page.next ?? null;
        yield { chunk: page.sales, cursor: next };
      }
    },
  };
}

const add: FoldOver<readonly Sale[], Totals> = async function* (pages, totals) {
  for await (const sales of pages) {
    const amount = sales.reduce((sum, sale) => sum + sale.amount, 0);
    totals = { pages: totals.pages + 1, sales: totals.sales + sales.length, amount: totals.amount + amount };
    yield totals; // a safe point: {totals, cursor} checkpointed, and maybe a stop
  }
  return totals;
};

const sum = defineCommand({
  name: 'sum',
  description: 'Sum the sales on every page of the API',
  dangerLevel: DangerLevel.Safe,
  flags: {
    pages: { type: 'integer', min: 1, default: 50, description: 'Pages the fake API holds' },
    'delay-ms': { type: 'duration', default: 0, description: 'How long the fake API takes per page' },
  },
  interruption: { detach: false, resume: true },
  exitCodes: {
    [ExitCode.SUCCESS]: { description: 'Summed', retryable: false, sideEffects: SideEffects.Complete },
    [ExitCode.INCOMPLETE]: {
      description: 'Paused; run continue_command', retryable: true, sideEffects: SideEffects.None,
    },
  },
  async run({ flags }, ctx) {
    const api = new FakeApi(flags.pages, flags['delay-ms']);
    const initial = () => ({ pages: 0, sales: 0, amount: 0 });
    const result = await processSource(ctx, { source: salesPages(api), initial, fold: add });
    if (result.kind === 'stopped') return { exitCode: ExitCode.INCOMPLETE };
    return { exitCode: ExitCode.SUCCESS, data: result.state };
  },
});

const description = 'sums a paginated API';
await runCli(() => createProgram({ name: 'pages', version: '1.0.0', description, commands: [sum] }));
