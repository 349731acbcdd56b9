/**
 * Generated KubeletConfiguration files for the typed-decode oracle (.oracles/kubelet-oracle decode: k8s.io/kubelet's
 * v1beta1 types through apimachinery's strict-then-lenient codec, as the kubelet loads its --config file), and the
 * comparison with the engine: the kubelet fails to decode exactly where the engine reports an error that means
 * "cannot decode" (DECODE_CODES). Shared by test/oracle/kubelet-decode.test.ts and test/fuzz/run-long.ts.
 *
 * Every field of the catalog's Go type tree (catalog/go-types.ts) gets values of its own type and of others: nested
 * objects, lists of objects, durations (null and empty too), quantities, maps, lists, pointers, enums; and the file
 * gets unknown, wrongly cased and repeated keys (strict errors the lenient decode forgives).
 * Kept out: a file without `kind` (alone, the engine cannot tell it from a --config-dir drop-in, which may leave it out;
 * as a --config file it gets config-kind-invalid, test/unit).
 */
import fc from 'fast-check';
import { analyze } from '../../server/src/engine.ts';
import { kubeletConfigType, type GoType } from '../../server/src/catalog/go-types.ts';
import { FIELDS } from '../../server/src/catalog/fields.ts';

/** Engine codes that say the kubelet cannot decode the file (the other errors are validation, after decoding). */
export const DECODE_CODES = new Set(['config-syntax', 'config-alias', 'config-kind-invalid', 'config-field-type']);

/** A value as YAML: plain text, a mapping or a list (emitted in block or flow style). */
type Y = { s: string } | { m: [string, Y][] } | { l: Y[] };

const S = (s: string): Y => ({ s });
const scalars = (...xs: string[]) => fc.constantFrom(...xs.map(S));

const WRONG_SHAPES = fc.oneof(scalars('x', '1', 'true', '"s"', '1.5'), fc.constant<Y>({ l: [S('a')] }), fc.constant<Y>({ m: [['a', S('b')]] }));
const NULLS = scalars('~', '', 'null');

function enumsOf(path: string): string[] {
  return FIELDS.find((f) => f.path === path)?.enumValues ?? [];
}

function valueOf(t: GoType, path: string, depth: number): fc.Arbitrary<Y> {
  // mostly values of the field's own type, so that about half the files decode and the rest fail in one place
  const wrong = { weight: 1, arbitrary: WRONG_SHAPES };
  const nul = { weight: 2, arbitrary: NULLS };
  switch (t.k) {
    case 'string': {
      const enums = enumsOf(path).filter((e) => e !== '');
      return fc.oneof({ weight: 24, arbitrary: scalars('abc', '"1"', '""', '/var/lib/kubelet', "'x y'", ...enums.slice(0, 3)) }, { weight: 2, arbitrary: scalars('1', 'true', '1.5', 'yes', '0x10', '1e3') }, nul, wrong);
    }
    case 'bool':
      return fc.oneof({ weight: 24, arbitrary: scalars('true', 'false', 'yes', 'off', 'True') }, { weight: 2, arbitrary: scalars('"false"', '1', "'true'", '0') }, nul, wrong);
    case 'float':
      return fc.oneof({ weight: 24, arbitrary: scalars('0.5', '1', '0', '1e-3', '-2') }, { weight: 2, arbitrary: scalars('"0.5"', 'true', '.5x') }, nul, wrong);
    case 'int':
      return fc.oneof(
        { weight: 24, arbitrary: scalars('0', '10', '-1', '1e3', '0x10', '017', '+5', '1_000') },
        { weight: 3, arbitrary: scalars('"4"', '1.5', '2147483648', '-2147483649', '4294967296', '9223372036854775807', '9223372036854775808', '1e21', 'true', '1.0', '2147483647', '4294967295') },
        nul, wrong,
      );
    case 'duration':
    case 'timeOrDuration':
      return fc.oneof(
        { weight: 24, arbitrary: scalars('30s', '"1m"', '1h2m3s', '0', '0s', '-1s', '1.5h', '100ms', '2562048h') },
        { weight: 3, arbitrary: scalars('5x', '10', '"10"', '""', '1.5', 'true', '2562048h1s', '1d', '5000000000', '-3') },
        { weight: 4, arbitrary: NULLS }, wrong,
      );
    case 'quantity':
      return fc.oneof({ weight: 24, arbitrary: scalars('100Mi', '1', '1.5', '"1Gi"', '500m', '1e3', '" 1Gi "', '0') }, { weight: 2, arbitrary: scalars('abc', 'true', '1Q', '"1 Gi"', '-1', '1e400', '0x10') }, nul, wrong);
    case 'time':
      return fc.oneof({ weight: 18, arbitrary: scalars('"2024-01-02T15:04:05Z"', '2024-01-02T15:04:05Z', '"2024-01-02T15:04:05.5+01:00"', '2024-01-02') }, { weight: 2, arbitrary: scalars('"bad"', '5', '"2024-13-02T15:04:05Z"', 'true') }, nul, wrong);
    case 'map': {
      const keys = fc.constantFrom('cpu', 'memory', 'A', 'b.c', '1', 'ephemeral-storage', 'pid');
      const entries = fc.array(fc.tuple(keys, depth > 0 ? valueOf(t.elem, `${path}.*`, depth - 1) : NULLS), { maxLength: 3 }).map((m): Y => ({ m }));
      return fc.oneof({ weight: 30, arbitrary: entries }, nul, wrong);
    }
    case 'slice': {
      const items = fc.array(depth > 0 ? valueOf(t.elem, `${path}[]`, depth - 1) : NULLS, { maxLength: 3 }).map((l): Y => ({ l }));
      return fc.oneof({ weight: 30, arbitrary: items }, nul, wrong);
    }
    case 'struct': {
      const names = [...t.fields.keys()];
      if (!names.length || depth <= 0) return fc.oneof(nul, wrong);
      const entry = fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...names).chain((k) => valueOf(t.fields.get(k)!, path ? `${path}.${k}` : k, depth - 1).map((v): [string, Y] => [k, v])) },
        // unknown and wrongly cased keys: strict errors, forgiven by the lenient decode
        { weight: 1, arbitrary: fc.constantFrom(...names).map((k): [string, Y] => [k.toUpperCase() === k ? `x${k}` : k[0]!.toUpperCase() + k.slice(1), S('1')]) },
      );
      return fc.oneof({ weight: 36, arbitrary: fc.array(entry, { minLength: 1, maxLength: 4 }).map((m): Y => ({ m })) }, nul, wrong);
    }
  }
}

function emit(y: Y, indent: string, flow: boolean): string {
  if ('s' in y) return y.s;
  if (flow || ('m' in y ? y.m.length === 0 : y.l.length === 0)) {
    return 'm' in y ? `{${y.m.map(([k, v]) => `${k}: ${emit(v, '', true)}`).join(', ')}}` : `[${y.l.map((v) => emit(v, '', true)).join(', ')}]`;
  }
  const inner = `${indent}  `;
  if ('m' in y) return y.m.map(([k, v]) => `\n${inner}${k}:${block(v, inner)}`).join('');
  return y.l.map((v) => `\n${inner}-${'m' in v && v.m.length ? ' ' + emit(v, `${inner}  `, false).trimStart().replace(/^/, '') : block(v, `${inner}  `)}`).join('');
}

/** A value after `key:` (or `-`): a scalar on the same line, a collection on the next lines. */
function block(v: Y, indent: string): string {
  if ('s' in v) return v.s === '' ? '' : ` ${v.s}`;
  const text = emit(v, indent, false);
  return text.startsWith('\n') ? text : ` ${text}`;
}

const topLevel = fc.constant(null).chain(() => {
  const t = kubeletConfigType();
  if (t.k !== 'struct') throw new Error('KubeletConfiguration is not a struct');
  const names = [...t.fields.keys()].filter((k) => k !== 'apiVersion' && k !== 'kind');
  return fc.array(
    fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...names).chain((k) => fc.tuple(fc.constant(k), valueOf(t.fields.get(k)!, k, 3), fc.boolean())) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom('bogus', 'MaxPods', 'maxpods', 'syncfrequency'), scalars('1', '"x"', '[a]'), fc.constant(false)) },
    ),
    { minLength: 1, maxLength: 6 },
  );
});

/** A whole file: the header (rarely a wrong or missing one), then the fields, a field now and then repeated. */
export const kubeletDoc: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(
      'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n',
      'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n',
      'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n',
      'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n',
      'kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\n',
    ),
    topLevel,
    fc.boolean(),
    fc.nat(39),
  )
  .map(([head0, fields, repeat, rare]) => {
    // now and then a version the kubelet has no KubeletConfiguration in
    const head = rare === 0 ? head0.replace('/v1beta1', '/v1') : head0;
    const lines = fields.map(([k, v, flow]) => `${k}:${flow && !('s' in v) ? ` ${emit(v, '', true)}` : block(v, '')}\n`);
    if (repeat && lines.length > 1) lines.push(lines[0]!);
    return head + lines.join('');
  });

/**
 * A file of two or three such documents: the kubelet decodes the whole file as one object, which is its first document
 * (go-yaml's Unmarshal reads one and stops), whatever the others hold.
 */
export const kubeletStream: fc.Arbitrary<string> = fc.array(kubeletDoc, { minLength: 2, maxLength: 3 }).map((docs) => docs.join('---\n'));

// ---------------------------------------------------------------------------------------------
// The comparison

export interface DecodeVerdict {
  ok: boolean;
  err?: string;
  lenient?: string;
  json?: unknown;
}

export interface EngineDecode {
  fails: boolean;
  errors: string[];
}

export function engineDecode(text: string): EngineDecode {
  const a = analyze([{ path: 'kubelet-config.yaml', text }]);
  const errors = a.findings.filter((f) => f.severity === 'error' && DECODE_CODES.has(f.code)).map((f) => `${f.code}: ${f.message}`);
  return { fails: errors.length > 0, errors };
}

/** Every file the engine judges differently from the kubelet's decode, with both verdicts. */
export function compareDecodes(docs: readonly string[], run: (d: readonly string[]) => DecodeVerdict[]): { doc: string; diff: string }[] {
  const verdicts = run(docs);
  const out: { doc: string; diff: string }[] = [];
  docs.forEach((doc, i) => {
    const go = verdicts[i]!;
    const en = engineDecode(doc);
    if (go.ok === !en.fails) return;
    out.push({ doc, diff: go.ok ? `the kubelet decodes it; the engine says: ${en.errors.join(' | ')}` : `the kubelet fails (${go.err}); the engine reports no decode error` });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// The catalog's type tree against the real struct (kubelet-oracle types: reflection over k8s.io/kubelet's v1beta1)

/** A type tree as kubelet-oracle prints it. */
export interface GoTree {
  k: string;
  ptr?: boolean;
  bits?: number;
  unsigned?: boolean;
  elem?: GoTree;
  fields?: Record<string, GoTree>;
}

function label(t: GoTree | GoType): string {
  const u = 'unsigned' in t && t.unsigned ? 'u' : '';
  const bits = 'bits' in t && t.bits ? `${u}${t.bits}` : '';
  return `${t.ptr ? '*' : ''}${t.k}${bits}`;
}

/** Every place where the catalog's Go types (catalog/go-types.ts) differ from the real ones: `path: real vs catalog`. */
export function typeTreeDiffs(real: GoTree, ours: GoType, path = ''): string[] {
  const out: string[] = [];
  if (label(real) !== label(ours)) return [`${path || '(root)'}: ${label(real)} in Go, ${label(ours)} in the catalog`];
  if (ours.k === 'map' || ours.k === 'slice') return typeTreeDiffs(real.elem!, ours.elem, `${path}[]`);
  if (ours.k !== 'struct') return out;
  const names = new Set([...Object.keys(real.fields ?? {}), ...ours.fields.keys()]);
  for (const name of [...names].sort()) {
    const r = real.fields?.[name];
    const o = ours.fields.get(name);
    const p = path ? `${path}.${name}` : name;
    if (!r) out.push(`${p}: not in Go, ${label(o!)} in the catalog`);
    else if (!o) out.push(`${p}: ${label(r)} in Go, missing from the catalog`);
    else out.push(...typeTreeDiffs(r, o, p));
  }
  return out;
}
