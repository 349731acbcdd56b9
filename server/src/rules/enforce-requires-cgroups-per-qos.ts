/**
 * validation.go: with cgroupsPerQOS false, enforceNodeAllocatable must be
 * empty (from 1.31, [none] is also accepted: PR #124268). The default is
 * ["pods"], so `cgroupsPerQOS: false` alone is rejected.
 */
import { finding, type Finding } from '../model/finding.ts';
import { compareVersions } from '../catalog/flags.ts';
import { boolSetting, enforceItems } from '../node/read.ts';
import type { Rule } from './types.ts';

export const enforceRequiresCgroupsPerQos: Rule = {
  id: 'enforce-requires-cgroups-per-qos',
  summary: 'enforceNodeAllocatable needs cgroupsPerQOS',
  severity: 'error',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    if (boolSetting(node, 'cgroupsPerQOS', true)) return out;
    const items = enforceItems(node);
    const noneOk = compareVersions(node.kubernetesVersion, '1.31') >= 0;
    const offending = items.filter((i) => !(noneOk && i.value === 'none' && items.length === 1));
    if (offending.length === 0) return out;
    const qos = node.settings.get('cgroupsPerQOS');
    const qosSpan = qos?.kind === 'scalar' ? qos.span : undefined;
    const defaulted = offending.every((i) => i.from.how === 'default');
    const span = defaulted ? qosSpan : offending[0].valueSpan ?? qosSpan;
    if (!span) return out;
    out.push(
      finding(
        'enforce-requires-cgroups-per-qos',
        'error',
        span,
        (defaulted
          ? `cgroupsPerQOS is false but enforceNodeAllocatable is not set, so it defaults to ["pods"], which needs the QoS cgroups. `
          : `enforceNodeAllocatable [${items.map((i) => i.value).join(', ')}] needs the QoS cgroup hierarchy, but cgroupsPerQOS is false. `) +
          `The kubelet rejects the configuration and does not start. Set enforceNodeAllocatable: [] (or ["none"] from 1.31) to go without QoS cgroups.`,
        qosSpan && span !== qosSpan ? { related: [{ span: qosSpan, message: 'cgroupsPerQOS is turned off here' }] } : undefined,
      ),
    );
    return out;
  },
};
