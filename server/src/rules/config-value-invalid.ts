/**
 * pkg/kubelet/apis/config/validation/validation.go ValidateKubeletConfiguration
 * (and the managers that read these fields at startup): values outside their
 * range or enum make the kubelet exit with "invalid configuration".
 * Topic checks live in rules/lib/validation/ (durations, paths, taints, tracing,
 * gate-dependent ranges); settings that need a gate that is off are
 * config-needs-feature-gate's.
 */
import { finding, type Finding } from '../model/finding.ts';
import { FIELDS } from '../catalog/fields.ts';
import { once, tableOf } from '../catalog/lazy.ts';
import { fieldValue, type FieldValue } from '../node/config-value.ts';
import type { NodeModel } from '../node/model.ts';
import { boolSetting } from '../node/read.ts';
import { closest } from '../catalog/suggest.ts';
import type { Rule } from './types.ts';
import { oneFix, replaceWord } from './lib/edit.ts';
import { gateState } from '../node/gates.ts';
import type { Span } from '../model/range.ts';
import { label, num, type Bad } from './lib/validation/common.ts';
import { checkDurations } from './lib/validation/durations.ts';
import { checkGated } from './lib/validation/gated.ts';
import { checkPodLogsDir } from './lib/validation/paths.ts';
import { checkTaints } from './lib/validation/taints.ts';
import { checkTracing } from './lib/validation/tracing.ts';
import { checkVModule } from './lib/validation/logging.ts';
import { compareVersions } from '../catalog/flags.ts';

/** Enum fields judged elsewhere or not validated at startup. */
const ENUM_ELSEWHERE = new Set(['apiVersion', 'kind', 'cgroupDriver', 'enforceNodeAllocatable', 'contentType', 'registerWithTaints[].effect']);

/**
 * The enum fields this rule judges, picked from the catalog once: walking FIELDS (a lazy table behind a Proxy)
 * for every node was a fifth of re-analysing a workspace of a hundred nodes.
 */
const ENUM_FIELDS = once(() => tableOf(FIELDS).filter((f) => f.enumValues && !ENUM_ELSEWHERE.has(f.path)));

/**
 * Enums whose accepted values changed between releases: the values before `until`. KEP-2400 (node swap):
 * UnlimitedSwap was accepted through 1.29; 1.30 removed it and added NoSwap (validation.go switch on
 * kubetypes.NoSwap / kubetypes.LimitedSwap).
 */
const ENUM_BEFORE: Record<string, { until: string; values: string[] }[]> = {
  'memorySwap.swapBehavior': [{ until: '1.30', values: ['', 'LimitedSwap', 'UnlimitedSwap'] }],
};

function enumValuesAt(path: string, version: string): string[] | undefined {
  return ENUM_BEFORE[path]?.find((e) => compareVersions(version, e.until) < 0)?.values;
}

/** Enums validation.go checks only while their gate is on (off: config-needs-feature-gate refuses any value). */
const ENUM_GATE: Record<string, string> = {
  'memorySwap.swapBehavior': 'NodeSwap',
  imagePullCredentialsVerificationPolicy: 'KubeletEnsureSecretPulledImages',
};

/**
 * `fileZeroDefault`: v1beta1 defaults.go replaces a 0 read from the file by the default before validation
 * (a flag set to 0 keeps it). `above`: the minimum itself is refused. `kubelet`: the kubelet's words.
 */
const RANGES: { path: string; min?: number; max?: number; above?: boolean; fileZeroDefault?: boolean; what: string; kubelet?: string }[] = [
  { path: 'port', min: 1, max: 65535, fileZeroDefault: true, what: 'a port number from 1 to 65535' },
  { path: 'readOnlyPort', min: 0, max: 65535, what: 'a port number from 0 (off) to 65535' },
  { path: 'healthzPort', min: 0, max: 65535, what: 'a port number from 0 (off) to 65535' },
  { path: 'maxPods', min: 0, what: 'zero or more' },
  { path: 'podsPerCore', min: 0, what: 'zero or more' },
  { path: 'imageGCHighThresholdPercent', min: 0, max: 100, what: 'a percentage from 0 to 100' },
  { path: 'imageGCLowThresholdPercent', min: 0, max: 100, what: 'a percentage from 0 to 100' },
  { path: 'oomScoreAdj', min: -1000, max: 1000, what: 'between -1000 and 1000' },
  { path: 'registryPullQPS', min: 0, what: 'zero or more' },
  { path: 'registryBurst', min: 0, what: 'zero or more' },
  { path: 'eventRecordQPS', min: 0, what: 'zero or more' },
  { path: 'eventBurst', min: 0, what: 'zero or more' },
  { path: 'kubeAPIQPS', min: 0, what: 'zero or more' },
  { path: 'kubeAPIBurst', min: 0, what: 'zero or more' },
  { path: 'containerLogMaxFiles', min: 2, what: 'at least 2' },
  { path: 'containerLogMaxWorkers', min: 1, what: 'at least 1' },
  { path: 'maxParallelImagePulls', min: 1, what: 'at least 1' },
  { path: 'nodeStatusMaxImages', min: -1, what: '-1 (no limit) or more' },
  { path: 'nodeLeaseDurationSeconds', min: 1, fileZeroDefault: true, what: 'greater than 0', kubelet: 'nodeLeaseDurationSeconds must be greater than 0' },
  { path: 'iptablesDropBit', min: 0, max: 31, what: 'a bit number from 0 to 31', kubelet: 'iptablesDropBit (--iptables-drop-bit) must be between 0 and 31, inclusive' },
  { path: 'iptablesMasqueradeBit', min: 0, max: 31, what: 'a bit number from 0 to 31', kubelet: 'iptablesMasqueradeBit (--iptables-masquerade-bit) must be between 0 and 31, inclusive' },
  { path: 'maxOpenFiles', min: 0, what: 'zero or more', kubelet: 'maxOpenFiles (--max-open-files) must not be a negative number' },
  { path: 'memoryThrottlingFactor', min: 0, above: true, max: 1, what: 'greater than 0 and at most 1.0', kubelet: 'memoryThrottlingFactor must be greater than 0 and less than or equal to 1.0' },
];

export const configValueInvalid: Rule = {
  id: 'config-value-invalid',
  summary: 'a KubeletConfiguration value is outside what the kubelet accepts',
  severity: 'error',
  fix: true,
  fixDoes: 'replaces an enum near-miss with the value it resembles (e.g. `best-efort` → `best-effort`)',
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    // message: the point (it goes first, before "the kubelet rejects ..."), then optional detail.
    const bad = (v: FieldValue, message: string, fix?: string, detail?: string) =>
      out.push(
        finding('config-value-invalid', 'error', v.span, `${message}. The kubelet rejects the configuration and does not start.${detail ? ` ${detail}` : ''}`,
          fix ? oneFix(`Change to "${fix}"`, replaceWord(v.span, v.text, fix)) : undefined),
      );
    // One sentence in our words, then the kubelet's own error text.
    const refused: Bad = (span: Span, point: string, kubelet: string, detail?: string) =>
      out.push(finding('config-value-invalid', 'error', span, `${point}. ${detail ? `${detail} ` : ''}The kubelet does not start; it reports: "${kubelet}".`));
    for (const f of ENUM_FIELDS()) {
      const v = fieldValue(node, f.path);
      if (!v || typeof v.value !== 'string') continue;
      const values = enumValuesAt(f.path, node.kubernetesVersion) ?? f.enumValues!;
      if (values.includes(v.value)) continue;
      const gate = ENUM_GATE[f.path];
      if (gate && !gateState(node, gate).enabled) continue;
      const guess = closest(v.value, values.filter(Boolean), 4);
      bad(v, `${label(f.path, v)} "${v.value}" is not a valid value${guess ? ` (did you mean "${guess}"?)` : ''}`, guess,
        `Allowed: ${values.map((x) => (x === '' ? '""' : x)).join(', ')}.`);
    }
    for (const r of RANGES) {
      const v = fieldValue(node, r.path);
      if (!v) continue;
      const n = num(v);
      if (n === undefined) continue; // wrong type: config-field-type / flag-value-invalid
      if (r.fileZeroDefault && n === 0 && v.how !== 'flag') continue;
      const low = r.min !== undefined && (r.above ? n <= r.min : n < r.min);
      if (low || (r.max !== undefined && n > r.max)) {
        const point = `${label(r.path, v)} is ${v.text}, but must be ${r.what}`;
        if (r.kubelet) refused(v.span, point, `invalid configuration: ${r.kubelet}`);
        else bad(v, point);
      }
    }
    crossChecks(node, bad);
    moreChecks(node, refused);
    checkDurations(node, refused);
    checkGated(node, refused);
    checkPodLogsDir(node, refused);
    checkTaints(node, refused);
    checkTracing(node, refused);
    return out;
  },
};

/** Single-field refusals of validation.go that are not a range or an enum. */
function moreChecks(node: NodeModel, refused: Bad): void {
  // PR #126336 (1.32): run-once mode was removed; the field stays but true is refused.
  const once = fieldValue(node, 'runOnce');
  if (once && compareVersions(node.kubernetesVersion, '1.32') >= 0 && (once.value === true || (typeof once.value === 'string' && boolText(once.value)))) {
    refused(once.span, `${label('runOnce', once)} is true, but run-once mode is gone since Kubernetes 1.32`, 'invalid configuration: runOnce (--runOnce) true, Runonce mode has been deprecated and should not be set');
  }
  const query = fieldValue(node, 'enableSystemLogQuery');
  if (query && (query.value === true || (typeof query.value === 'string' && boolText(query.value))) && !boolSetting(node, 'enableSystemLogHandler', true)) {
    refused(query.span, 'enableSystemLogQuery needs enableSystemLogHandler, which is turned off', 'invalid configuration: enableSystemLogHandler is required for enableSystemLogQuery');
  }
  // metrics.ValidateShowHiddenMetricsVersion: only the release before the kubelet's own is accepted.
  const hidden = fieldValue(node, 'showHiddenMetricsForVersion');
  const [major, minor] = node.kubernetesVersion.split('.').map(Number);
  const previous = `${major}.${minor - 1}`;
  if (hidden && typeof hidden.value !== 'boolean' && hidden.value !== null && String(hidden.value) !== '' && String(hidden.text) !== previous) {
    refused(hidden.span, `showHiddenMetricsForVersion ${hidden.text} is not ${previous}, the release before ${node.kubernetesVersion}`,
      `--show-hidden-metrics-for-version must be omitted or have the value '${previous}'. Only the previous minor version is allowed`);
  }
  checkVModule(node, refused);
  // An empty value in the file is defaulted; only an explicitly empty flag reaches validation empty.
  const cre = fieldValue(node, 'containerRuntimeEndpoint');
  if (cre && cre.how === 'flag' && cre.value === '') {
    refused(cre.span, '--container-runtime-endpoint is empty', 'invalid configuration: the containerRuntimeEndpoint was not specified or empty', 'The kubelet has no container runtime to talk to.');
  }
}

function boolText(s: string): boolean {
  return /^(1|t|T|TRUE|true|True)$/.test(s);
}

function crossChecks(node: NodeModel, bad: (v: FieldValue, message: string) => void): void {
  const high = fieldValue(node, 'imageGCHighThresholdPercent');
  const low = fieldValue(node, 'imageGCLowThresholdPercent');
  const h = high ? num(high) : 85;
  const l = low ? num(low) : 80;
  if (h !== undefined && l !== undefined && l >= h && (low || high)) {
    bad((low ?? high)!, `imageGCLowThresholdPercent (${l}) must be lower than imageGCHighThresholdPercent (${h})`);
  }
  const par = fieldValue(node, 'maxParallelImagePulls');
  const p = par ? num(par) : undefined;
  // defaults.go: an unset serializeImagePulls is false when maxParallelImagePulls is 2 or more, so only an explicit true conflicts.
  if (par && p !== undefined && p > 1 && boolSetting(node, 'serializeImagePulls', false)) {
    bad(par, `maxParallelImagePulls ${p} needs serializeImagePulls: false (images are pulled one at a time otherwise)`);
  }
  const sys = fieldValue(node, 'systemCgroups');
  if (sys && sys.value && !fieldValue(node, 'cgroupRoot')?.value) bad(sys, 'systemCgroups needs cgroupRoot to be set too');
}
