/**
 * The fast YAML reader (server/src/parse/yaml-fast.ts) against the general one
 * (server/src/parse/yaml-document.ts, the `yaml` library's documents): wherever
 * the fast reader answers, its documents, ranges, duplicates and problems are
 * deep-equal to the general reader's. On the corpus, on the examples, and on
 * generated text made of the lines kubelet configs are made of plus the
 * constructs the fast reader must refuse. Also checks that the fast reader does
 * answer for the shapes the benchmark and the corpus use (it is the point of it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { LineIndex } from '../../server/src/model/range.ts';
import { readYamlFast } from '../../server/src/parse/yaml-fast.ts';
import { parseYamlDocuments } from '../../server/src/parse/yaml-document.ts';
import { parseYamlStream } from '../../server/src/parse/yamljson.ts';
import { plainSpans } from '../helpers/ranges.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 1500;
const SEED = Number(process.env.FUZZ_SEED ?? 0) || 20261129;

/** True when the fast reader answered (and then it must agree with the general reader). */
function agree(text: string): boolean {
  const lines = new LineIndex(text);
  const fast = readYamlFast('f.yaml', text, lines);
  if (!fast) return false;
  const general = parseYamlDocuments('f.yaml', text, lines);
  assert.deepEqual(plainSpans({ docs: fast.docs, problems: fast.problems }), plainSpans({ docs: general.docs, problems: general.problems }), `readers differ on ${JSON.stringify(text)}`);
  return true;
}

function yamlFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yamlFiles(p, out);
    else if (/\.ya?ml$/.test(name)) out.push(p);
  }
  return out;
}

test('corpus and examples: the fast reader agrees with the general one, and reads nearly all of them', () => {
  const files = [...yamlFiles(join(__dirname, '../../../shared/corpus/files')), ...yamlFiles(join(__dirname, '../../examples'))];
  let read = 0;
  for (const f of files) if (agree(readFileSync(f, 'utf8'))) read++;
  console.log(`yaml readers: the fast reader read ${read} of ${files.length} corpus and example YAML files`);
  assert.ok(files.length === 0 || read / files.length >= 0.9, `fast reader read only ${read} of ${files.length}`);
});

/** A KubeletConfiguration like the benchmark's (bench/fixtures.mjs CONFIG_30 and yamlConfig). */
const BENCH_LIKE = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: systemd
clusterDNS:
  - 10.96.0.10
authentication:
  anonymous:
    enabled: false
enforceNodeAllocatable:
  - pods
kubeReserved:
  cpu: 500m
  memory: 1Gi
evictionHard:
  memory.available: 200Mi
  nodefs.available: 10%
featureGates:
  CustomGate1: true
allowedUnsafeSysctls:
  - net.ipv4.conf.eth0.rp_filter
`;

test('the fast reader answers for the benchmark shapes, kubeadm streams and common comment layouts', () => {
  const cases = [
    BENCH_LIKE,
    `# kubelet-lint: capacity cpu=8,memory=32Gi\n${BENCH_LIKE}`,
    `---\napiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n    node-ip: "10.0.0.1"\n---\n${BENCH_LIKE}`,
    'apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n  - name: node-ip\n    value: "10.0.0.2"\n',
    'kind: KubeletConfiguration\n# reservations\nkubeReserved:   # for the kubelet\n  cpu: 500m   # half a core\n  # memory: 1Gi\n\nsystemReserved: {}\nenforceNodeAllocatable: []\n# end\n',
    "kind: KubeletConfiguration\nstaticPodPath: '/etc/kubernetes/manifests'\nclusterDomain: \"cluster.local\"\nmaxPods: 110\nfailSwapOn: no\n",
  ];
  for (const t of cases) assert.ok(agree(t), `the fast reader gave up on ${JSON.stringify(t)}`);
});

test('parseYamlStream gives the general reader\'s result whichever reader runs', () => {
  for (const t of [BENCH_LIKE, 'a: &x 1\nb: *x\n', 'a: [1, 2\n', 'a: |\n  x\n']) {
    const lines = new LineIndex(t);
    const got = parseYamlStream('f.yaml', t, lines);
    const want = parseYamlDocuments('f.yaml', t, lines);
    assert.deepEqual(plainSpans({ docs: got.docs, problems: got.problems }), plainSpans({ docs: want.docs, problems: want.problems }));
  }
});

// ---------------------------------------------------------------------------------------------
// Generated text: lines of random indentation made of keys, values, sequence dashes, comments,
// blank lines and document markers, with both common and unsupported pieces.

const keys = fc.constantFrom('a', 'b', 'kind', 'cpu', 'memory.available', 'k k', 'x-y', '"q"', "'s'", '"a:b"', "'it''s'", '1', '0x1F', 'yes', 'Off', '~', 'null', '<<', '-x', '?x', ':x', 'a#b', 'a b', '"x" ', 'é', '""', "''", 'a:b', 'a\tb', '[]', '{}', '&a k', '*a', '!t k', '? k', '- k');
const values = fc.constantFrom(
  '1', 'v', '500m', '1Gi', '10%', 'yes', 'no', 'true', 'False', '~', 'null', '0755', '1_000', '1e3', '.5', '-1', '+.inf', '.NaN', '2001-01-01',
  '"q"', '"a b"', "'s'", "'it''s'", "''", '""', '"a\\"b"', '"a\\nb"', "'open", '"open', '"a"b', "'a' b",
  '[]', '{}', '[ ]', '{ }', '[a, b]', '{a: 1}', '[]x', '&x 1', '*x', '!!str 1', '!!int x', '|', '>-', '|+\n  text',
  'a: b', 'x #y', 'x#y', 'x  ', '- a', '-', '-x', '?x', ':x', 'http://h:1/p', 'a,b', ',x', '%x', '@x', '`x', 'a\tb', 'é', 'x\r', '\u2028',
);
const trailing = fc.constantFrom('', '', '', '  # c', ' # x: y', '#x', ' ', '  ', '\t', ' #');
const indent = fc.constantFrom('', '', '', '  ', '  ', '    ', '    ', '      ', ' ', '   ', '\t');
const dash = fc.constantFrom('', '', '', '- ', '- ', '-', '-  ', '- - ', '? ', ': ');
const line = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(indent, dash, keys, values, trailing).map(([i, d, k, v, t]) => `${i}${d}${k}: ${v}${t}`) },
  { weight: 4, arbitrary: fc.tuple(indent, dash, keys, trailing).map(([i, d, k, t]) => `${i}${d}${k}:${t}`) },
  { weight: 3, arbitrary: fc.tuple(indent, dash, values, trailing).map(([i, d, v, t]) => `${i}${d}${v}${t}`) },
  { weight: 2, arbitrary: fc.tuple(indent, fc.constantFrom('# c', '#', '# a: b', '#  - x')).map(([i, c]) => `${i}${c}`) },
  { weight: 2, arbitrary: fc.constantFrom('', '', '  ', ' ') },
  { weight: 1, arbitrary: fc.constantFrom('---', '---', '...', '--- # c', '--- a: 1', '%YAML 1.1', '----', '\uFEFFa: 1') },
);
const eol = fc.constantFrom('\n', '\n', '\n', '\n', '\n', '\n', '\n', '\r\n');
const text = fc
  .tuple(fc.array(fc.tuple(line, eol), { minLength: 0, maxLength: 14 }), fc.boolean())
  .map(([ls, last]) => ls.map(([l, e]) => l + e).join('') + (last ? 'z: 1' : ''));

test('generated text: wherever the fast reader answers, it agrees with the general reader', () => {
  let read = 0;
  let all = 0;
  fc.assert(
    fc.property(text, (t) => {
      all++;
      if (agree(t)) read++;
    }),
    { numRuns: RUNS, seed: SEED },
  );
  console.log(`yaml readers: the fast reader answered ${read} of ${all} generated texts`);
});

// The same with supported pieces only, so that the fast reader gets to answer (or must refuse) on odd indentation,
// comments between anything, empty values, dashes and document markers.
const keys2 = fc.constantFrom('a', 'b', 'k', '"q"', "'s'", '1', 'x y', 'a');
const values2 = fc.constantFrom('1', 'v', 'yes', '"q"', "'s'", '[]', '{}', 'x #y', 'x  ', 'a: b', '- a', '-1', 'x:y');
const indent2 = fc.constantFrom('', '', '', ' ', '  ', '  ', '   ', '    ', '    ', '      ');
const dash2 = fc.constantFrom('', '', '', '- ', '- ', '-', '-  ');
const line2 = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(indent2, dash2, keys2, values2, trailing.filter((t) => !t.includes('\t'))).map(([i, d, k, v, t]) => `${i}${d}${k}: ${v}${t}`) },
  { weight: 4, arbitrary: fc.tuple(indent2, dash2, keys2, fc.constantFrom('', '', ' ', '  # c')).map(([i, d, k, t]) => `${i}${d}${k}:${t}`) },
  { weight: 2, arbitrary: fc.tuple(indent2, dash2, values2).map(([i, d, v]) => `${i}${d}${v}`) },
  { weight: 3, arbitrary: fc.tuple(indent2, fc.constantFrom('# c', '#', '# a: b')).map(([i, c]) => `${i}${c}`) },
  { weight: 2, arbitrary: fc.constantFrom('', '', '  ', ' ') },
  { weight: 1, arbitrary: fc.constant('---') },
);
const text2 = fc.tuple(fc.array(line2, { minLength: 0, maxLength: 16 }), fc.boolean()).map(([ls, nl]) => ls.join('\n') + (nl ? '\n' : ''));

test('generated text of supported pieces at random indentation: agreement', () => {
  let read = 0;
  let all = 0;
  fc.assert(
    fc.property(text2, (t) => {
      all++;
      if (agree(t)) read++;
    }),
    { numRuns: RUNS, seed: SEED },
  );
  console.log(`yaml readers: the fast reader answered ${read} of ${all} generated texts of supported pieces`);
});

// Well-formed block YAML (what the fast reader is for), with comments and blank lines sprinkled in at every
// indentation: agreement, and the fast reader reads nearly all of it.
type Tree = { s: string } | { seq: Tree[] } | { map: [string, Tree][]; compactSeq?: boolean };
const scalar = fc.constantFrom('1', 'v', '500m', 'yes', '"q"', "'it''s'", '~', 'a b', 'x:y', '-1', '[]', '{}', '', '', '  # c');
const mapKey = fc.constantFrom('a', 'b', 'c', 'kubeReserved', '"q"', "'s'", 'x y', '1', 'a');
const tree: fc.Arbitrary<Tree> = fc.letrec<{ t: Tree }>((tie) => ({
  t: fc.oneof(
    { depthSize: 'small' },
    scalar.map((s) => ({ s })),
    fc.array(tie('t'), { minLength: 1, maxLength: 4 }).map((seq) => ({ seq })),
    fc.tuple(fc.array(fc.tuple(mapKey, tie('t')), { minLength: 1, maxLength: 4 }), fc.boolean()).map(([map, compactSeq]) => ({ map, compactSeq })),
  ),
})).t;
const decoration = fc.constantFrom('', '', '', '', '', '', '# c', '  # c', '    # c', '      # c', '', '  ', '# a: b');

function renderMap(m: [string, Tree][], ind: number, out: string[], deco: () => string, compactSeq: boolean, firstLead?: string): void {
  m.forEach(([k, v], i) => {
    const lead = i === 0 && firstLead !== undefined ? firstLead : ' '.repeat(ind);
    if (!(i === 0 && firstLead !== undefined)) {
      const d = deco();
      if (d !== '') out.push(d);
    }
    if ('s' in v) out.push(`${lead}${k}:${v.s === '' ? '' : v.s.startsWith(' ') ? v.s : ' ' + v.s}`);
    else {
      out.push(`${lead}${k}:`);
      if ('map' in v) renderMap(v.map, ind + 2, out, deco, !!v.compactSeq);
      else renderSeq(v.seq, compactSeq ? ind : ind + 2, out, deco);
    }
  });
}
function renderSeq(s: Tree[], ind: number, out: string[], deco: () => string): void {
  const pad = ' '.repeat(ind);
  for (const v of s) {
    const d = deco();
    if (d !== '') out.push(d);
    if ('s' in v) out.push(`${pad}-${v.s === '' ? '' : v.s.startsWith(' ') ? v.s : ' ' + v.s}`);
    else if ('map' in v) renderMap(v.map, ind + 2, out, deco, !!v.compactSeq, `${pad}- `);
    else {
      out.push(`${pad}-`);
      renderSeq(v.seq, ind + 2, out, deco);
    }
  }
}

test('generated well-formed block YAML: agreement, and the fast reader reads nearly all of it', () => {
  let read = 0;
  let all = 0;
  fc.assert(
    fc.property(fc.array(fc.tuple(mapKey, tree), { minLength: 1, maxLength: 14 }), fc.boolean(), fc.infiniteStream(decoration), fc.boolean(), (root, compact, decos, nl) => {
      const out: string[] = [];
      renderMap(root, 0, out, () => decos.next().value, compact);
      const t = out.join('\n') + (nl ? '\n' : '');
      all++;
      if (agree(t)) read++;
    }),
    { numRuns: RUNS, seed: SEED },
  );
  console.log(`yaml readers: the fast reader read ${read} of ${all} generated well-formed texts`);
  assert.ok(read / all > 0.8, `fast reader read only ${read} of ${all}`);
});
