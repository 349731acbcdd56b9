/**
 * Value checks of validation.go that apply only while a feature gate is on
 * (with the gate off, config-needs-feature-gate refuses the setting itself):
 * cpuCFSQuotaPeriod within 1ms..1s (CustomCPUCFSQuotaPeriod), the graceful
 * shutdown periods (GracefulNodeShutdown, ...BasedOnPodPriority),
 * crashLoopBackOff.maxContainerRestartPeriod within 1s..300s
 * (KubeletCrashLoopBackOffMax), the preloaded-images allowlist only with
 * NeverVerifyAllowlistedImages (KubeletEnsureSecretPulledImages).
 */
import { compareVersions } from '../../../catalog/flags.ts';
import { fieldValue } from '../../../node/config-value.ts';
import { gateState } from '../../../node/gates.ts';
import type { NodeModel } from '../../../node/model.ts';
import { mapItems } from '../../../node/read.ts';
import { configEntry, label, MS, nanos, num, SECOND, type Bad } from './common.ts';

export function checkGated(node: NodeModel, bad: Bad): void {
  const on = (gate: string) => gateState(node, gate).enabled;
  if (on('DefaultPodSysctls')) checkDefaultPodSysctls(node, bad);
  // validation.go from 1.37 (45b76a348437ceb54ca5e067ee6b097319e163a4): memoryThrottlingFactor has no default any more,
  // and a value other than the former default 0.9 is refused while MemoryQoS is off (files written with 0.9 still pass).
  const mtf = fieldValue(node, 'memoryThrottlingFactor');
  const factor = mtf ? num(mtf) : undefined;
  if (mtf && factor !== undefined && factor !== 0.9 && compareVersions(node.kubernetesVersion, '1.37') >= 0 && !on('MemoryQoS') && !gateState(node, 'MemoryQoS').unknown) {
    bad(mtf.span, `memoryThrottlingFactor ${mtf.text} is set while the MemoryQoS feature gate is off`,
      'invalid configuration: memoryThrottlingFactor must not be set when MemoryQoS feature gate is disabled',
      'Only 0.9, the default before 1.37, is accepted without the gate. Turn MemoryQoS on or remove the setting.');
  }
  if (on('CustomCPUCFSQuotaPeriod')) {
    const v = fieldValue(node, 'cpuCFSQuotaPeriod');
    const n = nanos(v);
    if (v && n !== undefined && (n < MS || n > SECOND)) {
      bad(v.span, `${label('cpuCFSQuotaPeriod', v)} is ${v.text}, but must be between 1ms and 1s`, `invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) ${v.text} must be between 1ms and 1sec, inclusive`);
    }
  }
  const totalV = fieldValue(node, 'shutdownGracePeriod');
  const critV = fieldValue(node, 'shutdownGracePeriodCriticalPods');
  const total = nanos(totalV) ?? 0n;
  const crit = nanos(critV) ?? 0n;
  if (on('GracefulNodeShutdown')) {
    if (critV && crit > total) {
      bad(critV.span, `shutdownGracePeriodCriticalPods ${critV.text} is longer than shutdownGracePeriod ${totalV?.text ?? '0s'}`,
        `invalid configuration: shutdownGracePeriodCriticalPods ${critV.text} must be <= shutdownGracePeriod ${totalV?.text ?? '0s'}`, 'The critical pods get the last part of the whole period.');
    }
    for (const [path, v, n] of [['shutdownGracePeriod', totalV, total], ['shutdownGracePeriodCriticalPods', critV, crit]] as const) {
      if (v && (n < 0n || (n > 0n && n < SECOND))) bad(v.span, `${path} is ${v.text}, but must be 0 or at least 1s`, `invalid configuration: ${path} ${v.text} must be either zero or otherwise >= 1 sec`);
    }
  }
  const byPrio = configEntry(node, 'shutdownGracePeriodByPodPriority');
  if (on('GracefulNodeShutdownBasedOnPodPriority') && byPrio?.value.kind === 'seq' && byPrio.value.items.length > 0 && (total > 0n || crit > 0n)) {
    bad(byPrio.keySpan, 'shutdownGracePeriodByPodPriority cannot be combined with shutdownGracePeriod', 'invalid configuration: Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time',
      'Set either the per-priority periods or shutdownGracePeriod and shutdownGracePeriodCriticalPods.');
  }
  if (on('KubeletCrashLoopBackOffMax')) {
    const v = fieldValue(node, 'crashLoopBackOff.maxContainerRestartPeriod');
    const n = nanos(v);
    // IsInRange on whole milliseconds: 999.9ms truncates to 999 and fails, 300.0009s to 300000 and passes.
    const ms = n === undefined ? undefined : n / MS;
    if (v && ms !== undefined && (ms < 1000n || ms > 300000n)) {
      bad(v.span, `crashLoopBackOff.maxContainerRestartPeriod is ${v.text}, but must be between 1s and 300s`,
        `invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: ${Number(n) / 1e9} seconds) must be set between 1s and 300s`);
    }
  }
  if (on('KubeletEnsureSecretPulledImages')) {
    const allow = configEntry(node, 'preloadedImagesVerificationAllowlist');
    const policy = fieldValue(node, 'imagePullCredentialsVerificationPolicy');
    // defaults.go: with the gate on, an unset policy is NeverVerifyPreloadedImages.
    const effective = policy && typeof policy.value === 'string' && policy.value !== '' ? policy.value : 'NeverVerifyPreloadedImages';
    if (allow?.value.kind === 'seq' && effective === 'NeverVerifyAllowlistedImages') {
      for (const item of allow.value.items) {
        if (item.kind !== 'scalar' || typeof item.value !== 'string') continue;
        const problem = allowlistPatternProblem(item.value);
        if (problem) bad(item.span, `The allowlist pattern "${item.value}" ${problem}`, `invalid configuration: invalid image pattern in \`preloadedImagesVerificationAllowlist\`: ${item.value}`);
      }
    }
    if (allow?.value.kind === 'seq' && allow.value.items.length > 0 && effective !== 'NeverVerifyAllowlistedImages') {
      bad(allow.keySpan, 'preloadedImagesVerificationAllowlist needs imagePullCredentialsVerificationPolicy NeverVerifyAllowlistedImages',
        'invalid configuration: can\'t set `preloadedImagesVerificationAllowlist` if `imagePullCredentialsVertificationPolicy` is not "NeverVerifyAllowlistedImages"', `The policy in effect is ${effective}.`);
    }
  }
}

/**
 * pkg/kubelet/images/pullmanager getAllowlistImagePattern, the parts that need no image-reference parser: no
 * blanks around it, and `*` only as a last path segment `/*` after at least a registry host.
 */
export function allowlistPatternProblem(pattern: string): string | undefined {
  if (pattern !== pattern.trim()) return 'has leading or trailing blanks';
  const wildcard = pattern.endsWith('/*');
  const stem = wildcard ? pattern.slice(0, -1) : pattern;
  if (stem === '') return 'is empty';
  if (stem.includes('*')) return 'uses "*" other than as a last "/*" segment';
  if (wildcard && stem.length === 1) return 'needs at least a registry host before "/*"';
  return undefined;
}

/** validation.go isValidSysctlName: dot- or slash-separated segments of [a-z0-9_-], at most 253 characters. */
const SYSCTL_NAME = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;

/** k8s.io/component-helpers/node/util/sysctl NormalizeName: a name whose first separator is `/` has `.` and `/` swapped. */
export function normalizeSysctl(name: string): string {
  const i = name.search(/[./]/);
  if (i === -1 || name[i] === '.') return name;
  return name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'));
}

/** k8s.io/component-helpers/node/util/sysctl namespace.go: the sysctls the kernel namespaces (IPC or network), by the normalized name. */
export function sysctlNamespaced(name: string): boolean {
  const n = normalizeSysctl(name);
  if (['kernel.sem', 'kernel.shmall', 'kernel.shmmax', 'kernel.shmmni', 'kernel.shm_rmid_forced', 'kernel.shm', 'kernel.msgmax', 'kernel.msgmnb', 'kernel.msgmni', 'kernel.msg'].includes(n)) return true;
  return n.startsWith('net.') || n.startsWith('fs.mqueue.');
}

/**
 * validation.go from 1.37 (45b76a348437ceb54ca5e067ee6b097319e163a4), with the DefaultPodSysctls gate on: each key of
 * defaultPodSysctls must be a valid sysctl name, known to be namespaced, and not a duplicate of an earlier key once
 * `/` separators are normalized to `.`.
 */
function checkDefaultPodSysctls(node: NodeModel, bad: Bad): void {
  const seen = new Set<string>();
  for (const item of mapItems(node, 'defaultPodSysctls')) {
    if (item.key === undefined || !item.keySpan || item.keyTemplate) continue;
    const k = item.key;
    if (k.length > 253 || !SYSCTL_NAME.test(k)) {
      bad(item.keySpan, `"${k}" is not a valid sysctl name`, `invalid configuration: "${k}" is not a valid sysctl name for defaultPodSysctls`,
        'Names are dot- or slash-separated lower-case segments of letters, digits, "-" and "_".');
      continue;
    }
    if (!sysctlNamespaced(k)) {
      bad(item.keySpan, `${k} is not a namespaced sysctl, so it cannot be set per pod`, `invalid configuration: "${k}" is not known to be namespaced for defaultPodSysctls`,
        'Only kernel.sem, kernel.shm*, kernel.msg*, fs.mqueue.* and net.* are namespaced.');
    }
    const norm = normalizeSysctl(k);
    if (seen.has(norm)) bad(item.keySpan, `${k} names the same sysctl as an earlier key`, `invalid configuration: duplicate sysctl "${norm}" found in defaultPodSysctls`);
    seen.add(norm);
  }
}
