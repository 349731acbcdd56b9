import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolvePlainScalar } from '../../server/src/parse/yaml-scalar.ts';
import { analyze } from '../../server/src/engine.ts';

// go-yaml v2 resolve.go: a plain scalar that is no null, bool, int or float is a string, whatever its name.
// (The special-float table was a plain object, so `constructor`, `toString`, ... were found on its prototype.)
test('plain scalars named like JavaScript object members are strings (constructor, toString, __proto__, valueOf)', () => {
  for (const s of ['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty']) assert.equal(resolvePlainScalar(s), s);
  const a = analyze([{ path: 'n/var/lib/kubelet/config.yaml', text: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nclusterDomain: toString\nstaticPodPath: constructor\n' }]);
  assert.deepEqual(a.findings.filter((f) => f.code === 'config-field-type'), []);
});
