import { renderTable, type TableColumn } from '../../../runtime/cli/text-table.js';
import { shellJoin } from '../../../runtime/cli/shell-quote.js';
import { age, etaText, quantity, rateText, type JobView } from './job-view.js';

const COLUMNS: readonly TableColumn[] = [
  { header: 'ID' },
  { header: 'STATE' },
  { header: 'AGE', align: 'right' },
  { header: 'DONE', align: 'right' },
  { header: 'RATE', align: 'right' },
  { header: 'ETA', align: 'right' },
  { header: 'COMMAND' },
];

/** The percentage when the work has a total, else the units done. */
const doneText = (view: JobView): string =>
  (view.percent !== undefined ? `${view.percent}%` : quantity(view.progress.done, view.progress.unit));

function row(view: JobView): string[] {
  const program = view.command.split(' ')[0] ?? '';
  return [
    view.job_id, view.state, age(view.age_ms), doneText(view), rateText(view), etaText(view),
    shellJoin([program, ...view.argv]),
  ];
}

/** `job list` for people: one job a row under a header, fitted to `width` cells when given. */
export function jobTable(views: readonly JobView[], width?: number): string {
  if (views.length === 0) return 'No jobs.\n';
  return renderTable(COLUMNS, views.map(row), width);
}

/** The terminal's width as the shell says (COLUMNS), when it says. */
export function columnsOf(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const columns = Number(env['COLUMNS']);
  return Number.isInteger(columns) && columns > 0 ? columns : undefined;
}
