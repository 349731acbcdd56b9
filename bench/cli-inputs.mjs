// Inputs of the CLI scenarios (issues #28, #29), generated deterministically: kubeadm fleets, a long YAML stream,
// a cloud-init with many configs. Each has a fixable mistake in many places, so the report's fix check
// (server/src/features/fix-check.ts withSafeFixes) has many fixes to check.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CONFIG_30, DEFAULT_ENV, DROPIN, FLAGS_ENV, PATHS, UNIT, yamlConfig } from './fixtures.mjs';

/** `n` kubeadm nodes under `dir` (unit, drop-in, /etc/default/kubelet, kubeadm-flags.env, config.yaml each); every tenth misspells --max-pods. */
export function writeFleet(dir, n) {
  const files = [PATHS.unit, PATHS.dropin, PATHS.defaultEnv, PATHS.flagsEnv, PATHS.config];
  const text = { [PATHS.unit]: UNIT, [PATHS.dropin]: DROPIN, [PATHS.flagsEnv]: FLAGS_ENV, [PATHS.config]: CONFIG_30 };
  for (let i = 0; i < n; i++) {
    const node = `node-${String(i).padStart(5, '0')}`;
    for (const p of files) {
      const path = join(dir, node, p.slice('node/'.length));
      mkdirSync(dirname(path), { recursive: true });
      const body = p === PATHS.defaultEnv ? (i % 10 === 0 ? DEFAULT_ENV.replace('--v=2', '--v=2 --max-pod=110') : DEFAULT_ENV) : text[p];
      writeFileSync(path, body);
    }
  }
  return n * files.length;
}

/** A YAML stream of `n` documents of two formats (KubeletConfiguration and EKS NodeConfig), each with a fixable mistake. */
export function streamText(n) {
  const docs = [];
  for (let i = 0; i < n; i++) {
    docs.push(
      i % 2 === 0
        ? `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPod: ${100 + (i % 50)}\ncgroupDriver: systemd\n`
        : `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: c${i}\n  kubelet:\n    flags:\n      - --max-pod=${100 + (i % 50)}\n`,
    );
  }
  return docs.join('---\n');
}

/** A cloud-init #cloud-config writing `n` KubeletConfigurations (nodes of their own), each with a fixable mistake. */
export function cloudInitText(n) {
  const out = ['#cloud-config', 'write_files:'];
  for (let i = 0; i < n; i++) {
    out.push(`  - path: /etc/kubernetes/kubelet-${String(i).padStart(5, '0')}.yaml`, '    content: |', '      apiVersion: kubelet.config.k8s.io/v1beta1', '      kind: KubeletConfiguration', `      maxPod: ${100 + (i % 50)}`);
  }
  return out.join('\n') + '\n';
}

/**
 * A cloud-init #cloud-config writing one kubelet unit and `n` --config-dir drop-ins of it, without mistakes: one node
 * of `n` files (fixes of one node are checked one at a time, so this input has none).
 */
export function cloudInitDropinsText(n) {
  const out = ['#cloud-config', 'write_files:'];
  out.push('  - path: /etc/systemd/system/kubelet.service', '    content: |', '      [Service]', '      ExecStart=/usr/bin/kubelet --config-dir=/etc/kubernetes/kubelet.conf.d');
  for (let i = 0; i < n; i++) {
    out.push(`  - path: /etc/kubernetes/kubelet.conf.d/${String(i).padStart(5, '0')}.conf`, '    content: |', '      apiVersion: kubelet.config.k8s.io/v1beta1', '      kind: KubeletConfiguration', `      maxPods: ${100 + (i % 50)}`);
  }
  return out.join('\n') + '\n';
}

/** A KubeletConfiguration of about `mib` MiB (bench/fixtures.mjs yamlConfig). */
export function bigConfig(mib) {
  return yamlConfig(Math.round((mib * 1024 * 1024 * 10000) / 294453));
}

/** A KubeletConfiguration with `n` unknown fields: a finding each. */
export function manyFindingsConfig(n) {
  return 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n' + Array.from({ length: n }, (_, i) => `unknownField${i}: 1\n`).join('');
}

/** An Ignition config writing `config` to /var/lib/kubelet/config.yaml as a base64 or percent-encoded data URL. */
export function ignitionText(config, base64) {
  const source = base64 ? `data:;base64,${Buffer.from(config, 'utf8').toString('base64')}` : `data:,${encodeURIComponent(config)}`;
  return JSON.stringify({ ignition: { version: '3.4.0' }, storage: { files: [{ path: '/var/lib/kubelet/config.yaml', contents: { source } }] } }, null, 2) + '\n';
}

export function writeText(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
