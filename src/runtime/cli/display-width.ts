import stringWidth from 'string-width';

/** Cells a terminal gives the text: wide (CJK) characters take two, combining marks none. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}
