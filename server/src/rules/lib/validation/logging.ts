/**
 * k8s.io/component-base/logs/api/v1 Validate (called by validation.go for `logging`):
 * vmodule only with the text format, and every vmodule entry needs a file pattern
 * without "=" or ",". (The format itself is an enum of the catalog; the alpha
 * options are config-needs-feature-gate's.)
 */
import type { NodeModel } from '../../../node/model.ts';
import { child, configEntry, type Bad } from './common.ts';

export function checkVModule(node: NodeModel, bad: Bad): void {
  const logging = configEntry(node, 'logging');
  const vmodule = child(logging?.value, 'vmodule');
  if (vmodule?.value.kind !== 'seq' || vmodule.value.items.length === 0) return;
  const format = child(logging?.value, 'format');
  const fmt = format?.value.kind === 'scalar' && format.value.value !== null ? String(format.value.value) : '';
  if (fmt !== '' && fmt !== 'text') {
    bad(vmodule.keySpan, `logging.vmodule works with the text format only, not "${fmt}"`, 'logging.vmodule: Forbidden: Only supported for text log format');
  }
  vmodule.value.items.forEach((item, i) => {
    const pattern = child(item, 'filePattern');
    const text = pattern?.value.kind === 'scalar' && pattern.value.value !== null ? String(pattern.value.value) : '';
    if (text === '') bad(pattern?.value.span ?? item.span, 'A logging.vmodule entry has no filePattern', `logging.vmodule[${i}]: Required value: File pattern must not be empty`);
    else if (/[=,]/.test(text)) bad(pattern!.value.span, `The logging.vmodule filePattern "${text}" may not contain "=" or ","`, `logging.vmodule[${i}]: Invalid value: "${text}": File pattern must not contain equal sign or comma`);
  });
}
