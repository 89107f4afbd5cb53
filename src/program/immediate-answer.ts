import { buildEnvelope } from '../contract/envelope.js';
import { ExitCode } from '../contract/exit-code.js';
import { OutputFormat } from '../contract/vocabulary/output-format.js';
import { ArgProblem } from '../contract/vocabulary/arg-problem.js';
import { commandHelp, groupHelp, type ProgramIdentity } from '../runtime/cli/help-text.js';
import type { Host } from '../runtime/authoring/host.js';
import type { ParsedCall } from '../runtime/cli/parse-argv.js';
import type { Resolution } from './resolution.js';

/** What the early answers of a call share: when it started, and the meta every one of them carries. */
interface CallStart {
  readonly elapsed: () => number;
  readonly meta: Record<string, unknown>;
}

/** `--version` and `--help` answer at once, whatever else the call holds. */
export function immediateAnswer(
  identity: ProgramIdentity,
  host: Host,
  parsed: ParsedCall,
  format: OutputFormat,
  { elapsed, meta }: CallStart,
): Resolution | undefined {
  const command = parsed.node.command;
  if (parsed.globals.version) {
    const data = { name: identity.name, version: identity.version };
    return {
      kind: 'answer',
      envelope: buildEnvelope({ exitCode: ExitCode.SUCCESS, durationMs: elapsed(), data, meta }),
      text: `${identity.name} ${identity.version}\n`,
    };
  }
  // Help for a command that does not exist is an argument error (with its "did you mean"), not the group's help.
  const unknownCommand = parsed.errors.some((e) => e.reason === ArgProblem.UnknownCommand);
  if (parsed.globals.help && !unknownCommand) {
    const help = command ? commandHelp(identity, command) : groupHelp(identity, parsed.node);
    // Wrapped to the terminal it is shown on (stderr beside a JSON answer); as written when piped.
    const toStderr = format === OutputFormat.Json;
    const width = toStderr ? host.stderrColumns?.() : host.stdoutColumns?.();
    const helpMeta = { ...meta, help: true, schema_ref: `${identity.name} manifest` };
    return {
      kind: 'answer',
      envelope: buildEnvelope({ exitCode: ExitCode.SUCCESS, durationMs: elapsed(), meta: helpMeta }),
      help: { text: help, width, toStderr },
    };
  }
  return undefined;
}
