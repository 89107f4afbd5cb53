import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import { StintError } from '../../contract/stint-error.js';
import { DangerLevel } from '../../contract/vocabulary/danger-level.js';
import { SideEffects } from '../../contract/vocabulary/side-effects.js';
import { defineCommand } from '../../runtime/define-command.js';
import { openTable, TableKey } from '../import/table-store.js';

/** Formats `stint export` writes. */
export const ExportFormat = { Csv: 'csv', Ndjson: 'ndjson' } as const;
export type ExportFormat = (typeof ExportFormat)[keyof typeof ExportFormat];

const NEEDS_QUOTES = /[",\r\n]/;
const csvField = (value: string) => (NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
const FLUSH_BYTES = 1 << 20;

export const exportCommand = defineCommand({
  name: 'export',
  description: 'Write a table back out in id order, atomically (temp file, then rename)',
  danger_level: DangerLevel.Safe,
  positionals: [{ name: 'table', type: 'string', description: 'The table folder (the --into of stint import)' }],
  flags: {
    output: { type: 'string', required: true, description: 'The file to write (the envelope stays the only thing on stdout)' },
    'output-format': { type: 'enum', enum_values: Object.values(ExportFormat), description: 'csv or ndjson; default: from the --output extension, else csv' },
  },
  exit_codes: {
    [ExitCode.SUCCESS]: { description: 'The table was written to --output', retryable: false, side_effects: SideEffects.Complete },
    [ExitCode.PRECONDITION]: { description: 'The folder is not a stint table', retryable: false, side_effects: SideEffects.None },
    [ExitCode.NOT_FOUND]: { description: 'No table at that folder', retryable: false, side_effects: SideEffects.None },
    [ExitCode.UNAVAILABLE]: { description: 'Another process holds the table', retryable: true, side_effects: SideEffects.None },
  },
  async run({ positionals, flags }, ctx) {
    const format: ExportFormat = flags['output-format'] ?? (extname(flags.output) === '.ndjson' ? ExportFormat.Ndjson : ExportFormat.Csv);
    const target = resolve(ctx.cwd, flags.output);
    const table = await openTable(resolve(ctx.cwd, positionals.table), false);
    // Loaded here, not at the top: every stint call (even --version) loads this module.
    const { unpack } = await import('msgpackr');
    const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
    let fd = -1;
    try {
      const packed = await table.get(TableKey.Columns);
      if (!packed) throw new StintError(ErrorCode.TableUnreadable, `${positionals.table} is not a stint table (no columns recorded)`, { context: { path: positionals.table } });
      const columns = unpack(packed) as string[];
      fd = openSync(temp, 'w', 0o644);
      let buffer = format === ExportFormat.Csv ? `${columns.map(csvField).join(',')}\n` : '';
      let rows = 0;
      for await (const entries of table.rows()) {
        for (const [, value] of entries) {
          const fields = unpack(value) as string[];
          buffer += format === ExportFormat.Csv
            ? `${fields.map(csvField).join(',')}\n`
            : `${JSON.stringify(Object.fromEntries(columns.map((name, k) => [name, fields[k]])))}\n`;
          rows++;
        }
        if (buffer.length >= FLUSH_BYTES) {
          writeSync(fd, buffer);
          buffer = '';
        }
      }
      writeSync(fd, buffer);
      fsyncSync(fd);
      closeSync(fd);
      fd = -1;
      renameSync(temp, target);
      return { exitCode: ExitCode.SUCCESS, data: { rows, columns, output: flags.output, format } };
    } finally {
      if (fd >= 0) closeSync(fd);
      rmSync(temp, { force: true });
      await table.close();
    }
  },
});
