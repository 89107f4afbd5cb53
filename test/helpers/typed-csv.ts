// A seeded CSV of every column type a typed import infers, with the fields
// that make loaders stumble: quoted commas, quotes and newlines, empty
// fields (NULLs), mixed-case booleans, dates with and without times.
import { random } from './csv-generator.js';

export const TYPED_HEADER = ['id', 'name', 'amount', 'flag', 'day', 'at', 'note'];

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];

function quoted(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** `rows` records after the header; `seed` makes the same file every time. */
export function typedCsv(seed: number, rows: number): string {
  const rnd = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rnd() * items.length)]!;
  const maybe = (share: number, value: () => string) => (rnd() < share ? '' : value());
  const lines = [TYPED_HEADER.join(',')];
  for (let k = 1; k <= rows; k++) {
    const [year, month, date] = [10 + Math.floor(rnd() * 15), 1 + Math.floor(rnd() * 9), 10 + Math.floor(rnd() * 18)];
    const day = `20${year}-0${month}-${date}`;
    const fields = [
      String(k),
      quoted(`${pick(WORDS)}${pick([' ', ', ', ' "q" ', '\n'])}${pick(WORDS)}`),
      maybe(0.1, () => {
        const cents = String(Math.floor(rnd() * 100)).padStart(2, '0');
        return `${rnd() < 0.3 ? '-' : ''}${Math.floor(rnd() * 100000)}.${cents}`;
      }),
      maybe(0.1, () => pick(['true', 'false', 'TRUE', 'False'])),
      maybe(0.05, () => day),
      maybe(0.05, () => `${day}T${String(Math.floor(rnd() * 24)).padStart(2, '0')}:30:00Z`),
      maybe(0.3, () => quoted(pick(WORDS) + pick(['', ' and "more"', ', then', '\r\nnext']))),
    ];
    lines.push(fields.join(','));
  }
  return `${lines.join('\n')}\n`;
}
