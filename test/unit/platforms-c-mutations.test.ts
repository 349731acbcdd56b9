/**
 * Robustness of the OpenShift, eksctl, kops, Bottlerocket and k3s readers: their corpus files mutated (line deletions,
 * duplications, truncation, stray characters) are analysed without a crash, every finding in the user's file (never a
 * payload path) and inside it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import { corpusDir } from '../helpers/corpus.ts';

const dir = corpusDir('corpus-embedded');
const FILES = [
  '009-k3s-config-kubelet-arg.yaml',
  '024-bottlerocket-userdata-eviction.toml',
  '025-kops-instancegroup-karpenter.yaml',
  '026-eksctl-clusterconfig-kubeletextraconfig.yaml',
  '027-kops-nodeupconfig-generated.yaml',
  '029-openshift-kubeletconfig.yaml',
];

test('mutated OpenShift, eksctl, kops, Bottlerocket and k3s files: no crash, every finding inside the user\'s file', { skip: !dir && 'no corpus' }, () => {
  let seed = 20261201;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const stray = ['\t', ':', '- ', '"', "'", '{', '[', '=', '${x}', '\r', '---', '[settings.kubernetes]', '#', ','];
  let runs = 0;
  for (const name of FILES) {
    const base = readFileSync(join(dir!, 'files', name), 'utf8');
    for (let k = 0; k < 40; k++) {
      const lines = base.split('\n');
      const at = rnd(lines.length);
      const op = rnd(4);
      if (op === 0) lines.splice(at, 1);
      else if (op === 1) lines.splice(at, 0, lines[at]);
      else if (op === 2) lines.length = at + 1;
      else lines[at] = lines[at].slice(0, rnd(lines[at].length + 1)) + stray[rnd(stray.length)] + lines[at].slice(rnd(lines[at].length + 1));
      const text = lines.join('\n');
      const a = analyze([{ path: name, text }]);
      const count = text.split('\n').length;
      for (const f of a.findings) {
        assert.equal(f.file, name, `${name} #${k}: ${f.code} in ${f.file}`);
        assert.ok(f.range.end.line < count && f.range.start.line <= f.range.end.line, `${name} #${k}: ${f.code} at ${JSON.stringify(f.range)}`);
      }
      runs++;
    }
  }
  assert.equal(runs, 240);
});
