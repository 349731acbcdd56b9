/**
 * Duration checks of validation.go that hold whatever the feature gates:
 * imageMinimumGCAge (from 1.36) and imageMaximumGCAge not negative, the maximum above the
 * minimum (after defaulting: a zero minimum in the file becomes 2m), and
 * containerLogMonitorInterval at least 3s (1.30+; a pointer, so a written 0s
 * stays 0 and fails).
 */
import { compareVersions } from '../../../catalog/flags.ts';
import { fieldValue } from '../../../node/config-value.ts';
import type { NodeModel } from '../../../node/model.ts';
import { label, nanos, SECOND, type Bad } from './common.ts';

const TWO_MINUTES = 120n * SECOND;

export function checkDurations(node: NodeModel, bad: Bad): void {
  const minV = fieldValue(node, 'imageMinimumGCAge');
  const maxV = fieldValue(node, 'imageMaximumGCAge');
  const min = nanos(minV);
  const max = nanos(maxV);
  // The negative-minimum check arrived in 1.36 (upstream 92129d36; validation.go 0ea83df1 of an earlier release has none).
  if (minV && min !== undefined && min < 0n && compareVersions(node.kubernetesVersion, '1.36') >= 0) bad(minV.span, `${label('imageMinimumGCAge', minV)} is ${minV.text}, but cannot be negative`, `invalid configuration: imageMinimumGCAge ${minV.text} must not be negative`);
  if (maxV && max !== undefined && max < 0n) bad(maxV.span, `${label('imageMaximumGCAge', maxV)} is ${maxV.text}, but cannot be negative`, `invalid configuration: imageMaximumGCAge ${maxV.text} must not be negative`);
  // defaults.go: a zero (or unset) minimum age is 2m by the time validation runs.
  const effMin = min === undefined || (min === 0n && minV?.how !== 'flag') ? TWO_MINUTES : min;
  if (maxV && max !== undefined && max > 0n && max <= effMin) {
    const minText = minV && min !== undefined && effMin === min ? minV.text : '2m (the default)';
    const minGo = minV && min !== undefined && effMin === min ? minV.text : '2m0s';
    bad(maxV.span, `${label('imageMaximumGCAge', maxV)} ${maxV.text} must be longer than imageMinimumGCAge ${minText}`, `invalid configuration: imageMaximumGCAge ${maxV.text} must be greater than imageMinimumGCAge ${minGo}`);
  }
  const mon = fieldValue(node, 'containerLogMonitorInterval');
  const m = nanos(mon);
  if (mon && m !== undefined && m < 3n * SECOND) {
    bad(mon.span, `${label('containerLogMonitorInterval', mon)} is ${mon.text}, but must be at least 3s`, 'invalid configuration: containerLogMonitorInterval must be a positive time duration greater than or equal to 3s');
  }
}
