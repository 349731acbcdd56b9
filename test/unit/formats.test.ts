/** The format registry (server/src/formats): one detector, and the tables derived from the registry. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FORMATS, STANDALONE_ORDER, detectKind } from '../../server/src/registry.ts';
import { GENERATED_PATH, activationEvents, patternsModule } from '../../scripts/formats.ts';
import { corpusDir, manifest } from '../helpers/corpus.ts';

const ROOT = join(__dirname, '../..');

test('the generated patterns table matches the registry (run npm run formats after changing a format)', () => {
  assert.equal(readFileSync(join(ROOT, GENERATED_PATH), 'utf8'), patternsModule());
});

test("package.json activationEvents match the registry (run npm run formats after changing a format)", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { activationEvents: string[] };
  assert.deepEqual(pkg.activationEvents, activationEvents());
  assert.ok(pkg.activationEvents.includes('workspaceContains:**/kubelet.service'));
});

test('every format module in server/src/formats is registered once, under its own file name', () => {
  const modules = readdirSync(join(ROOT, 'server/src/formats')).filter((f) => f.endsWith('.ts') && !['index.ts', 'types.ts'].includes(f) && !f.includes('.generated.') && !f.startsWith('_'));
  const kinds = FORMATS.map((f) => f.kind);
  assert.equal(new Set(kinds).size, kinds.length);
  for (const m of modules) assert.ok(kinds.includes(m.replace(/\.ts$/, '') as never), `${m} is not registered in formats/index.ts`);
});

test('standalone files are tried env files first (one can name a config with --config), then kubeadm, then configs', () => {
  assert.deepEqual(STANDALONE_ORDER, ['envfile', 'kubeadm-config', 'kubelet-config', 'talos', 'eks-nodeadm', 'openshift', 'gke-system-config', 'aks-kubelet-config', 'eksctl-nodegroup', 'kops-kubelet', 'bottlerocket', 'k3s']);
});

test('recognition regexes anchor lines with ^[ \\t]*, never ^\\s* (quadratic over blank lines with the m flag)', () => {
  for (const f of readdirSync(join(ROOT, 'server/src/formats')).filter((x) => x.endsWith('.ts'))) {
    const src = readFileSync(join(ROOT, 'server/src/formats', f), 'utf8');
    assert.doesNotMatch(src, /\/\^\\s\*/, f);
  }
});

test('path first, content second', () => {
  assert.equal(detectKind('etc/systemd/system/kubelet.service', ''), 'unit');
  assert.equal(detectKind('etc/systemd/system/kubelet.service.d/10-kubeadm.conf', ''), 'dropin');
  assert.equal(detectKind('x/20-extra.conf', '[Service]\nEnvironment=A=1\n'), 'dropin');
  assert.equal(detectKind('etc/crio/crio.conf.d/10-x.conf', ''), 'crio');
  assert.equal(detectKind('a.conf', '[crio.runtime]\n'), 'crio');
  assert.equal(detectKind('config.toml', 'version = 2\n'), 'containerd');
  assert.equal(detectKind('x.toml', '[plugins."io.containerd.grpc.v1.cri"]\n'), 'containerd');
  assert.equal(detectKind('etc/docker/daemon.json', '{}'), 'docker');
  assert.equal(detectKind('x.json', '{"log-driver": "json-file"}'), 'docker');
  assert.equal(detectKind('x.json', '{"kind": "KubeletConfiguration"}'), 'kubelet-config');
  assert.equal(detectKind('etc/default/kubelet', ''), 'envfile');
  assert.equal(detectKind('run/x.env', 'KUBELET_EXTRA_ARGS=--v=2\n'), 'envfile');
  assert.equal(detectKind('run/x.env', 'PATH=/bin\n'), undefined);
  assert.equal(detectKind('kubeadm.yaml', 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n'), 'kubeadm-config');
  assert.equal(detectKind('x.yaml', 'apiVersion: v1\nkind: Pod\n'), undefined);
});

test('kind: KubeletConfiguration or a kubeadm apiVersion on an indented line is an embedded document, not the file\'s kind', () => {
  assert.equal(detectKind('a.yaml', 'kind: KubeletConfiguration\n'), 'kubelet-config');
  assert.equal(detectKind('a.yaml', '"kind": "KubeletConfiguration"\n'), 'kubelet-config');
  assert.equal(detectKind('a.yaml', 'write_files:\n- content: |\n    kind: KubeletConfiguration\n'), undefined);
  assert.equal(detectKind('a.yaml', 'patches:\n  - |\n    apiVersion: kubeadm.k8s.io/v1beta3\n'), undefined);
  assert.equal(detectKind('a.conf', '  kind: KubeletConfiguration\n'), undefined);
});

test('64 KiB of blank lines before or instead of the content: still recognised from the first 64 KiB only', () => {
  const blanks = (n: number, unit: string) => unit.repeat(Math.ceil(n / unit.length));
  assert.equal(detectKind('a.yaml', blanks(60000, '\n') + 'kind: KubeletConfiguration\n'), 'kubelet-config');
  assert.equal(detectKind('a.yaml', blanks(70000, ' \n') + 'kind: KubeletConfiguration\n'), undefined);
  for (const unit of ['\n', ' \n', '\t\r\n', '\r']) {
    for (const name of ['a.conf', 'a.toml', 'a.yaml', 'a.json', 'a.env', 'a.service']) {
      assert.equal(detectKind(name, blanks(65536, unit)), name === 'a.service' ? 'unit' : undefined, `${name} ${JSON.stringify(unit)}`);
    }
  }
});

/** The manifests' kind column, in the engine's words; what a row names that the engine does not read is undefined. */
const MANIFEST_KIND: Record<string, string | undefined> = {
  unit: 'unit',
  dropin: 'dropin',
  envfile: 'envfile',
  'kubelet-config-yaml': 'kubelet-config',
  'kubelet-config-json': 'kubelet-config',
  'kubeadm-config': 'kubeadm-config',
  containerd: 'containerd',
  docker: 'docker',
  crio: 'crio',
  // Scripts that mention the kubelet are shell carriers (formats/shell.ts): their literal here-documents are read.
  script: 'shell',
};

/** Where detection knowingly differs from the manifest's column, and why. */
const EXCEPTIONS: Record<string, string | undefined> = {
  // A .slice unit configures a cgroup, not a kubelet: nothing in it is read.
  '030-kind-kubelet.slice': undefined,
};

const node = corpusDir('corpus');
test('every file of ../shared/corpus is recognised as the manifest says', { skip: !node && 'no ../shared/corpus' }, () => {
  const rows = manifest(node!);
  assert.equal(rows.length, readdirSync(join(node!, 'files')).length);
  for (const r of rows) {
    const want = r.file in EXCEPTIONS ? EXCEPTIONS[r.file] : MANIFEST_KIND[r.kind];
    assert.ok(r.kind in MANIFEST_KIND, `unknown manifest kind ${r.kind}`);
    assert.equal(detectKind(r.file, readFileSync(join(node!, 'files', r.file), 'utf8')), want, r.file);
  }
});

/**
 * Platform files: carriers and platform configs hold kubelet documents inside them. None is a kubelet file of a
 * kind read on its own; 021 is a cloud-init carrier, 022/023 Butane carriers (by their column-0 variant: and
 * version:). 022/023 and 032 (a kind config) once passed for KubeletConfigurations because of an indented
 * `kind: KubeletConfiguration` line.
 */
const EMBEDDED_KIND: Record<string, string | undefined> = {
  '021-cloudinit-cloud-config-kubeletconfiguration.yaml': 'cloud-init',
  // By apiVersion at column 0, in multi-document streams (formats/karpenter.ts, cluster-api.ts, kind-cluster.ts).
  '001-karpenter-ec2nodeclass-al2-userdata-on-al2023.yaml': 'karpenter',
  '002-karpenter-ec2nodeclass-userdata-nodeconfig.yaml': 'karpenter',
  '003-karpenter-ec2nodeclass-no-kubelet.yaml': 'karpenter',
  '004-karpenter-ec2nodeclass-bottlerocket-userdata.yaml': 'karpenter',
  '008-karpenter-ec2nodeclass-nodeconfig-reserved-cpu.yaml': 'karpenter',
  '010-karpenter-nodepool-v1beta1-kubelet-maxpods.yaml': 'karpenter',
  '028-karpenter-v1beta1-nodepool-ec2nodeclass-custom-ami.yaml': 'karpenter',
  '005-capi-v1beta2-kubeadmconfig-docker.yaml': 'cluster-api',
  '006-capi-v1beta2-kcp-ignition.yaml': 'cluster-api',
  '007-capi-v1beta1-kcp-ignition-map.yaml': 'cluster-api',
  '032-kind-config-kubeletconfiguration-patch.yaml': 'kind-cluster',
  '009-k3s-config-kubelet-arg.yaml': 'k3s',
  '011-talos-patch-kubelet-reserved.yaml': 'talos',
  '012-talos-patch-serialize-only.yaml': 'talos',
  '013-talos-v1.14-kubeletconfig-doc.yaml': 'talos',
  '014-talos-machineconfig-worker-cpumanager.yaml': 'talos',
  // MIME user data, whatever its name (formats/mime.ts): its application/node.eks.aws parts are one NodeConfig payload.
  '015-nodeadm-mime-merge.yaml': 'mime',
  '016-nodeadm-empty-reserved-cgroups.yaml': 'eks-nodeadm',
  '017-nodeadm-maxpods-expression.yaml': 'eks-nodeadm',
  '018-nodeadm-mime-userdata.tpl': 'mime',
  '019-nodeadm-terraform-al2023-userdata.tpl': 'mime',
  '024-bottlerocket-userdata-eviction.toml': 'bottlerocket',
  '025-kops-instancegroup-karpenter.yaml': 'kops',
  '026-eksctl-clusterconfig-kubeletextraconfig.yaml': 'eksctl',
  '027-kops-nodeupconfig-generated.yaml': 'kops',
  '029-openshift-kubeletconfig.yaml': 'openshift',
  // MIME user data named .sh: recognised by its headers, not its name; its one part is a script (formats/mime.ts).
  '020-al2-bootstrap-userdata-sed.sh': 'mime',
  '022-butane-fcos-typhoon-worker.yaml': 'butane',
  '023-butane-flatcar-typhoon-worker.yaml': 'butane',
};
const embedded = corpusDir('corpus-embedded');
test('every file of ../shared/corpus-embedded is recognised as what it is, never as the document it carries', { skip: !embedded && 'no ../shared/corpus-embedded' }, () => {
  const rows = manifest(embedded!);
  assert.equal(rows.length, readdirSync(join(embedded!, 'files')).length);
  for (const r of rows) assert.equal(detectKind(r.file, readFileSync(join(embedded!, 'files', r.file), 'utf8')), EMBEDDED_KIND[r.file], r.file);
});
