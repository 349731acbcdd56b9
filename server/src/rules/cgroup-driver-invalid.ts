/**
 * cm/cgroup_manager_linux.go: the kubelet knows two drivers, systemd and
 * cgroupfs, and treats any other value as cgroupfs — so a typo such as
 * "Systemd" silently gives the wrong driver (an error), while "cgroufs" gives
 * the driver it meant (a warning: a typo that works).
 */
import { finding, type Finding } from '../model/finding.ts';
import { CGROUP_DRIVERS } from '../catalog/defaults.ts';
import { cgroupDriver } from '../node/read.ts';
import { closest } from '../catalog/suggest.ts';
import type { Rule } from './types.ts';
import { oneFix, replaceWord } from './lib/edit.ts';

export const cgroupDriverInvalid: Rule = {
  id: 'cgroup-driver-invalid',
  summary: 'cgroupDriver is neither systemd nor cgroupfs',
  severity: ['error', 'warning'],
  fix: true,
  fixDoes: 'replaces the value with the driver it resembles (e.g. `Systemd` → `systemd`)',
  area: 'cgroup-driver',
  run({ node }) {
    const out: Finding[] = [];
    const d = cgroupDriver(node);
    if ((CGROUP_DRIVERS as readonly string[]).includes(d.value) || d.setting?.kind !== 'scalar' || !d.setting.span) return out;
    const guess = closest(d.value, CGROUP_DRIVERS, 4);
    const span = d.setting.span;
    // The kubelet runs with cgroupfs: wrong when "systemd" was meant (an error), what was meant when "cgroupfs" was.
    const wrong = guess === 'systemd';
    out.push(
      finding(
        'cgroup-driver-invalid',
        wrong ? 'error' : 'warning',
        span,
        `"${d.value}" is not a cgroup driver: the kubelet uses cgroupfs instead.${wrong ? ' That is not the systemd you meant, and it must match the container runtime.' : ''} The kubelet knows only "systemd" and "cgroupfs".${guess ? ` Did you mean "${guess}"?` : ''}`,
        guess ? oneFix(`Change to "${guess}"`, replaceWord(span, d.setting.text, guess)) : undefined,
      ),
    );
    return out;
  },
};
