/**
 * validation.go on registerWithTaints: every taint must pass
 * pkg/util/taints CheckTaintValidation (key a qualified name, value a label
 * value, effect NoSchedule/PreferNoSchedule/NoExecute) - the kubelet says
 * `invalid taint: ...` - and must not carry timeAdded
 * (`invalid configuration: taint.TimeAdded is not nil`).
 */
import type { NodeModel } from '../../../node/model.ts';
import { child, configEntry, type Bad } from './common.ts';

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** apimachinery validation.IsQualifiedName: [prefix/]name, name <= 63 chars, prefix a DNS subdomain <= 253. */
export function qualifiedNameProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return 'has more than one "/"';
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix === '') return 'has an empty prefix before "/"';
    if (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)) return `has a prefix "${prefix}" that is not a lowercase DNS subdomain`;
  }
  if (name === '') return 'is empty';
  if (name.length > 63) return 'is longer than 63 characters';
  if (!NAME.test(name)) return 'must start and end with a letter or digit and hold only letters, digits, "-", "_" and "."';
  return undefined;
}

/** validation.IsValidLabelValue: empty, or <= 63 chars of the name alphabet. */
export function labelValueProblem(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > 63) return 'is longer than 63 characters';
  if (!NAME.test(value)) return 'must start and end with a letter or digit and hold only letters, digits, "-", "_" and "."';
  return undefined;
}

export function checkTaints(node: NodeModel, bad: Bad): void {
  const list = configEntry(node, 'registerWithTaints');
  if (list?.value.kind !== 'seq') return;
  for (const t of list.value.items) {
    if (t.kind !== 'map') continue;
    const key = child(t, 'key');
    const keyText = key?.value.kind === 'scalar' && key.value.value !== null ? String(key.value.value) : '';
    const keyProblem = qualifiedNameProblem(keyText);
    if (keyProblem) {
      bad(key?.value.span ?? t.span, key ? `The taint key "${keyText}" is not a qualified name` : 'A taint in registerWithTaints has no key', `invalid taint: {${keyText} ...}`, key ? `It ${keyProblem}.` : undefined);
    }
    const value = child(t, 'value');
    if (value?.value.kind === 'scalar' && value.value.value !== null) {
      const p = labelValueProblem(String(value.value.value));
      if (p) bad(value.value.span, `The taint value "${value.value.value}" is not a label value`, `invalid taint: {${keyText} ${value.value.value} ...}`, `It ${p}.`);
    }
    const effect = child(t, 'effect');
    if (effect?.value.kind === 'scalar' && typeof effect.value.value === 'string' && effect.value.value !== '' && !EFFECTS.includes(effect.value.value)) {
      bad(effect.value.span, `The taint effect "${effect.value.value}" is not one of ${EFFECTS.join(', ')}`, `invalid taint: {${keyText} ... ${effect.value.value}}`);
    }
    const added = child(t, 'timeAdded');
    if (added && !(added.value.kind === 'scalar' && added.value.value === null)) {
      bad(added.keySpan, 'registerWithTaints may not set timeAdded (the API server stamps that time)', 'invalid configuration: taint.TimeAdded is not nil');
    }
  }
}
