/**
 * Generated KubeletConfiguration-like YAML documents full of YAML 1.1 corners, the engine's reading of them, and the
 * comparison with sigs.k8s.io/yaml (test/oracle/yaml-oracle.go). Shared by test/oracle/yaml.test.ts (a bounded
 * number) and test/fuzz/run-long.ts.
 *
 * The engine's value tree (parse/yaml.ts, the YAML reader) must give the JSON YAMLToJSON gives, or
 * both must fail; and YAMLToJSONStrict must fail exactly when the engine finds a duplicate key.
 * Kept out of the generator: lone surrogates (no UTF-8 file can hold them), several documents in one stream
 * (YAMLToJSON reads the first only; the kubelet's file is one document).
 */
import fc from 'fast-check';
import { LineIndex } from '../../server/src/model/range.ts';
import { parseYamlStream } from '../../server/src/parse/yaml.ts';
import type { ConfigNode } from '../../server/src/parse/types.ts';
import type { YamlVerdict } from './oracles.ts';

// ---------------------------------------------------------------------------------------------
// Generator

/** Plain scalars that go-yaml v2 types in YAML 1.1 ways (resolve.go), and some it keeps as strings. */
const PLAIN = [
  'yes', 'No', 'ON', 'off', 'y', 'N', 'true', 'False', '~', 'null', 'Null', 'NULL',
  '0x1F', '0X1f', '0o17', '017', '08', '0b101', '1_000', '+12', '-0', '0', '.5', '1.', '1e3', '1E+3', '1.5e-3', '-1_0.5',
  '.inf', '-.Inf', '+.INF', '.nan', '.NaN', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '12:30:45', '1:20',
  '0x1ffffffffffffffffff', '0xffffffffffffffff', '1e400', '-1e400', '18446744073709551615', '18446744073709551616',
  '9223372036854775807', '-9223372036854775808', '-9223372036854775809', '1e-400', '0.1e1_0',
  '100Mi', '10%', 'systemd', '/var/lib/kubelet', 'a b', 'key=value', 'x:y', '-', '?', 'a#b', '@x', '`x`',
];

/** Quoted scalars: escapes go-yaml knows and some it refuses, and quoted text folded over lines. */
const QUOTED = [
  '"plain"', "'single'", "'it''s'", '"\\/etc"', '"\\x41"', '"\\u00e9"', '"\\U0001F600"', '"a\\tb"', '"\\q"', '"\\""',
  '"\\\\"', '"\\0"', '"\\e"', '"\\N"', '"\\_"', '"\\ "', '"cluster.\n  local"', "'cluster.\n  local'", '"a\n\n  b"',
  '"a\\\n  b"', '""', "''", '"yes"', "'1'", '"\t"',
  // go-yaml's `\'` (an apostrophe), and \u escapes that are no character (surrogate halves, past 10FFFF): issue #25
  '"it\\\'s"', '"\\\\\' \\\'"', '"\\ud800"', '"\\ud83d\\ude00"', '"\\U00110000"', '"\\U0010FFFF"', '"\\uDFFF"',
];

const BLOCK = ['|\n  a\n  b\n', '|-\n  a\n', '>\n  a\n  b\n', '>+\n  a\n\n', '|2\n   x\n', '|\n  a', '>-\n  folded\n  text', '|\n\n  a\n'];

const scalar: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...PLAIN) },
  { weight: 3, arbitrary: fc.constantFrom(...QUOTED) },
  { weight: 1, arbitrary: fc.constantFrom('!!str 123', '!!int "12"', '!!float 1', '!!bool yes', '!!null ~', '!!int x', '!custom v', '!!binary aGk=', '!!int 1e3', '!!int 08', '!!int 0x1F', '!!int 1_000', '!!int 18446744073709551616', '!!int -0b101', '!!int 1.0') },
  { weight: 1, arbitrary: fc.constantFrom('[a, b]', '[]', '{}', '{a: 1, b: [x]}', '[yes, 0x10, ~]', '{a: 1, a: 2}', '*anc', '&anc v', '&m {a: 1}', '{<<: *m, b: 2}', '{~: 1}', '[.inf]') },
  { weight: 1, arbitrary: fc.constantFrom('', 'multi\n  line plain', 'multi\n\n  line', '"multi\n\t tab"', "'multi\n\ttab'", 'a\n  # not a comment?', '[a,\n  b]', '{a: 1,\n  b: 2}', 'x #c', 'x\t#c', "'a\n\n  b'") },
);

const KEYS = ['kind', 'apiVersion', 'cgroupDriver', 'maxPods', 'failSwapOn', 'clusterDomain', 'staticPodPath', 'featureGates', 'evictionHard', 'memory.available', 'y', 'n', 'on', '~', 'null', '1', '0x10', 'true', '1.5', '.inf', '"quoted key"', "'sq'", 'a b', '<<'];

/** Text between lines: blanks, comments, tabs where go-yaml refuses or allows them. */
const filler = fc.constantFrom('', '', '', '\n', '# comment\n', '  # indented comment\n', '\t\n', '\t# tab comment\n', '  \t\n', ' \n');

const valueSuffix = fc.constantFrom('', '', '', ' # c', '\t', '  ', '\t# c');

type Item = { key: string; value: string };

/** A block mapping at `indent`, with nested maps and sequences. */
function blockMap(depth: number): fc.Arbitrary<(indent: string) => string> {
  const leaf = fc.tuple(fc.constantFrom(...KEYS), scalar, valueSuffix, filler).map(([k, v, s, f]) => (ind: string) => {
    const val = v.includes('\n') ? v.replace(/\n(?=.)/g, `\n${ind}`) : v;
    return `${f}${ind}${k}: ${val}${val.endsWith('\n') ? '' : s + '\n'}`;
  });
  const entries: fc.Arbitrary<(indent: string) => string>[] = [leaf];
  if (depth > 0) {
    entries.push(
      fc.tuple(fc.constantFrom(...KEYS), blockMap(depth - 1), fc.constantFrom('  ', '    ', ' ')).map(([k, m, step]) => (ind: string) => `${ind}${k}:\n${m(ind + step)}`),
      // a tab after `-` is an error to go-yaml (issue #25)
      fc.tuple(fc.constantFrom(...KEYS), fc.array(fc.tuple(scalar, fc.constantFrom('- ', '- ', '- ', '- ', '-\t', '- \t', '- - ')), { minLength: 1, maxLength: 3 }), fc.constantFrom('', '  ')).map(([k, items, step]) => (ind: string) =>
        `${ind}${k}:\n${items.map(([v, dash]) => `${ind}${step}${dash}${v.includes('\n') ? v.replace(/\n(?=.)/g, `\n${ind}${step}  `) : v}${v.endsWith('\n') ? '' : '\n'}`).join('')}`),
    );
  }
  return fc.array(fc.oneof(...entries), { minLength: 1, maxLength: 5 }).map((es) => (ind: string) => es.map((e) => e(ind)).join(''));
}

export const yamlDoc: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('', '', '---\n', '%YAML 1.1\n---\n', '# head\n', '%YAML 1.1\n'), blockMap(2), fc.constantFrom('', '', '...\n', '\n\n', 'z: |\n  end', 'z: >+\n  end\n\n', 'z: |\n  end  '), fc.boolean(), fc.constantFrom('', '', '', '', '  ', ' '))
  .map(([head, body, tail, cutNewline, lead]) => {
    // `lead`: the first lines indented deeper than the rest; go-yaml then drops the rest silently (issue #25)
    const text = `${head}${lead}apiVersion: kubelet.config.k8s.io/v1beta1\n${lead}kind: KubeletConfiguration\n${body('')}${tail}`;
    // a file without its final newline (block scalars at the end read differently)
    return [cutNewline ? text.replace(/\n$/, '') : text, lead] as const;
  })
  // (no byte order mark before an indented first line: the yaml package counts it into the indentation, go-yaml
  // does not; a deliberate exception, rare in real files)
  .chain(([text, lead]) => fc.constantFrom(text, text, text, text.replaceAll('\n', '\r\n'), text.replaceAll('\n', '\r'), lead ? text : '\ufeff' + text));

// ---------------------------------------------------------------------------------------------
// The engine's reading

export interface EngineYaml {
  /** Undefined when the engine reports an error (the kubelet could not load the file). */
  value?: unknown;
  errors: string[];
  duplicates: number;
}

function toJs(n: ConfigNode | undefined): unknown {
  if (!n) return null;
  if (n.kind === 'scalar') return n.value;
  if (n.kind === 'seq') return n.items.map(toJs);
  const o: Record<string, unknown> = Object.create(null);
  for (const e of n.entries) o[e.key] = toJs(e.value);
  return o;
}

export function engineYaml(text: string): EngineYaml {
  const r = parseYamlStream('config.yaml', text, new LineIndex(text));
  const errors = r.problems.filter((p) => p.severity === 'error').map((p) => p.message);
  const doc = r.docs[0];
  return { value: errors.length ? undefined : toJs(doc?.root), errors, duplicates: doc?.duplicates.length ?? 0 };
}

/** JSON with keys sorted (Go's json.Marshal sorts map keys), numbers as JavaScript prints them. */
export function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? String(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** Undefined when the engine agrees with sigs.k8s.io/yaml; else what differs. */
export function yamlDisagreement(go: YamlVerdict, en: EngineYaml): string | undefined {
  if (go.err !== undefined || en.value === undefined) {
    if (go.err !== undefined && en.value === undefined) return undefined;
    return go.err !== undefined ? `go-yaml fails (${go.err}); the engine reads ${canonical(en.value)}` : `go-yaml reads ${go.json}; the engine fails: ${en.errors.join(' | ')}`;
  }
  const a = canonical(JSON.parse(go.json!));
  const b = canonical(en.value);
  if (a !== b) return `go-yaml: ${a}\nengine:  ${b}`;
  if ((go.strictErr !== undefined) !== en.duplicates > 0) return `strict: go-yaml ${go.strictErr ?? 'accepts'}; engine finds ${en.duplicates} duplicate keys`;
  return undefined;
}

export function compareYaml(docs: readonly string[], run: (d: readonly string[]) => YamlVerdict[]): { doc: string; diff: string }[] {
  const verdicts = run(docs);
  const out: { doc: string; diff: string }[] = [];
  docs.forEach((d, i) => {
    const diff = yamlDisagreement(verdicts[i]!, engineYaml(d));
    if (diff) out.push({ doc: d, diff });
  });
  return out;
}
