/** What hover says about a feature gate for a kubelet of one version: stage, default, lock, what changes next, removal. */
import { compareVersions } from '../catalog/flags.ts';
import { gateAt, gateAddedIn, gateBirthKnown, gateDependencies, featureGate, type GateSpec } from '../catalog/feature-gates.ts';

export function gateMarkdown(name: string, version: string): string[] {
  const st = gateAt(name, version);
  if (st.status === 'unknown') {
    const g = featureGate(name);
    if (g && !gateBirthKnown(g)) return [`**\`${name}\`**: recorded only from ${gateAddedIn(g)} (${g.specs[0].stage}); whether kubelet ${version} knew it is not recorded.`];
    return g
      ? [`**\`${name}\`**: not yet a gate of kubelet ${version} (added in ${gateAddedIn(g)}); the kubelet refuses to start ("unrecognized feature gate").`]
      : [`**\`${name}\`**: not a feature gate the kubelet knows; it refuses to start ("unrecognized feature gate").`];
  }
  if (st.status === 'removed') {
    return [`**\`${name}\`**: removed in ${st.gate.removedIn}${st.gate.approximate ? ' (at the latest; the exact release is not known)' : ''}; kubelet ${version} refuses to start with it ("unrecognized feature gate"). Delete the entry.`];
  }
  const { gate, spec } = st;
  const lines = [`**\`${name}\`** feature gate · kubelet ${version}: **${stage(spec)}**, default \`${spec.default}\`${spec.locked ? `, locked to \`${spec.default}\` (setting it to \`${!spec.default}\` stops the kubelet)` : ''}`];
  if (gate.description) lines.push('', gate.description);
  const needs = gateDependencies(name, version).flatMap((d) => d.needs.map((n) => `\`${n}\`${d.approximate ? ' (read on the 1.38 branch)' : ''}`));
  if (needs.length) lines.push('', `Needs ${needs.join(', ')}: with this gate on and one of them off, the kubelet refuses to start.`);
  const later = gate.specs.filter((s) => compareVersions(s.since, version) > 0);
  const facts = later.map((s) => `${s.since}: ${stage(s)}, default \`${s.default}\`${s.locked ? ', locked' : ''}`);
  if (gate.removedIn) facts.push(`${gate.removedIn}: removed${gate.approximate ? ' (at the latest)' : ''}`);
  if (facts.length) lines.push('', `Later: ${facts.join(' · ')}`);
  return lines;
}

function stage(s: GateSpec): string {
  return s.stage === 'ga' ? 'GA' : s.stage;
}
