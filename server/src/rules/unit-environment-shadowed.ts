/**
 * systemd.exec(5): "Variables set through EnvironmentFile= override those set
 * through Environment=", whatever their order in the unit. An Environment=
 * assignment of a variable that an EnvironmentFile= of the service also sets
 * never reaches the process: kubeadm's kubeadm-flags.env replaces an
 * Environment="KUBELET_KUBEADM_ARGS=..." of a drop-in entirely.
 */
import { finding, type Finding } from '../model/finding.ts';
import type { Rule } from './types.ts';

function short(v: string): string {
  return v.length > 100 ? `${v.slice(0, 97)}...` : v;
}

export const unitEnvironmentShadowed: Rule = {
  id: 'unit-environment-shadowed',
  summary: 'an Environment= value that an EnvironmentFile= of the service overrides',
  severity: 'warning',
  fix: false,
  area: 'systemd-files',
  run({ node }) {
    const out: Finding[] = [];
    const s = node.service;
    // Only an environment file read by the service can shadow anything (a drop-in can set thousands of variables).
    if (!s || !s.envFileRefs.some((r) => r.resolved !== undefined)) return out;
    for (const a of s.environmentAssignments) {
      const winner = s.environment.get(a.name);
      if (!winner || winner.source !== 'EnvironmentFile') continue;
      const w = winner.assignment;
      const file = w.span.file;
      out.push(
        finding(
          'unit-environment-shadowed',
          'warning',
          a.span,
          `${a.name} never reaches the kubelet: an environment file sets it too. It is also set in ${file} (line ${w.nameSpan.range.start.line + 1}), read through EnvironmentFile=: values from environment files override Environment= whatever their order. The kubelet gets ${a.name}=${JSON.stringify(short(w.value))} instead.`,
          { related: [{ span: w.span, message: `this assignment of ${a.name} wins` }] },
        ),
      );
    }
    return out;
  },
};
