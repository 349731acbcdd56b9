/**
 * validation.go ValidateKubeletConfiguration refuses a setting whose feature
 * gate is off in the kubelet that reads it: the gate set is the target
 * version's defaults (pkg/features/kube_features.go) with `featureGates` and
 * `--feature-gates` applied (node/gates.ts). Each entry below is one branch of
 * validation.go, with the kubelet's error text.
 */
import { finding, type Finding } from '../model/finding.ts';
import { fieldValue, type FieldValue } from '../node/config-value.ts';
import { gateState } from '../node/gates.ts';
import { describeGate } from './lib/feature-gates.ts';
import type { NodeModel } from '../node/model.ts';
import { parseGoBool } from '../node/read.ts';
import { isZero, parseQuantity } from '../quantity/quantity.ts';
import type { Span } from '../model/range.ts';
import { configEntry, MS, nanos } from './lib/validation/common.ts';
import type { Rule } from './types.ts';

interface Need {
  gate: string;
  /** The offending setting's place and value text, or undefined when the setting does not need the gate. */
  find(node: NodeModel): { span: Span; what: string; text?: string } | undefined;
  /** The kubelet's error text; `{}` stands for the value as the kubelet prints it. */
  kubelet: string;
}

const isTrue = (v: FieldValue | undefined): boolean => v?.value === true || (typeof v?.value === 'string' && parseGoBool(v.value) === true);
const at = (v: FieldValue | undefined, what: string) => (v ? { span: v.span, what } : undefined);
const durationSet = (node: NodeModel, path: string) => {
  const v = fieldValue(node, path);
  const n = nanos(v);
  return n !== undefined && n > 0n ? v : undefined;
};
/** A top-level list of the file with at least one item (these fields have no flag). */
const listSet = (node: NodeModel, key: string) => {
  const e = configEntry(node, key);
  return e?.value.kind === 'seq' && e.value.items.length > 0 ? { span: e.keySpan, what: key } : undefined;
};
const nonEmpty = (node: NodeModel, path: string) => {
  const v = fieldValue(node, path);
  return v && typeof v.value === 'string' && v.value !== '' ? v : undefined;
};

const NEEDS: Need[] = [
  {
    gate: 'CustomCPUCFSQuotaPeriod',
    find(node) {
      const v = fieldValue(node, 'cpuCFSQuotaPeriod');
      const n = nanos(v);
      return n !== undefined && n !== 100n * MS ? { span: v!.span, what: `cpuCFSQuotaPeriod ${v!.text} (not 100ms)`, text: `{${v!.text}}` } : undefined;
    },
    kubelet: 'invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) {} requires feature gate CustomCPUCFSQuotaPeriod',
  },
  {
    gate: 'ImageMaximumGCAge',
    find: (node) => { const v = durationSet(node, 'imageMaximumGCAge'); return at(v, `imageMaximumGCAge ${v?.text}`); },
    kubelet: 'invalid configuration: ImageMaximumGCAge feature gate is required for Kubelet configuration option imageMaximumGCAge',
  },
  {
    gate: 'RotateKubeletServerCertificate',
    find: (node) => { const v = fieldValue(node, 'serverTLSBootstrap'); return isTrue(v) ? at(v, 'serverTLSBootstrap: true') : undefined; },
    kubelet: 'invalid configuration: serverTLSBootstrap true requires feature gate RotateKubeletServerCertificate',
  },
  ...['shutdownGracePeriod', 'shutdownGracePeriodCriticalPods'].map((path): Need => ({
    gate: 'GracefulNodeShutdown',
    find: (node) => { const v = durationSet(node, path); return at(v, `${path} ${v?.text}`); },
    kubelet: 'invalid configuration: specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown',
  })),
  {
    gate: 'GracefulNodeShutdownBasedOnPodPriority',
    find: (node) => listSet(node, 'shutdownGracePeriodByPodPriority'),
    kubelet: 'invalid configuration: Specifying shutdownGracePeriodByPodPriority requires feature gate GracefulNodeShutdownBasedOnPodPriority',
  },
  {
    gate: 'NodeSwap',
    find: (node) => { const v = nonEmpty(node, 'memorySwap.swapBehavior'); return at(v, `memorySwap.swapBehavior ${v?.text}`); },
    kubelet: 'invalid configuration: memorySwap.swapBehavior cannot be set when NodeSwap feature flag is disabled',
  },
  {
    gate: 'KubeletCrashLoopBackOffMax',
    find: (node) => { const v = fieldValue(node, 'crashLoopBackOff.maxContainerRestartPeriod'); return at(v, `crashLoopBackOff.maxContainerRestartPeriod ${v?.text}`); },
    kubelet: 'invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set',
  },
  {
    gate: 'KubeletEnsureSecretPulledImages',
    find: (node) => { const v = nonEmpty(node, 'imagePullCredentialsVerificationPolicy'); return at(v, 'imagePullCredentialsVerificationPolicy'); },
    kubelet: 'invalid configuration: `imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled',
  },
  {
    gate: 'KubeletEnsureSecretPulledImages',
    find: (node) => listSet(node, 'preloadedImagesVerificationAllowlist'),
    kubelet: 'invalid configuration: `preloadedImagesVerificationAllowlist` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled',
  },
  {
    gate: 'NodeLogQuery',
    find: (node) => { const v = fieldValue(node, 'enableSystemLogQuery'); return isTrue(v) ? at(v, 'enableSystemLogQuery: true') : undefined; },
    kubelet: 'invalid configuration: NodeLogQuery feature gate is required for enableSystemLogQuery',
  },
  {
    // validation.go from 1.37 (45b76a348437ceb54ca5e067ee6b097319e163a4).
    gate: 'DefaultPodSysctls',
    find(node) {
      const e = configEntry(node, 'defaultPodSysctls');
      return e?.value.kind === 'map' && e.value.entries.length > 0 ? { span: e.keySpan, what: 'defaultPodSysctls' } : undefined;
    },
    kubelet: 'invalid configuration: DefaultPodSysctls feature gate is required for Kubelet configuration option defaultPodSysctls',
  },
  {
    gate: 'MemoryQoS',
    find: (node) => { const v = fieldValue(node, 'memoryReservationPolicy'); return v?.value === 'TieredReservation' ? at(v, 'memoryReservationPolicy TieredReservation') : undefined; },
    kubelet: 'invalid configuration: memoryReservationPolicy "TieredReservation" requires MemoryQoS feature gate to be enabled',
  },
  // k8s.io/component-base/logs/api/v1 validateTextOptions / validateJSONOptions, called through logsapi.Validate.
  ...['text', 'json'].flatMap((fmt): Need[] => [
    {
      gate: 'LoggingAlphaOptions',
      find: (node) => { const v = fieldValue(node, `logging.options.${fmt}.splitStream`); return isTrue(v) ? at(v, `logging.options.${fmt}.splitStream: true`) : undefined; },
      kubelet: `logging.options.${fmt}.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled`,
    },
    {
      gate: 'LoggingAlphaOptions',
      find(node) {
        const v = fieldValue(node, `logging.options.${fmt}.infoBufferSize`);
        const q = v && v.value !== null ? parseQuantity(String(v.value)) : undefined;
        return q?.ok && !isZero(q.q) ? at(v, `logging.options.${fmt}.infoBufferSize ${v!.text}`) : undefined;
      },
      kubelet: `logging.options.${fmt}.infoBufferSize: Forbidden: Feature LoggingAlphaOptions is disabled`,
    },
  ]),
  {
    gate: 'KubeletTracing',
    find(node) {
      const e = configEntry(node, 'tracing');
      return e && !(e.value.kind === 'scalar' && e.value.value === null) ? { span: e.keySpan, what: 'a tracing block' } : undefined;
    },
    kubelet: 'invalid configuration: tracing should not be configured if KubeletTracing feature flag is disabled.',
  },
];

export const configNeedsFeatureGate: Rule = {
  id: 'config-needs-feature-gate',
  summary: 'a setting needs a feature gate that is off in the target version',
  severity: 'error',
  fix: false,
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    for (const need of NEEDS) {
      const hit = need.find(node);
      if (!hit) continue;
      const g = gateState(node, need.gate);
      // A gate this version does not know: the field is newer too (config-field-unavailable / feature-gate-unknown say so).
      // A gate locked the other way stops the kubelet at its own entry (feature-gate-locked), never here.
      if (g.enabled || g.unknown || g.lockedAgainst) continue;
      out.push(
        finding(
          'config-needs-feature-gate',
          'error',
          hit.span,
          `${hit.what} needs the ${need.gate} feature gate, which is off. The kubelet refuses to start. ` +
            `${describeGate(node, g)}. It reports: "${need.kubelet.replace('{}', hit.text ?? '')}". ` +
            `Remove the setting or set featureGates ${need.gate}: true.`,
          g.item?.keySpan ? { related: [{ span: g.item.keySpan, message: `${need.gate} is turned off here` }] } : undefined,
        ),
      );
    }
    return out;
  },
};
