/**
 * Properties (issue #28 point 9): kubelet settings written with repeated keys into each platform's file. Whatever the
 * order, the node model takes the last value of each key (what every decoder that reads the file takes, see
 * server/src/parse/duplicates.ts), and each repeated key is reported once per earlier occurrence, as an error where
 * the tool refuses the file and as a warning where it drops the earlier value. test/fuzz/duplicate-keys.test.ts runs
 * them briefly, npm run fuzz longer.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze } from '../../server/src/engine.ts';

const KEYS = ['maxPods', 'podPidsLimit', 'imageGCHighThresholdPercent'] as const;

type Entry = readonly [typeof KEYS[number], number];
const entries = fc.array(fc.tuple(fc.constantFrom(...KEYS), fc.integer({ min: 1, max: 99 })), { minLength: 1, maxLength: 7 });

const block = (es: readonly Entry[], indent: number) => es.map(([k, v]) => `${' '.repeat(indent)}${k}: ${v}\n`).join('');

/** Each platform: its file around the entries, and whether its tool refuses a key written twice. */
export const PLATFORMS: { name: string; path: string; refuses: boolean; file: (es: readonly Entry[]) => string }[] = [
  { name: 'Talos', path: 'talos/worker.yaml', refuses: true, file: (es) => `version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraConfig:\n${block(es, 6)}` },
  { name: 'OpenShift', path: 'openshift/kc.yaml', refuses: false, file: (es) => `apiVersion: machineconfiguration.openshift.io/v1\nkind: KubeletConfig\nmetadata:\n  name: x\nspec:\n  kubeletConfig:\n${block(es, 4)}` },
  { name: 'eksctl', path: 'eksctl/cluster.yaml', refuses: true, file: (es) => `apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata:\n  name: demo\n  region: eu-west-1\nnodeGroups:\n  - name: ng\n    kubeletExtraConfig:\n${block(es, 6)}` },
  { name: 'kops', path: 'kops/ig.yaml', refuses: false, file: (es) => `apiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nmetadata:\n  name: nodes\nspec:\n  role: Node\n  kubelet:\n${block(es, 4)}` },
];

export const repeatedKeys = fc.tuple(entries, fc.constantFrom(...PLATFORMS));

export function repeatedKeysProperty([es, p]: [readonly Entry[], (typeof PLATFORMS)[number]]): void {
  const a = analyze([{ path: p.path, text: p.file(es) }]);
  const last = new Map<string, string>();
  for (const [k, v] of es) last.set(k, String(v));
  assert.equal(a.nodes.length, 1, p.name);
  for (const [k, v] of last) {
    const s = a.nodes[0].node.settings.get(k);
    assert.ok(s?.kind === 'scalar', `${p.name} ${k}`);
    assert.equal(s.text, v, `${p.name} ${k}`);
  }
  const dups = a.findings.filter((f) => f.code === 'config-field-duplicate');
  assert.equal(dups.length, es.length - last.size, p.name);
  for (const f of dups) assert.equal(f.severity, p.refuses ? 'error' : 'warning', p.name);
}

const kubelet = (v: number) => `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: ${v}\n`;

/** Values of repeated "contents" of one file, in an Ignition config (false) or a Butane config (true). */
export const repeatedContents = fc.tuple(fc.array(fc.integer({ min: 1, max: 99 }), { minLength: 1, maxLength: 5 }), fc.boolean());

export function repeatedContentsProperty([vs, butane]: [number[], boolean]): void {
  const text = butane
    ? `variant: fcos\nversion: 1.5.0\nstorage:\n  files:\n    - path: /etc/kubernetes/kubelet.yaml\n${vs.map((v) => `      contents:\n        inline: |\n${kubelet(v).replace(/^/gm, '          ')}`).join('')}`
    : `{"ignition": {"version": "3.4.0"}, "storage": {"files": [{"path": "/etc/kubernetes/kubelet.yaml",\n${vs.map((v) => ` "contents": {"source": "data:,${encodeURIComponent(kubelet(v))}"}`).join(',\n')}}]}}\n`;
  const a = analyze([{ path: butane ? 'worker.bu' : 'worker.ign', text }]);
  const s = a.nodes.map((n) => n.node.settings.get('maxPods')).find((x) => x?.kind === 'scalar');
  assert.equal(s?.kind === 'scalar' ? s.text : undefined, String(vs.at(-1)));
  const dups = a.findings.filter((f) => f.code === 'config-field-duplicate');
  assert.equal(dups.length, vs.length - 1);
  for (const f of dups) assert.equal(f.severity, butane ? 'error' : 'warning');
}
