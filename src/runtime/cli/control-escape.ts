const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Control characters shown escaped, so a value holding a newline stays on its row. */
export function escapeControls(text: string): string {
  const escape = (c: string) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return text.replace(/[\u0000-\u001f\u007f]/g, escape);
}
