/**
 * Exact decimal arithmetic for analyze's sums, minima and maxima: a value is
 * `units × 10^-scale` with `units` a big integer. Sums of decimals are exact,
 * so they do not depend on how a file was split. A column's running sum
 * (`DecimalSum`) is merged as text: a checkpoint packs it with msgpackr,
 * which holds no BigInt past 64 bits.
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/**
 * A running sum: `units` is a BigInt while a chunk's fields are added one by
 * one (no text per field), and a decimal integer's text once chunks are
 * merged, in the form a checkpoint can hold.
 */
export interface DecimalSum {
  units: bigint | string;
  scale: number;
}

export const newDecimalSum = (): DecimalSum => ({ units: '0', scale: 0 });

const TEN = 10n;
const pow10 = (n: number): bigint => TEN ** BigInt(n);

/** The exact value of a number's text (sign, digits with at most one dot, optional exponent; checked by the caller). */
export function parseDecimal(text: string): Decimal {
  const e = text.search(/[eE]/);
  const mantissa = e < 0 ? text : text.slice(0, e);
  const exponent = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const fraction = dot < 0 ? 0 : mantissa.length - dot - 1;
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const units = BigInt(digits === '' || digits === '-' || digits === '+' ? '0' : digits);
  if (units === 0n) return { units: 0n, scale: 0 };
  const scale = fraction - exponent;
  return scale >= 0 ? { units, scale } : { units: units * pow10(-scale), scale: 0 };
}

/** a + b, exactly, at the larger of their scales. */
export function addDecimals(a: Decimal, b: Decimal): Decimal {
  if (a.scale === b.scale) return { units: a.units + b.units, scale: a.scale };
  if (a.scale > b.scale) return { units: a.units + b.units * pow10(a.scale - b.scale), scale: a.scale };
  return { units: a.units * pow10(b.scale - a.scale) + b.units, scale: b.scale };
}

export const decimalOfSum = (sum: DecimalSum): Decimal =>
  ({ units: typeof sum.units === 'bigint' ? sum.units : BigInt(sum.units), scale: sum.scale });

/** Adds a value into a running sum (which then holds a BigInt). */
export function addToSum(sum: DecimalSum, value: Decimal): void {
  if (value.units === 0n) return;
  const total = addDecimals(decimalOfSum(sum), value);
  sum.units = total.units;
  sum.scale = total.scale;
}

/** The sum a + b in the form a checkpoint holds. */
export function mergedSum(a: DecimalSum, b: DecimalSum): DecimalSum {
  const total = addDecimals(decimalOfSum(a), decimalOfSum(b));
  return { units: total.units.toString(), scale: total.scale };
}

export function compareDecimals(a: Decimal, b: Decimal): number {
  const d = addDecimals(a, { units: -b.units, scale: b.scale }).units;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** The exact value of an extreme: its double, or its text when the double does not say it exactly. */
export const exactOf = (value: number, text: string | null): Decimal => parseDecimal(text ?? String(value));

/**
 * Whether `value` (text: null when its double is exact as written) is below
 * (`sign` -1) or above (+1) an extreme. Doubles order decimals except on a
 * tie, which only a long value can make: that is settled exactly.
 */
export function beyond(
  sign: number, value: number, text: string | null, extreme: number, extremeText: string | null,
): boolean {
  if (value !== extreme) return sign < 0 ? value < extreme : value > extreme;
  if (text === null && extremeText === null) return false;
  return compareDecimals(exactOf(value, text), exactOf(extreme, extremeText)) === sign;
}

/**
 * The decimal as JavaScript writes a number: positional from 1e-7 to 1e21,
 * `d.ddde±n` beyond, no trailing zeros. A value a double holds exactly as
 * written thus reads the same either way.
 */
export function decimalText({ units, scale }: Decimal): string {
  if (units === 0n) return '0';
  const sign = units < 0n ? '-' : '';
  let digits = (units < 0n ? -units : units).toString();
  let exponent = -scale; // value = digits × 10^exponent
  const trimmed = digits.replace(/0+$/, '');
  exponent += digits.length - trimmed.length;
  digits = trimmed;
  const point = digits.length + exponent; // where the decimal point falls, counted from the first digit
  if (point > 21 || point < -5) {
    const rest = digits.length > 1 ? `.${digits.slice(1)}` : '';
    return `${sign}${digits[0]}${rest}e${point - 1 >= 0 ? '+' : '-'}${Math.abs(point - 1)}`;
  }
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * A decimal's exact digits, the `_exact` beside a number in analyze's answer: an integer's without exponent,
 * any other as decimalText writes it (so an exact double below 1e21 reads the same as its JSON number).
 */
export function exactText(value: Decimal): string {
  const whole = value.units % pow10(value.scale) === 0n;
  return whole ? (value.units / pow10(value.scale)).toString() : decimalText(value);
}

/** The double nearest a decimal (one correct rounding, as JSON.parse of its digits does). */
export const nearestDouble = (value: Decimal): number => Number(decimalText(value));

const bitLength = (n: bigint): number => (n === 0n ? 0 : n.toString(2).length);

/** num / den rounded once to the nearest double (den > 0); a sticky bit keeps the rounding correct. */
export function roundedQuotient(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const negative = num < 0n;
  const magnitude = negative ? -num : num;
  const shift = Math.max(0, 66 + bitLength(den) - bitLength(magnitude));
  const scaled = magnitude << BigInt(shift);
  let q = scaled / den;
  if (q * den !== scaled) q |= 1n;
  // The quotient has at least 66 bits: the sticky bit lies below the rounding position.
  let value = Number(q);
  for (let left = shift; left > 0; left -= Math.min(left, 1000)) value *= 2 ** -Math.min(left, 1000);
  return negative ? -value : value;
}

/** The mean of `count` values summing to `sum`, correctly rounded. */
export const meanOf = (sum: Decimal, count: number): number =>
  roundedQuotient(sum.units, BigInt(count) * pow10(sum.scale));
