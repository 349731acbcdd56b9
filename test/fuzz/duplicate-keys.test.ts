/**
 * Property (issue #28 point 9): kubelet settings written with repeated keys into each platform's file. Whatever the
 * order, the node model takes the last value of each key (what every decoder that reads the file takes, see
 * server/src/parse/duplicates.ts), and each repeated key is reported once per earlier occurrence, as an error where
 * the tool refuses the file and as a warning where it drops the earlier value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze } from '../../server/src/engine.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 40;
const SEED = 20261202;
const KEYS = ['maxPods', 'podPidsLimit', 'imageGCHighThresholdPercent'] as const;

type Entry = readonly [typeof KEYS[number], number];
const entries = fc.array(fc.tuple(fc.constantFrom(...KEYS), fc.integer({ min: 1, max: 99 })), { minLength: 1, maxLength: 7 });

const block = (es: readonly Entry[], indent: number) => es.map(([k, v]) => `${' '.repeat(indent)}${k}: ${v}\n`).join('');

/** Each platform: its file around the entries, and whether its tool refuses a key written twice. */
const PLATFORMS: { name: string; path: string; refuses: boolean; file: (es: readonly Entry[]) => string }[] = [
  { name: 'Talos', path: 'talos/worker.yaml', refuses: true, file: (es) => `version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraConfig:\n${block(es, 6)}` },
  { name: 'OpenShift', path: 'openshift/kc.yaml', refuses: false, file: (es) => `apiVersion: machineconfiguration.openshift.io/v1\nkind: KubeletConfig\nmetadata:\n  name: x\nspec:\n  kubeletConfig:\n${block(es, 4)}` },
  { name: 'eksctl', path: 'eksctl/cluster.yaml', refuses: true, file: (es) => `apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata:\n  name: demo\n  region: eu-west-1\nnodeGroups:\n  - name: ng\n    kubeletExtraConfig:\n${block(es, 6)}` },
  { name: 'kops', path: 'kops/ig.yaml', refuses: false, file: (es) => `apiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nmetadata:\n  name: nodes\nspec:\n  role: Node\n  kubelet:\n${block(es, 4)}` },
];

test('repeated keys in a platform file: the model takes the last value of each, and each earlier one is reported as the tool takes it', () => {
  fc.assert(fc.property(entries, fc.constantFrom(...PLATFORMS), (es, p) => {
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
  }), { numRuns: RUNS * 2, seed: SEED });
});

test('repeated "contents" of one Ignition file or Butane entry: the last one is the file written', () => {
  const kubelet = (v: number) => `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: ${v}\n`;
  const values = fc.array(fc.integer({ min: 1, max: 99 }), { minLength: 1, maxLength: 5 });
  fc.assert(fc.property(values, fc.boolean(), (vs, butane) => {
    const text = butane
      ? `variant: fcos\nversion: 1.5.0\nstorage:\n  files:\n    - path: /etc/kubernetes/kubelet.yaml\n${vs.map((v) => `      contents:\n        inline: |\n${kubelet(v).replace(/^/gm, '          ')}`).join('')}`
      : `{"ignition": {"version": "3.4.0"}, "storage": {"files": [{"path": "/etc/kubernetes/kubelet.yaml",\n${vs.map((v) => ` "contents": {"source": "data:,${encodeURIComponent(kubelet(v))}"}`).join(',\n')}}]}}\n`;
    const a = analyze([{ path: butane ? 'worker.bu' : 'worker.ign', text }]);
    const s = a.nodes.map((n) => n.node.settings.get('maxPods')).find((x) => x?.kind === 'scalar');
    assert.equal(s?.kind === 'scalar' ? s.text : undefined, String(vs.at(-1)));
    const dups = a.findings.filter((f) => f.code === 'config-field-duplicate');
    assert.equal(dups.length, vs.length - 1);
    for (const f of dups) assert.equal(f.severity, butane ? 'error' : 'warning');
  }), { numRuns: RUNS, seed: SEED });
});
