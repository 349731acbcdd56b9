/**
 * The range of a Go integer type, from the catalog's goType ("int32", "*int32", "VerbosityLevel (uint32)").
 * encoding/json refuses a number outside the field's type ("cannot unmarshal number ... of type int32") and pflag's
 * strconv.ParseInt(s, 0, bits) a flag value outside it ("value out of range"): both stop the kubelet.
 */
export interface IntRange {
  type: string;
  min: bigint;
  max: bigint;
}

export function goIntRange(goType: string | undefined): IntRange | undefined {
  const m = goType ? /\b(u?int)(8|16|32|64)?\b/.exec(goType) : null;
  if (!m) return undefined;
  const bits = BigInt(m[2] ?? 64);
  const type = `${m[1]}${m[2] ?? ''}`;
  return m[1] === 'uint' ? { type, min: 0n, max: (1n << bits) - 1n } : { type, min: -(1n << (bits - 1n)), max: (1n << (bits - 1n)) - 1n };
}

/** strconv.ParseInt(s, 0, 64)'s reading of a value that already matched its syntax: base prefixes, underscores. */
export function goIntValue(text: string): bigint | undefined {
  let s = text;
  let neg = false;
  if (s[0] === '+' || s[0] === '-') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  s = s.replaceAll('_', '');
  if (/^0[0-7]+$/.test(s)) s = `0o${s.slice(1)}`;
  try {
    const v = BigInt(s);
    return neg ? -v : v;
  } catch {
    return undefined;
  }
}

/**
 * The JSON text sigs.k8s.io/yaml writes for a YAML number, which encoding/json then reads into the field: an integer
 * as its exact digits (JavaScript's number loses them past 2^53, so they are read again from the source text, as
 * go-yaml v2's resolve does: underscores dropped, strconv base prefixes), anything else as Go prints a float64 (the
 * same digits as JavaScript's String(), an exponent from 1e21 and below 1e-6).
 */
export function yamlNumberJson(value: number, source: string): string {
  const s = source.trim().replaceAll('_', '');
  if (/^[-+]?(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO]?[0-7]+|[0-9]+)$/.test(s)) {
    const b = goIntValue(s);
    if (b !== undefined && b >= -(1n << 63n) && b < 1n << 64n && Number(b) === value) return b.toString();
  }
  return Object.is(value, -0) ? '-0' : String(value);
}

/** Whether encoding/json reads that JSON number text into an integer of the range (no fraction, no exponent). */
export function jsonIntFits(text: string, range: IntRange): boolean {
  if (!/^-?\d+$/.test(text)) return false;
  const b = BigInt(text);
  return b >= range.min && b <= range.max;
}
