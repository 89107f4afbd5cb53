import type { Unresolved } from '../../contract/outcome.js';
import { plural } from '../../runtime/cli/plural.js';
import { Effect } from './import-effect.js';

/** What an import answers in `data` (import-run.ts), as far as its text shows it. */
interface ImportData {
  readonly rows_imported: number;
  readonly effect: Effect;
  readonly into?: string;
  readonly unresolved: readonly Unresolved[];
  readonly unresolved_total: number;
  readonly coverage: string;
}

/** The first line: what happened, or under --dry-run what would. */
function summaryOf(data: ImportData): string {
  const rows = plural(data.rows_imported, 'row');
  const into = data.into !== undefined ? ` into ${data.into}` : '';
  if (data.effect === Effect.None) return `would import ${rows}${into} (a dry run: nothing was written)`;
  if (data.effect === Effect.Noop) return `already imported: ${rows}${into} (nothing written again)`;
  return `imported ${rows}${into}`;
}

/** `--format text`: one line saying what was (or would be) imported, then each row that could not be. */
export function renderImportText(data: ImportData): string {
  const lines = [summaryOf(data)];
  for (const gap of data.unresolved) lines.push(`  ${gap.q}: ${gap.reason}`);
  const unnamed = data.unresolved_total - data.unresolved.length;
  if (unnamed > 0) lines.push(`  and ${plural(unnamed, 'more row')} not named here`);
  lines.push(`coverage: ${data.coverage}`);
  return `${lines.join('\n')}\n`;
}
