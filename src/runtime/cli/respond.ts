import type { Envelope } from '../../contract/envelope.js';
import { ExitCode, SignalExitCode, type ProcessExitCode } from '../../contract/exit-code.js';
import { OutputFormat } from '../../contract/vocabulary/output-format.js';
import type { ProgramIdentity } from './help-text.js';
import type { Host } from '../authoring/host.js';
import {
  outline, paintFor, renderErrorText, renderJson, renderNoticeText, renderWarningsText,
} from './render.js';

/** Where a call's one response goes: stdout (JSON or text) for a caller, a file for a background job. */
export type Respond = (envelope: Envelope, text?: TextRenderer) => Promise<ProcessExitCode>;

/** A command's text for its data (a renderer may load its code on first use). */
export type TextRenderer = (data: unknown) => string | Promise<string>;

/** Answers that are no failure to show in red: the work is not finished, or the caller's own signal stopped it. */
const NOTICE_EXITS: ReadonlySet<number> = new Set([ExitCode.INCOMPLETE, SignalExitCode.SIGINT, SignalExitCode.SIGTERM]);

/** What people read on stderr: the warnings, then the error, or the notice of an INCOMPLETE or signalled answer. */
function forPeople(host: Host, identity: ProgramIdentity, envelope: Envelope): string {
  const paint = paintFor(host.stderrIsTTY, host.env);
  const warnings = renderWarningsText(identity.name, envelope, paint);
  if (envelope.ok) return warnings;
  if (NOTICE_EXITS.has(envelope.meta.exit_code)) return warnings + renderNoticeText(identity.name, envelope);
  return warnings + renderErrorText(identity.name, envelope, paint);
}

export function respondTo(host: Host, format: OutputFormat, identity: ProgramIdentity): Respond {
  return async (envelope, text) => {
    if (format === OutputFormat.Json) {
      await host.writeStdout(renderJson(envelope));
      // A person at a terminal whose stdout goes to a file would otherwise see a failure or a warning as silence.
      if (host.stderrIsTTY && !host.stdoutIsTTY) host.writeStderr(forPeople(host, identity, envelope));
      return envelope.meta.exit_code;
    }
    host.writeStderr(forPeople(host, identity, envelope));
    if (envelope.data === null) return envelope.meta.exit_code;
    if (envelope.ok) {
      await host.writeStdout(text ? await text(envelope.data) : outline(envelope.data));
    } else if (envelope.meta.exit_code !== ExitCode.INCOMPLETE) {
      // A failure's data is the command's own (a partial outcome).
      await host.writeStdout(text ? await text(envelope.data) : outline(envelope.data));
    } else if (!host.stdoutIsTTY) {
      // INCOMPLETE: at a terminal the notice says it all; a pipe still gets the fields.
      await host.writeStdout(outline(envelope.data));
    }
    return envelope.meta.exit_code;
  };
}
