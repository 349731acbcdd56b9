/**
 * The CLI's fix check (server/src/features/fix-check.ts withSafeFixes) checks fixes of different nodes together, one
 * analysis per group, and halves a group that fails (issues #28, #29). The property: it keeps exactly the fixes that
 * checking each one alone (fixProblem, one analysis of the whole workspace per fix) keeps, on generated inputs with
 * many nodes, carriers whose documents are nodes of their own, and fixes that are not safe among safe ones.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze, type AnalyzeOptions } from '../../server/src/engine.ts';
import { fixProblem, withSafeFixes } from '../../server/src/features/fix-check.ts';
import type { SourceFile } from '../../server/src/model/source.ts';
import * as G from './gen.ts';

const indent = (t: string, by: string) =>
  t
    .split(/\r?\n/)
    .map((l) => (l ? by + l : l))
    .join('\n');

/** A flag list for an EKS NodeConfig: mistakes whose fixes are safe (--max-pod) and ones whose are not (a bad value). */
const nodeadmFlags = fc.array(fc.constantFrom('--max-pod=110', '--kube-reservd=cpu=lots', '--max-pods=20', '--node-labels=a=b', '--eviction-hrad=memory.available<5%', '--v=2'), { minLength: 1, maxLength: 3 });

const nodeConfig = nodeadmFlags.map((flags) => `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: c\n  kubelet:\n    flags:\n${flags.map((f) => `      - ${f}`).join('\n')}\n`);

/** A multi-document stream: KubeletConfigurations and NodeConfigs, each document a node of its own. */
const stream = fc.array(fc.oneof(G.kubeletConfigYaml, nodeConfig), { minLength: 2, maxLength: 5 }).map((docs) => docs.map((d) => (d.endsWith('\n') ? d : d + '\n')).join('---\n'));

/** A #cloud-config writing KubeletConfigurations (each a node of its own), and maybe a unit that reads one. */
const cloudConfig = fc.tuple(fc.array(G.kubeletConfigYaml, { minLength: 1, maxLength: 4 }), fc.option(G.unitText, { nil: undefined })).map(([configs, unit]) => {
  const out = ['#cloud-config', 'write_files:'];
  configs.forEach((c, i) => out.push(`  - path: /etc/kubernetes/kubelet-${i}.yaml`, '    content: |', indent(c.replace(/\r/g, ''), '      ')));
  if (unit !== undefined) out.push('  - path: /etc/systemd/system/kubelet.service', '    content: |', indent(unit.replace(/\r/g, ''), '      '));
  return out.join('\n') + '\n';
});

/** Several generated nodes, each under a root of its own, with a stream and a cloud-config beside them. */
export const fleet: fc.Arbitrary<SourceFile[]> = fc
  .tuple(fc.array(G.workspace, { minLength: 1, maxLength: 4 }), fc.option(stream, { nil: undefined }), fc.option(cloudConfig, { nil: undefined }))
  .map(([nodes, s, c]) => [
    ...nodes.flatMap((files, i) => files.map((f) => ({ path: f.path.replace(/^n\//, `n${i}/`), text: f.text }))),
    ...(s === undefined ? [] : [{ path: 'gitops/nodes.yaml', text: s }]),
    ...(c === undefined ? [] : [{ path: 'user-data/cloud.yaml', text: c }]),
  ]);

/** The fixes withSafeFixes keeps are those checking each fix alone keeps. Returns how many fixes there were. */
export function fixGroupProperty(files: readonly SourceFile[], options: AnalyzeOptions = {}): number {
  const before = analyze(files, options);
  const alone: string[] = [];
  let n = 0;
  before.findings.forEach((f, i) =>
    f.fixes?.forEach((fix, j) => {
      n++;
      if (fixProblem(files, options, before, f, fix.edits, analyze) === undefined) alone.push(`${i}:${j}:${fix.title}`);
    }),
  );
  const kept: string[] = [];
  const checked = withSafeFixes(files, options, before, analyze);
  assert.equal(checked.findings.length, before.findings.length);
  checked.findings.forEach((f, i) => {
    const offered = before.findings[i]!.fixes ?? [];
    for (const fix of f.fixes ?? []) kept.push(`${i}:${offered.indexOf(fix)}:${fix.title}`);
  });
  assert.deepEqual(kept, alone);
  return n;
}
