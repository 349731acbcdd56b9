/**
 * pflag parses typed flags at startup (`invalid argument "x" for "--max-pods"
 * flag: strconv.ParseInt: parsing "x": invalid syntax`), and the kubelet's
 * config validation rejects values outside an enum. Either way it does not
 * start. Map flags are checked as they are split (effective.ts), quantities
 * of reservations and thresholds by their own rules.
 */
import { fieldInfo } from '../catalog/fields.ts';
import { goIntRange, goIntValue } from '../catalog/go-int.ts';
import { finding, type Finding } from '../model/finding.ts';
import { compareVersions } from '../catalog/flags.ts';
import { parseGoDuration } from '../quantity/duration.ts';
import { parseQuantity } from '../quantity/quantity.ts';
import { parseGoBool } from '../node/read.ts';
import { closest } from '../catalog/suggest.ts';
import type { Rule } from './types.ts';
import { oneFix, replaceWord } from './lib/edit.ts';

/** strconv.ParseInt(s, 0, bits): decimal, 0x, 0o, 0b, underscores between digits with a prefix. */
const INT = /^[+-]?(?:0[xX](?:_?[0-9a-fA-F])+|0[oO]?(?:_?[0-7])+|0[bB](?:_?[01])+|\d+)$/;
// `\d+(?:\.\d*)?`, not `\d+\.?\d*`: without a dot the two digit runs split a long number n ways, and a failing
// match (`--chaos-chance=<100k digits>x`) tried them all (4.4 s; docs/dev/regex-audit.md).
const FLOAT = /^[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[iI]nf(?:inity)?|NaN)$/;

/** Flags whose enum has its own rule or is not enforced at startup. */
const ENUM_ELSEWHERE = new Set(['cgroup-driver', 'version']);

function check(type: string, v: string): string | undefined {
  switch (type) {
    case 'bool':
      return parseGoBool(v) === undefined ? `strconv.ParseBool: parsing "${v}": invalid syntax (use true or false)` : undefined;
    case 'int':
      return INT.test(v) ? undefined : `strconv.ParseInt: parsing "${v}": invalid syntax (a whole number is expected)`;
    case 'float':
      return FLOAT.test(v) ? undefined : `strconv.ParseFloat: parsing "${v}": invalid syntax`;
    case 'duration': {
      const d = parseGoDuration(v);
      return d.ok ? undefined : d.error;
    }
    case 'quantity': {
      const q = parseQuantity(v);
      return q.ok ? undefined : q.error;
    }
  }
  return undefined;
}

function outOfRange(v: string, field: string | undefined): string | undefined {
  const r = field ? goIntRange(fieldInfo(field)?.goType) : undefined;
  const n = r ? goIntValue(v) : undefined;
  if (!r || n === undefined || (n >= r.min && n <= r.max)) return undefined;
  return `strconv.ParseInt: parsing "${v}": value out of range (an ${r.type}: ${r.min} to ${r.max})`;
}

export const flagValueInvalid: Rule = {
  id: 'flag-value-invalid',
  summary: 'a flag value does not parse as the flag type, or is not one of its allowed values',
  severity: 'error',
  fix: true,
  fixDoes: 'replaces an enum near-miss with the value it resembles',
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    for (const f of node.flags) {
      const info = f.info;
      if (!info || f.value === undefined) continue;
      const syn = info.syntax;
      let problem: string | undefined;
      let guess: string | undefined;
      if (syn.type === 'enum') {
        const values = syn.values.map((v) => (v === "''" ? '' : v));
        if (ENUM_ELSEWHERE.has(info.name) || values.includes(f.value)) continue;
        // In-tree cloud providers were accepted until DisableCloudProviders went GA (1.29).
        if (info.name === 'cloud-provider' && compareVersions(node.kubernetesVersion, '1.29') < 0) continue;
        guess = closest(f.value, values.filter(Boolean), 4);
        problem = `"${f.value}" is not one of ${values.map((v) => (v === '' ? '"" (empty)' : v)).join(', ')}`;
      } else {
        problem = check(syn.type, f.value);
        // An integer flag with a config field is parsed as the field's Go type (--max-pods is an int32 flag).
        if (!problem && syn.type === 'int') problem = outOfRange(f.value, info.field);
      }
      if (!problem) continue;
      const span = f.valueSpan;
      out.push(
        finding(
          'flag-value-invalid',
          'error',
          span,
          `--${f.name} has an invalid value: the kubelet refuses to start. It reports: ${problem}.${guess ? ` Did you mean "${guess}"?` : ''}`,
          guess ? oneFix(`Change to "${guess}"`, replaceWord(span, f.value, guess)) : undefined,
        ),
      );
    }
    return out;
  },
};
