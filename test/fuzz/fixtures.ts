/** Hand-written workspaces that trigger every rule offering a quick fix (for the quick-fix safety property). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { SourceFile } from '../../server/src/model/source.ts';

const CFG = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

export const FIXTURES: Record<string, Record<string, string>> = {
  // flag-positional-argument, flag-removed, flag-unknown, flag-value-invalid, unit-variable-undefined, swallowed directive
  'unit-flags': {
    'a/usr/lib/systemd/system/kubelet.service':
      '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--v=2"\nExecStart=/usr/bin/kubelet --fail-swap-on false --allow-privileged --cgroup-drver=systemd --cgroup-driver=systemdd $KUBELET_EXTR_ARGS \\\n  --v=2 \\\nRestart=always\n',
  },
  // unit-continuation-trailing-space (both the "piece" and the "directive" variants)
  'trailing-space': {
    'b/usr/lib/systemd/system/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet \\ \n  --v=2\nRestart=always \\  \nRestartSec=10\n',
  },
  // unit-execstart-not-reset
  'execstart-not-reset': {
    'c/usr/lib/systemd/system/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet\n',
    'c/etc/systemd/system/kubelet.service.d/10-kubeadm.conf': '[Service]\nExecStart=/usr/bin/kubelet --v=2\n',
  },
  // config-field-unknown, eviction-signal-unknown, reserved-resource-unknown, cgroup-driver-invalid, enforce-values, config-value-invalid
  'config-typos': {
    'd/var/lib/kubelet/config.yaml':
      CFG +
      'cgroupDrver: systemd\ncgroupDriver: sytemd\nevictionHard:\n  memory.avaliable: 100Mi\nkubeReserved:\n  memroy: 1Gi\nenforceNodeAllocatable: [pod]\ncpuManagerPolicy: Static\nmemoryManagerPolicy: static\ntopologyManagerPolicy: best_effort\n',
  },
  // reserved-cgroup-v1-controllers, cgroup-driver-mismatch
  'cgroups': {
    'e/usr/lib/systemd/system/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n',
    'e/var/lib/kubelet/config.yaml': CFG + 'cgroupDriver: cgroupfs\nenforceNodeAllocatable:\n  - pods\n  - kube-reserved\nkubeReservedCgroup: /kube.slice\nkubeReserved:\n  cpu: 500m\n',
    'e/etc/containerd/config.toml': 'version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\n  SystemdCgroup = true\n',
  },
  // env file: flag-unknown, flag-removed
  'envfile': {
    'f/usr/lib/systemd/system/kubelet.service': '[Service]\nEnvironmentFile=-/etc/default/kubelet\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS\n',
    'f/etc/default/kubelet': 'KUBELET_EXTRA_ARGS="--cgroup-drver=systemd --cadvisor-port --kube-reserverd=cpu=1"\n',
  },
};

export const fixtureWorkspaces = (): [string, SourceFile[]][] =>
  Object.entries(FIXTURES).map(([name, files]) => [name, Object.entries(files).map(([path, text]) => ({ path, text }))]);

/** examples/<dir> as one workspace each, paths relative to examples/. */
export function exampleWorkspaces(): [string, SourceFile[]][] {
  const root = join(__dirname, '../../examples');
  const walk = (d: string, out: string[]): string[] => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p, out);
      else out.push(p);
    }
    return out;
  };
  return readdirSync(root)
    .sort()
    .filter((n) => statSync(join(root, n)).isDirectory())
    .map((n) => [`examples/${n}`, walk(join(root, n), []).map((p) => ({ path: relative(root, p), text: readFileSync(p, 'utf8') }))]);
}
