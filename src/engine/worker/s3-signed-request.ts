// An S3 request as the AWS SDK would send it (credentials, region, endpoint and
// signature all its own), caught at the last step before it goes, so that stint
// sends it on its own connection (http-get.ts). The SDK's own client reads a
// body in fresh memory, a piece at a time, copied again into the fetch thread's
// ranges: measured, it made the fetch thread's CPU three times what the same
// bytes cost over http://.

/** The request the SDK hands to its HTTP client, signed (what stint reads of it). */
interface SdkRequest {
  readonly protocol: string;
  readonly hostname: string;
  readonly port?: number;
  readonly path: string;
  readonly query?: Record<string, string | string[] | null>;
  readonly headers: Record<string, string>;
}

/** A command's own middleware stack (a public part of the SDK). */
export interface StackedCommand {
  readonly middlewareStack: {
    add(middleware: () => (args: { request: SdkRequest }) => Promise<never>, options: Record<string, string>): void;
  };
}

/** The GET to send: the URL, and the headers signed for it (Host aside: the connection writes it). */
export interface SignedGet {
  readonly href: string;
  readonly headers: Record<string, string>;
}

/** Thrown in place of sending: carries the signed request out (an Error: the SDK's stack passes others on wrapped). */
class Caught extends Error {
  constructor(readonly request: SdkRequest) {
    super('caught before it was sent');
  }
}

/** RFC 3986's escaping, as the SDK's: encodeURIComponent leaves !'()* as they are. */
const escape = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function queryOf(query: SdkRequest['query']): string {
  const pairs = Object.entries(query ?? {}).flatMap(([name, value]) =>
    [value ?? []].flat().map((one) => (value === null ? escape(name) : `${escape(name)}=${escape(one)}`)));
  return pairs.length ? `?${pairs.join('&')}` : '';
}

/**
 * The request as a URL and headers, or undefined when a URL would not carry it byte for byte (a path that URL
 * parsing rewrites, a Host the URL would not write): the SDK then sends it itself.
 */
function asGet(request: SdkRequest): SignedGet | undefined {
  const host = `${request.hostname}${request.port ? `:${request.port}` : ''}`;
  const search = queryOf(request.query);
  const url = new URL(`${request.protocol}//${host}${request.path}${search}`);
  const named = Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value] as const);
  const headers: Record<string, string> = Object.fromEntries(named);
  if (`${url.pathname}${url.search}` !== `${request.path}${search}` || headers['host'] !== url.host) return undefined;
  delete headers['host'];
  return { href: url.href, headers };
}

/**
 * `command` signed by the SDK, not sent; undefined when stint cannot send it as signed. `send` sends a command
 * through the SDK's client (its failures as the caller words them).
 */
export async function signedRequest(command: StackedCommand, send: (command: unknown) => Promise<unknown>):
  Promise<SignedGet | undefined> {
  // Innermost of the last step: after signing, where the SDK's HTTP client would be called.
  command.middlewareStack.add(() => async (args) => {
    throw new Caught(args.request);
  }, { step: 'deserialize', priority: 'low', name: 'stintSendsItself' });
  try {
    await send(command);
  } catch (error) {
    if (error instanceof Caught) return asGet(error.request);
    throw error;
  }
  return undefined;
}
