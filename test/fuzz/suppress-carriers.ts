/**
 * Property (issue #28 point 4): "Disable RULE for this line / for this file" in carriers. Generated KubeletConfiguration
 * files (test/fuzz/gen.ts) wrapped into each carrier that takes comments (a YAML stream, cloud-init with a literal
 * block, a quoted string and base64 on its line or in a block, Butane, a shell here-document, a Karpenter kubelet
 * block, an eksctl node group): every action offered, applied and analysed again, makes its finding go (on its line,
 * or in the whole file) and changes nothing else: the other findings (code, severity and file, counted) and every
 * node's effective settings stay as they were. test/fuzz/suppress-carriers.test.ts runs it briefly, npm run fuzz longer.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze, type Analysis } from '../../server/src/engine.ts';
import { toDiagnostic } from '../../server/src/features/diagnostics.ts';
import { suppressionActions } from '../../server/src/features/suppress-actions.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import type { Setting } from '../../server/src/node/model.ts';
import { applyEdits } from '../helpers/edits.ts';
import * as G from './gen.ts';

const toUri = (p: string) => `file:///ws/${p}`;
const indent = (t: string, n: number) => t.replace(/^(?=.)/gm, ' '.repeat(n));
const b64 = (t: string) => Buffer.from(t).toString('base64');
/** A KubeletConfiguration's body without apiVersion and kind: what a platform's kubelet block holds. */
const body = (t: string) => t.replace(/^(apiVersion|kind):.*\n/gm, '');

export const WRAPS: readonly [string, (t: string) => string][] = [
  ['stream.yaml', (t) => `apiVersion: machineconfiguration.openshift.io/v1\nkind: KubeletConfig\nmetadata:\n  name: w\nspec:\n  kubeletConfig:\n    kubeReserved:\n      memroy: 1Gi\n---\n${t}`],
  ['ud-block.yaml', (t) => `#cloud-config\nwrite_files:\n  - path: /var/lib/kubelet/config.yaml\n    content: |\n${indent(t, 6)}`],
  ['ud-quoted.yaml', (t) => `#cloud-config\nwrite_files:\n  - path: /var/lib/kubelet/config.yaml\n    content: ${JSON.stringify(t)}\n`],
  ['ud-b64.yaml', (t) => `#cloud-config\nwrite_files:\n  - path: /var/lib/kubelet/config.yaml\n    encoding: b64\n    content: ${b64(t)}\n`],
  ['ud-b64-block.yaml', (t) => `#cloud-config\nwrite_files:\n  - path: /var/lib/kubelet/config.yaml\n    encoding: base64\n    content: |\n      ${b64(t)}\n`],
  ['worker.bu', (t) => `variant: fcos\nversion: 1.5.0\nstorage:\n  files:\n    - path: /var/lib/kubelet/config.yaml\n      contents:\n        inline: |\n${indent(t, 10)}`],
  ['boot.sh', (t) => `#!/bin/bash\nset -e\ncat > /var/lib/kubelet/config.yaml <<'EOF'\n${t}EOF\n`],
  ['karpenter.yaml', (t) => `apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: general\nspec:\n  amiSelectorTerms:\n    - alias: al2023@latest\n  kubelet:\n${indent(body(t), 4)}`],
  ['eksctl.yaml', (t) => `apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata:\n  name: demo\n  region: eu-west-1\nnodeGroups:\n  - name: ng\n    kubeletExtraConfig:\n${indent(body(t), 6)}`],
];

const valueOf = (s: Setting): string =>
  s.kind === 'scalar' ? `${s.text}` : s.kind === 'list' || s.kind === 'map' ? JSON.stringify(s.items.map((i) => ['key' in i ? i.key : '', i.text])) : s.kind;
const settings = (a: Analysis): string =>
  a.nodes.map((n) => [...n.node.settings].map(([k, s]) => `${k}=${valueOf(s)}`).sort().join(';')).sort().join('\n');
const counted = (fs: readonly Finding[]): string => fs.map((f) => `${f.file} ${f.code} ${f.severity}`).sort().join('\n');

export function suppressionProperty(path: string, text: string): number {
  const a = analyze([{ path, text }]);
  const ds = a.findings.filter((f) => f.file === path).map((f) => toDiagnostic(f, toUri));
  let applied = 0;
  for (const action of suppressionActions(a, path, text, ds, toUri)) {
    const d = action.diagnostics![0];
    const file = action.title.endsWith('for this file');
    const edits = Object.values(action.edit!.changes!)[0];
    const after = applyEdits(text, edits.map((e) => ({ file: path, range: e.range, newText: e.newText })));
    // Lines the action added above the finding's line (a base64 payload written again adds none).
    const added = edits.reduce((n, e) => n + (e.range.start.line <= d.range.start.line ? (e.newText.match(/\n/g) ?? []).length - (e.range.end.line - e.range.start.line) : 0), 0);
    const target = (f: Finding, shift: number) => f.file === path && f.code === d.code && (file || f.range.start.line === d.range.start.line + shift);
    const b = analyze([{ path, text: after }]);
    const why = `${action.title} at line ${d.range.start.line + 1}:\n${after}`;
    assert.ok(!b.findings.some((f) => target(f, added)), `the finding stays: ${why}`);
    assert.equal(counted(b.findings.filter((f) => !target(f, added))), counted(a.findings.filter((f) => !target(f, 0))), `other findings changed: ${why}`);
    assert.equal(settings(b), settings(a), `settings changed: ${why}`);
    applied++;
  }
  return applied;
}

/** A generated KubeletConfiguration and the carrier it is wrapped into. */
export const suppressionCase = fc.tuple(G.kubeletConfigYaml, fc.nat(WRAPS.length - 1));

/**
 * suppressionProperty on a generated case; the number of actions applied. A generated text that breaks the carrier's
 * own YAML (a first line indented deeper ends a block early) is no carrier holding a document: where a reader places
 * a syntax error, and so what a comment above it does, is not this property's.
 */
export function suppressionCaseProperty([t, w]: [string, number]): number {
  const [path, wrap] = WRAPS[w];
  const text = wrap(t);
  if (analyze([{ path, text }]).findings.some((f) => f.code === 'config-syntax' || /invalid YAML|not valid YAML/.test(f.message))) return 0;
  return suppressionProperty(path, text);
}
