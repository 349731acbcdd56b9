/**
 * The kubelet reads only the first YAML document of its config file and of each --config-dir drop-in
 * (codec.go DecodeKubeletConfiguration → sigs.k8s.io/yaml YAMLToJSON → go-yaml Unmarshal, one document), silently:
 * checked with the loaders of kubelet v1.33.13 and v1.37.2 (configfiles.go Load and LoadIntoJSON), a 50 / 70 stream
 * gives maxPods 50. kubeadm applies every document of a patch file (patches.go createPatchSet), and kind every
 * patch of its list: those keep all their documents.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type Analysis } from '../../server/src/engine.ts';
import { MAX_FIX_ROUNDS, withSafeFixes } from '../../server/src/features/fix-check.ts';
import { featureGateNames, gateAt } from '../../server/src/catalog/feature-gates.ts';
import { NEWEST_VERSION } from '../../server/src/catalog/flags.ts';
import type { SourceFile } from '../../server/src/model/source.ts';

const DOC = (maxPods: number, extra = '') => `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: ${maxPods}\n${extra}`;
const TWO = `${DOC(50)}---\n${DOC(70, 'notAField: 1\nkubeReserved:\n  memory: 1Gi\n')}`;

const codes = (a: Analysis) => a.findings.filter((f) => f.severity !== 'information' && f.severity !== 'hint').map((f) => `${f.file}:${f.range.start.line + 1} ${f.code}`);
const setting = (a: Analysis, field: string) => {
  const s = a.nodes[0].node.settings.get(field);
  return s?.kind === 'scalar' ? s.value : s?.kind;
};

test('a config file of its own with two KubeletConfigurations: the first one is the node; one warning at the second, none inside it', () => {
  const a = analyze([{ path: 'node/var/lib/kubelet/config.yaml', text: TWO }], {});
  assert.equal(a.nodes.length, 1);
  assert.equal(setting(a, 'maxPods'), 50);
  assert.equal(setting(a, 'kubeReserved'), undefined);
  assert.equal(a.nodes[0].allocatable.pods, 50n);
  assert.deepEqual(codes(a), ['node/var/lib/kubelet/config.yaml:5 config-document-ignored']);
  const w = a.findings.find((f) => f.code === 'config-document-ignored')!;
  assert.equal(w.severity, 'warning');
  assert.match(w.message, /^The kubelet reads only the first document of this file: the KubeletConfiguration from line 5 has no effect\./);
  // (the span is the second document's first line)
  assert.deepEqual(w.range, { start: { line: 4, character: 0 }, end: { line: 4, character: 41 } });
});

test('the --config file of a unit, and a --config-dir drop-in: the first document of each', () => {
  const files: SourceFile[] = [
    { path: 'node/etc/systemd/system/kubelet.service', text: '[Service]\nExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet.yaml --config-dir=/etc/kubernetes/kubelet.conf.d\n' },
    { path: 'node/etc/kubernetes/kubelet.yaml', text: `${DOC(50)}---\n${DOC(70)}---\n${DOC(90)}` },
    { path: 'node/etc/kubernetes/kubelet.conf.d/10-pods.conf', text: 'podPidsLimit: 1024\n---\npodPidsLimit: 2048\n' },
  ];
  const a = analyze(files, {});
  assert.equal(a.nodes.length, 1);
  assert.equal(setting(a, 'maxPods'), 50);
  assert.equal(setting(a, 'podPidsLimit'), 1024);
  assert.deepEqual(codes(a).sort(), ['node/etc/kubernetes/kubelet.conf.d/10-pods.conf:3 config-document-ignored', 'node/etc/kubernetes/kubelet.yaml:5 config-document-ignored']);
  assert.match(a.findings.find((f) => f.file.endsWith('kubelet.yaml') && f.code === 'config-document-ignored')!.message, /the 2 KubeletConfigurations from line 5 on have no effect/);
});

test('what the YAML reader says of a document the kubelet never reads is not reported: a wrong apiVersion, a key given twice', () => {
  const bad = 'apiVersion: kubelet.config.k8s.io/v1\nkind: KubeletConfiguration\nmaxPods: 70\nmaxPods: 80\n';
  const a = analyze([{ path: 'node/var/lib/kubelet/config.yaml', text: `${DOC(50)}---\n${bad}` }], {});
  assert.deepEqual(codes(a), ['node/var/lib/kubelet/config.yaml:5 config-document-ignored']);
  // The same document first is read, and both are reported.
  const b = analyze([{ path: 'node/var/lib/kubelet/config.yaml', text: bad }], {});
  assert.deepEqual(codes(b).map((c) => c.replace(/^.*? /, '')).sort(), ['config-field-duplicate', 'config-kind-invalid']);
});

test('one KubeletConfiguration after a document of another kind is read as before, without the warning', () => {
  const a = analyze([{ path: 'node/kubelet-config.yaml', text: `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n---\n${DOC(70)}` }], {});
  assert.equal(setting(a, 'maxPods'), 70);
  assert.ok(!a.findings.some((f) => f.code === 'config-document-ignored'));
});

test('a kubeadm patch file in patches.directory keeps every document: kubeadm applies each in turn (patches.go createPatchSet)', () => {
  const files: SourceFile[] = [
    { path: 'cp/kubeadm.yaml', text: 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\npatches:\n  directory: /etc/kubeadm/patches\n---\napiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n' },
    { path: 'cp/etc/kubeadm/patches/kubeletconfiguration+strategic.yaml', text: `${DOC(50)}---\n${DOC(70)}` },
  ];
  const a = analyze(files, {});
  const node = a.nodes.find((n) => n.node.files.includes('cp/etc/kubeadm/patches/kubeletconfiguration+strategic.yaml'));
  assert.ok(node, 'the patch joins the kubeadm node');
  const s = node.node.settings.get('maxPods');
  assert.equal(s?.kind === 'scalar' ? s.value : undefined, 70);
  assert.ok(!a.findings.some((f) => f.code === 'config-document-ignored'));
});

test('the fix check of a file of 300 KubeletConfigurations, each with a misspelled field, is two analyses, not one per fix (issue #28)', () => {
  const text = Array.from({ length: 300 }, (_, i) => DOC(100 + i, 'podPidLimit: 1\n')).join('---\n');
  const files = [{ path: 'gitops/kubelet-config.yaml', text }];
  const before = analyze(files, {});
  // The first document's own misspelling, and the one warning for the rest.
  assert.deepEqual(codes(before), ['gitops/kubelet-config.yaml:4 config-field-unknown', 'gitops/kubelet-config.yaml:6 config-document-ignored']);
  let analyses = 0;
  const checked = withSafeFixes(files, {}, before, (f, o) => (analyses++, analyze(f, o)));
  assert.ok(analyses <= 2, `${analyses} analyses`);
  assert.equal(checked.findings.find((f) => f.code === 'config-field-unknown')?.fixes?.length, 1);
});

test(`a node with more fixable findings than MAX_FIX_ROUNDS: the first ${MAX_FIX_ROUNDS} fixes are checked and offered, the rest are named and not offered (issue #28)`, () => {
  // 150 feature gates the newest kubelet knows, each misspelled (a letter dropped): a "Did you mean" rename each.
  const names = featureGateNames()
    .filter((n) => n.length > 8 && gateAt(n, NEWEST_VERSION).status === 'known')
    .slice(0, 150);
  assert.equal(names.length, 150);
  const text = `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n${names.map((n) => `  ${n.slice(0, 3)}${n.slice(4)}: true\n`).join('')}`;
  const files = [{ path: 'node/kubelet-config.yaml', text }];
  const before = analyze(files, {});
  const fixable = before.findings.filter((f) => f.fixes?.length);
  assert.ok(fixable.length > MAX_FIX_ROUNDS + 10, `${fixable.length} fixable findings`);
  let analyses = 0;
  let unchecked = 0;
  const checked = withSafeFixes(files, {}, before, (f, o) => (analyses++, analyze(f, o)), (n) => (unchecked = n));
  const offered = checked.findings.filter((f) => f.fixes?.length).length;
  assert.ok(offered <= MAX_FIX_ROUNDS, `${offered} offered`);
  assert.equal(unchecked, fixable.length - MAX_FIX_ROUNDS);
  assert.ok(analyses <= 2 * MAX_FIX_ROUNDS, `${analyses} analyses`);
  // The ones offered are among the first MAX_FIX_ROUNDS of the file (the rest were never checked).
  const lastChecked = fixable[MAX_FIX_ROUNDS - 1].range.start.line;
  assert.ok(checked.findings.every((f) => !f.fixes?.length || f.range.start.line <= lastChecked));
  assert.ok(offered > MAX_FIX_ROUNDS / 2, `${offered} offered`);
});
