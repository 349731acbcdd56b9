/**
 * validation.go (ValidateKubeletConfiguration): enforcing system-reserved[-compressible]
 * needs systemReservedCgroup, kube-reserved[-compressible] needs kubeReservedCgroup;
 * the kubelet refuses to start otherwise.
 */
import { finding } from '../model/finding.ts';
import type { Fix } from '../model/finding.ts';
import type { NodeModel, Provenance } from '../node/model.ts';
import { comparePos, spanInside, type Span } from '../model/range.ts';
import { enforceItems, stringSetting } from '../node/read.ts';
import { insertTopLevel } from './lib/insert.ts';
import { replaceWord } from './lib/edit.ts';
import type { Rule } from './types.ts';

const NEEDS: Record<string, { field: string; flag: string }> = {
  'kube-reserved': { field: 'kubeReservedCgroup', flag: 'kube-reserved-cgroup' },
  'kube-reserved-compressible': { field: 'kubeReservedCgroup', flag: 'kube-reserved-cgroup' },
  'system-reserved': { field: 'systemReservedCgroup', flag: 'system-reserved-cgroup' },
  'system-reserved-compressible': { field: 'systemReservedCgroup', flag: 'system-reserved-cgroup' },
};

export const reservedCgroupMissing: Rule = {
  id: 'reserved-cgroup-missing',
  summary: 'enforceNodeAllocatable names kube-reserved/system-reserved but the matching reserved cgroup is not set',
  severity: 'error',
  fix: true,
  fixDoes: 'sets the missing reserved cgroup (`/system.slice` for system-reserved, `/kube.slice` for kube-reserved) where enforceNodeAllocatable is written',
  area: 'reservation',
  run({ node }) {
    const out = [];
    const done = new Set<string>();
    // Where the platform keeps its daemons: systemd slices, or its own hierarchy (PlatformSemantics.cgroups).
    const layout = node.platformSpec?.cgroups ?? { kind: 'systemd' as const };
    for (const item of enforceItems(node)) {
      const need = NEEDS[String(item.value)];
      if (!need || !item.valueSpan) continue;
      const cg = stringSetting(node, need.field);
      if (cg !== undefined && cg !== '') continue;
      // kube-reserved and kube-reserved-compressible need the same field: one fix, on the first.
      const fix = done.has(need.field) ? undefined : addCgroup(node, item.from, need);
      done.add(need.field);
      out.push(
        finding(
          'reserved-cgroup-missing',
          'error',
          item.valueSpan,
          `enforceNodeAllocatable includes "${item.value}" but ${need.field} (--${need.flag}) is not set. ` +
            `The kubelet refuses to start: it has no cgroup to put the ${String(item.value).replace('-compressible', '')} limits on. ` +
            `Set ${need.field} to the parent cgroup of those daemons (it must already exist), or stop enforcing "${item.value}".` +
            (layout.kind === 'own' ? ` ${layout.note}.` : ''),
          fix ? { fixes: [fix] } : undefined,
        ),
      );
    }
    return out;
  },
};

/**
 * The cgroup to suggest: system.slice exists on every systemd host; for the
 * Kubernetes daemons a kube.slice they are moved into (Slice=kube.slice in the
 * kubelet and runtime units) is the usual layout. A platform with cgroups of its own
 * names them (PlatformSemantics.cgroups: Talos's /system and /podruntime).
 */
function addCgroup(node: NodeModel, from: Provenance, need: { field: string; flag: string }): Fix | undefined {
  // validation.go rejects reserved cgroups next to reservedSystemCPUs: there the way out is to stop enforcing.
  if (stringSetting(node, 'reservedSystemCPUs')) return undefined;
  const layout = node.platformSpec?.cgroups;
  const own = layout?.kind === 'own' ? layout : undefined;
  const value = own ? (need.field === 'systemReservedCgroup' ? own.systemReserved : own.kubeReserved) : need.field === 'systemReservedCgroup' ? '/system.slice' : '/kube.slice';
  const note = !own && need.field === 'kubeReservedCgroup' ? ' (create kube.slice and put the kubelet and the container runtime in it)' : '';
  // Already written, but empty: the fix sets that value (adding another line would not win over it).
  const existing = node.settings.get(need.field);
  if (existing) {
    if (existing.kind !== 'scalar' || existing.value === null || !existing.span || (existing.from.how !== 'config' && existing.from.how !== 'config-dir' && existing.from.how !== 'flag')) return undefined;
    const edit = replaceWord(existing.span, existing.text, value);
    return edit ? { title: `Set ${need.field} to ${value}${note}`, edits: [edit] } : undefined;
  }
  const span = from.span;
  if (!span) return undefined;
  if (from.how === 'config' || from.how === 'config-dir') {
    const edit = insertTopLevel(node, span, `${need.field}: ${value}`);
    return edit ? { title: `Add ${need.field}: ${value}${note}`, edits: [edit] } : undefined;
  }
  if (from.how === 'flag') {
    const at = afterFlag(node, span);
    return at ? { title: `Add --${need.flag}=${value}${note}`, edits: [{ file: at.file, range: { start: at.range.end, end: at.range.end }, newText: ` --${need.flag}=${value}` }] } : undefined;
  }
  return undefined;
}

/**
 * The word after which ` --flag=value` reaches the kubelet as one more argument, or undefined where a blank does not
 * start one. After a word of ExecStart= itself (its quotes included) it does. In a variable's value it does where
 * `$NAME` is split at blanks (the word lies in the assignment, not in-place `${NAME}`) and the blank stays in the
 * value: an environment file keeps blanks inside a value, an Environment= assignment only inside its quotes (after
 * `Environment=A=--x` the blank would start another assignment: npm run fuzz, seed 20261208). A flag of a platform's
 * list or map is one argument whatever it holds.
 */
function afterFlag(node: NodeModel, span: Span): Span | undefined {
  const f = node.flags.find((x) => x.span === span);
  if (!f || f.from !== 'command-line') return undefined;
  const last = f.valueWord ?? f.nameWord;
  if (!last.via) return last.span;
  const env = node.service?.environment.get(last.via.variable);
  const a = env?.assignment.span;
  if (!env || !a || !spanInside(last.span, a)) return undefined;
  if (env.source === 'Environment' && comparePos(last.span.range.end, a.range.end) >= 0) return undefined;
  return last.span;
}

