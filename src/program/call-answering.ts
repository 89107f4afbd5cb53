import { ExitCode, type ProcessExitCode } from '../contract/exit-code.js';
import { OutputFormat } from '../contract/vocabulary/output-format.js';
import type { Host } from '../runtime/authoring/host.js';
import type { ProgramContext } from '../runtime/call/invocation.js';
import type { Respond } from '../runtime/cli/respond.js';
import { helpText, type Resolution } from './resolution.js';

/** Where a call answers and how: what both the early answers and a run need. */
export interface CallAnswering {
  readonly program: ProgramContext;
  readonly host: Host;
  /** stdout, or stderr for a call whose data streams to stdout. */
  readonly answerHost: Host;
  readonly format: OutputFormat;
  readonly respond: Respond;
  readonly flags: Readonly<Record<string, unknown>>;
}

/** Help, a version or an argument error: in text when text was asked for and the answer is a success. */
export async function answerAtOnce(
  { host, answerHost, format, respond }: CallAnswering,
  resolution: Extract<Resolution, { kind: 'answer' }>,
): Promise<ProcessExitCode> {
  const { help, envelope } = resolution;
  const shown = help ? await helpText(help) : undefined;
  if (help?.toStderr) host.writeStderr(shown!);
  const text = help?.toStderr ? undefined : shown ?? resolution.text;
  if (format === OutputFormat.Text && text !== undefined && envelope.ok) {
    await answerHost.writeStdout(text);
    return ExitCode.SUCCESS;
  }
  return respond(envelope);
}
