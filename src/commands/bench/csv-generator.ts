// Deterministic random CSV for property tests and benchmarks: quoted
// fields with commas, doubled quotes and newlines, CRLF, a BOM, Unicode
// (astral too), numbers of every shape, booleans, empties, ragged rows.

/** mulberry32: small, fast, seedable. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface CsvShape {
  readonly rows: number;
  readonly columns: number;
  readonly crlf?: boolean;
  readonly bom?: boolean;
  /** Chance that a string field holds a newline. */
  readonly newlines?: number;
  /** Chance that a row has a wrong field count. */
  readonly ragged?: number;
  /** Chance of an empty line between rows. */
  readonly emptyLines?: number;
  readonly trailingNewline?: boolean;
}

const WORDS = [
  'alpha', 'Beta', 'gamma', 'δέλτα', 'Zürich', 'São Paulo', '東京', '🙂 smile',
  'a,b', 'say "hi"', ' padded ', 'TRUE',
  'false', 'x',
];
const KINDS = ['integer', 'decimal', 'exponent', 'boolean', 'string', 'mixed', 'empty', 'bigint'] as const;

function quote(value: string): string {
  return `"${value.replace(/"/g, '""')}"`;
}

export function valueOf(kind: (typeof KINDS)[number], rnd: () => number, newlineChance: number, eol: string): string {
  const r = rnd();
  if (kind !== 'empty' && r < 0.08) return '';
  switch (kind) {
    case 'integer': return String(Math.floor((rnd() - 0.5) * 2e6)) + (rnd() < 0.02 ? '' : '');
    case 'bigint': return (rnd() < 0.5 ? '-' : '') + String(Math.floor(rnd() * 9e15)) + String(Math.floor(rnd() * 1e4));
    case 'decimal': {
      const v = ((rnd() - 0.5) * 1e4).toFixed(Math.floor(rnd() * 6));
      return rnd() < 0.05 ? v.replace(/^(-?)0\./, '$1.') : v;
    }
    case 'exponent': return `${(rnd() * 10).toFixed(3)}e${Math.floor((rnd() - 0.5) * 40)}`;
    case 'boolean': return ['true', 'false', 'TRUE', 'False'][Math.floor(rnd() * 4)]!;
    case 'string': {
      let word = WORDS[Math.floor(rnd() * WORDS.length)]!;
      if (rnd() < newlineChance) word = `${word}${eol}${WORDS[Math.floor(rnd() * WORDS.length)]!}`;
      return /[",\r\n]/.test(word) || rnd() < 0.1 ? quote(word) : word;
    }
    case 'mixed':
      return rnd() < 0.5 ? String(Math.floor(rnd() * 100)) : quote(WORDS[Math.floor(rnd() * WORDS.length)]!);
    default: return '';
  }
}

/** A whole CSV file as bytes. */
export function generateCsv(seed: number, shape: CsvShape): Buffer {
  const rnd = random(seed);
  const eol = shape.crlf ? '\r\n' : '\n';
  const kinds = Array.from({ length: shape.columns }, () => KINDS[Math.floor(rnd() * KINDS.length)]!);
  const lines: string[] = [kinds.map((kind, k) => (rnd() < 0.2 ? quote(`${kind} ${k}`) : `${kind}_${k}`)).join(',')];
  for (let row = 0; row < shape.rows; row++) {
    if (shape.emptyLines && rnd() < shape.emptyLines) lines.push('');
    let width = shape.columns;
    if (shape.ragged && rnd() < shape.ragged) width = Math.max(1, width + (rnd() < 0.5 ? -1 : 1));
    const fields = Array.from({ length: width },
      (_, k) => valueOf(kinds[k % kinds.length]!, rnd, shape.newlines ?? 0, eol));
    // A record of one empty field is an empty line, which CSV readers skip.
    if (fields.length === 1 && fields[0] === '') fields[0] = '""';
    lines.push(fields.join(','));
  }
  const text = lines.join(eol) + (shape.trailingNewline === false ? '' : eol);
  const body = Buffer.from(text, 'utf8');
  return shape.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
}
