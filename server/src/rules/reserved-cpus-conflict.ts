/**
 * validation.go: reservedSystemCPUs cannot be combined with
 * systemReservedCgroup or kubeReservedCgroup, and must be a valid cpuset
 * (`--reserved-cpus`); the kubelet refuses to start otherwise.
 */
import { finding, type Finding } from '../model/finding.ts';
import { cpusetSize } from '../node/allocatable.ts';
import { stringSetting } from '../node/read.ts';
import type { Rule } from './types.ts';

export const reservedCpusConflict: Rule = {
  id: 'reserved-cpus-conflict',
  summary: 'reservedSystemCPUs is combined with reserved cgroups, or is not a valid cpuset',
  severity: 'error',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    const s = node.settings.get('reservedSystemCPUs');
    if (s?.kind !== 'scalar' || s.value === null || String(s.value) === '' || !s.span) return out;
    const text = String(s.value);
    if (cpusetSize(text) === undefined) {
      out.push(finding('reserved-cpus-conflict', 'error', s.span, `reservedSystemCPUs "${text}" is not a CPU list like "0-1" or "0,2,4-5"; the kubelet refuses to start.`));
      return out;
    }
    const with_ = ['systemReservedCgroup', 'kubeReservedCgroup'].filter((f) => stringSetting(node, f));
    if (with_.length === 0) return out;
    out.push(
      finding(
        'reserved-cpus-conflict',
        'error',
        s.span,
        `reservedSystemCPUs (${text}) cannot be used together with ${with_.join(' and ')}: the kubelet rejects the configuration. ` +
          `Reserve whole CPUs with reservedSystemCPUs, or reserve cpu amounts in enforced reserved cgroups, not both.`,
      ),
    );
    return out;
  },
};
