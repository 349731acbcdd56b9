/**
 * pkg/kubelet/apis/config/validation/validation.go ValidateKubeletConfiguration
 * (and the managers that read these fields at startup): values outside their
 * range or enum make the kubelet exit with "invalid configuration".
 */
import { finding, type Finding } from '../model/finding.ts';
import { FIELDS } from '../catalog/fields.ts';
import { once, tableOf } from '../catalog/lazy.ts';
import { fieldValue, type FieldValue } from '../node/config-value.ts';
import type { NodeModel } from '../node/model.ts';
import { boolSetting } from '../node/read.ts';
import { closest } from './lib/suggest.ts';
import type { Rule } from './types.ts';
import { oneFix, replaceWord } from './lib/edit.ts';

/** Enum fields judged elsewhere or not validated at startup. */
const ENUM_ELSEWHERE = new Set(['apiVersion', 'kind', 'cgroupDriver', 'enforceNodeAllocatable', 'contentType', 'registerWithTaints[].effect']);

/**
 * The enum fields this rule judges, picked from the catalog once: walking FIELDS (a lazy table behind a Proxy)
 * for every node was a fifth of re-analysing a workspace of a hundred nodes.
 */
const ENUM_FIELDS = once(() => tableOf(FIELDS).filter((f) => f.enumValues && !ENUM_ELSEWHERE.has(f.path)));

const RANGES: { path: string; min?: number; max?: number; zeroOk?: boolean; what: string }[] = [
  { path: 'port', min: 1, max: 65535, what: 'a port number from 1 to 65535' },
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
];

function num(v: FieldValue): number | undefined {
  const n = typeof v.value === 'number' ? v.value : typeof v.value === 'string' && v.value.trim() !== '' ? Number(v.value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

function label(path: string, v: FieldValue): string {
  return v.how === 'flag' ? `${path} (set by a flag)` : path;
}

export const configValueInvalid: Rule = {
  id: 'config-value-invalid',
  summary: 'a KubeletConfiguration value is outside what the kubelet accepts',
  severity: 'error',
  fix: true,
  fixDoes: 'replaces an enum near-miss with the value it resembles (e.g. `best-efort` → `best-effort`)',
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    const bad = (v: FieldValue, message: string, fix?: string) =>
      out.push(
        finding('config-value-invalid', 'error', v.span, `${message}; the kubelet rejects the configuration and does not start.`,
          fix ? oneFix(`Change to "${fix}"`, replaceWord(v.span, v.text, fix)) : undefined),
      );
    for (const f of ENUM_FIELDS()) {
      const values = f.enumValues!;
      const v = fieldValue(node, f.path);
      if (!v || typeof v.value !== 'string' || values.includes(v.value)) continue;
      const guess = closest(v.value, values.filter(Boolean), 4);
      bad(v, `${label(f.path, v)} "${v.value}" is not one of ${values.map((x) => (x === '' ? '""' : x)).join(', ')}${guess ? ` (did you mean "${guess}"?)` : ''}`, guess);
    }
    for (const r of RANGES) {
      const v = fieldValue(node, r.path);
      if (!v) continue;
      const n = num(v);
      if (n === undefined) continue; // wrong type: config-field-type / flag-value-invalid
      if ((r.min !== undefined && n < r.min) || (r.max !== undefined && n > r.max)) bad(v, `${label(r.path, v)} is ${v.text}, but must be ${r.what}`);
    }
    crossChecks(node, bad);
    return out;
  },
};

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
  if (par && p !== undefined && p > 1 && boolSetting(node, 'serializeImagePulls', true)) {
    bad(par, `maxParallelImagePulls ${p} needs serializeImagePulls: false (images are pulled one at a time otherwise)`);
  }
  const sys = fieldValue(node, 'systemCgroups');
  if (sys && sys.value && !fieldValue(node, 'cgroupRoot')?.value) bad(sys, 'systemCgroups needs cgroupRoot to be set too');
}
