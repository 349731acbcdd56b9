/**
 * reserved-resource-unknown's fixes (rename a near-miss, remove an unknown resource) in every shape a reservation
 * map is written (block YAML, flow YAML, JSON, a flag): after any fix, every other key of the map keeps its value,
 * the targeted key is gone, and no finding of any code is added.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze } from '../../server/src/engine.ts';
import { applyWorkspaceEdits } from '../helpers/edits.ts';

const KEYS = ['cpu', 'memory', 'pid', 'ephemeral-storage', 'gpu', 'memroy', 'cpux', 'nvidia.com/gpu', 'hugepages-2Mi', 'pdi'];
const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';
type Shape = 'block' | 'flow' | 'json' | 'flag';

function files(shape: Shape, entries: [string, string][]): { path: string; text: string }[] {
  switch (shape) {
    case 'block':
      return [{ path: 'n/kubelet-config.yaml', text: HEAD + 'kubeReserved:\n' + entries.map(([k, v]) => `  ${k}: "${v}"\n`).join('') + 'maxPods: 50\n' }];
    case 'flow':
      return [{ path: 'n/kubelet-config.yaml', text: HEAD + `kubeReserved: {${entries.map(([k, v]) => `${k}: "${v}"`).join(', ')}}\n` }];
    case 'json':
      return [{ path: 'n/kubelet-config.json', text: JSON.stringify({ apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', kubeReserved: Object.fromEntries(entries) }, null, 2) + '\n' }];
    case 'flag':
      return [{ path: 'n/etc/systemd/system/kubelet.service', text: `[Service]\nExecStart=/usr/bin/kubelet --kube-reserved=${entries.map(([k, v]) => `${k}=${v}`).join(',')} --max-pods=50\n` }];
  }
}

function reserved(a: ReturnType<typeof analyze>): Map<string, unknown> {
  const s = a.nodes[0]?.node.settings.get('kubeReserved');
  return new Map(s?.kind === 'map' ? s.items.map((i) => [i.key!, i.value]) : []);
}

function counts(a: ReturnType<typeof analyze>): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of a.findings) m.set(f.code, (m.get(f.code) ?? 0) + 1);
  return m;
}

test('reserved-resource-unknown fixes change only the entry they target, in every shape', () => {
  const entries = fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('1', '500m', '2Gi')), { minLength: 1, maxLength: 5, selector: ([k]) => k });
  let fixes = 0;
  fc.assert(
    fc.property(fc.constantFrom<Shape>('block', 'flow', 'json', 'flag'), entries, (shape, list) => {
      const before = files(shape, list);
      const a = analyze(before);
      const was = reserved(a);
      for (const f of a.findings.filter((x) => x.code === 'reserved-resource-unknown')) {
        const s = a.nodes[0]!.node.settings.get('kubeReserved');
        const at = (r: typeof f.range) => `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
        const target = s?.kind === 'map' ? s.items.find((i) => i.keySpan && at(i.keySpan.range) === at(f.range))?.key : undefined;
        assert.ok(target, 'the finding sits on a key of the map');
        for (const fix of f.fixes ?? []) {
          fixes++;
          const b = analyze(applyWorkspaceEdits(before, fix.edits));
          const now = reserved(b);
          for (const [k, v] of was) if (k !== target) assert.equal(now.get(k), v, `${fix.title} changed ${k} (${shape}: ${JSON.stringify(list)})`);
          assert.ok(!now.has(target), `${fix.title} left ${target}`);
          for (const [code, n] of counts(b)) assert.ok(n <= (counts(a).get(code) ?? 0), `${fix.title} added ${code} (${shape}: ${JSON.stringify(list)})`);
          if (shape === 'block' || shape === 'flag') assert.equal(b.nodes[0]?.node.settings.get('maxPods')?.kind, 'scalar', 'maxPods still set');
        }
      }
    }),
    { numRuns: 300, seed: 17 },
  );
  assert.ok(fixes > 100, `only ${fixes} fixes exercised`);
});
