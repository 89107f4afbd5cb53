import type { Envelope } from '../../contract/envelope.js';
import { ExitCode, type ProcessExitCode } from '../../contract/exit-code.js';
import { OutputFormat } from '../../contract/vocabulary/output-format.js';
import type { ProgramIdentity } from './help-text.js';
import type { Host } from '../host.js';
import { outline, paintFor, renderErrorText, renderJson, renderWarningsText } from './render.js';

/** Where a call's one response goes: stdout (JSON or text) for a caller, a file for a background job. */
export type Respond = (envelope: Envelope, text?: (data: unknown) => string) => Promise<ProcessExitCode>;

export function respondTo(host: Host, format: OutputFormat, identity: ProgramIdentity): Respond {
  return async (envelope, text) => {
    if (format === OutputFormat.Json) {
      await host.writeStdout(renderJson(envelope));
      // A person at a terminal whose stdout goes to a file would otherwise see a failure as silence.
      if (!envelope.ok && envelope.meta.exit_code !== ExitCode.INCOMPLETE && host.stderrIsTTY && !host.stdoutIsTTY) {
        host.writeStderr(renderErrorText(identity.name, envelope, paintFor(host.stderrIsTTY, host.env)));
      }
      return envelope.meta.exit_code;
    }
    const paint = paintFor(host.stderrIsTTY, host.env);
    host.writeStderr(renderWarningsText(identity.name, envelope, paint));
    if (envelope.ok) {
      if (envelope.data !== null) await host.writeStdout(text ? text(envelope.data) : outline(envelope.data));
    } else {
      host.writeStderr(renderErrorText(identity.name, envelope, paint));
      // A failure's data is the command's own (a partial outcome) except on INCOMPLETE.
      const own = text && envelope.meta.exit_code !== ExitCode.INCOMPLETE;
      if (envelope.data !== null) await host.writeStdout(own ? text(envelope.data) : outline(envelope.data));
    }
    return envelope.meta.exit_code;
  };
}
