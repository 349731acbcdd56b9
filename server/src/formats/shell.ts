/**
 * A shell script (`#!` sh/bash, or a `.sh` file) that writes kubelet files: a carrier of the files its
 * here-documents write and of the kubelet flags it hands to EKS's bootstrap.sh (embed/shell.ts). Only literal text
 * is read; what the shell computes when the script runs is named as not checked.
 */
import { LineIndex } from '../model/range.ts';
import { scanShell } from '../embed/shell.ts';
import { defineFormat } from './types.ts';

const SHEBANG = /^\uFEFF?#![ \t]*\/\S*\/(?:env[ \t]+)?(?:ba|da|z|k)?sh\b/;
const KUBELET_WORDS = /kubelet|\/etc\/eks\/bootstrap\.sh/i;

export default defineFormat({
  kind: 'shell',
  rank: 270,
  label: 'shell script',
  // Only a script that mentions the kubelet: others hold nothing kubelet-lint reads.
  byContent: (c) => (SHEBANG.test(c.head) || c.ext === 'sh' || c.ext === 'bash') && KUBELET_WORDS.test(c.head),
  parse(path, text) {
    const lines = new LineIndex(text);
    const offsets = Int32Array.from({ length: text.length + 1 }, (_, i) => i);
    const embedded = scanShell({ text, offsets, encode: (t) => t }, lines, (a, b) => lines.range(a, b));
    return { embedded, problems: [] };
  },
  comments: () => 'line',
  join: { kind: 'carrier' },
  watch: ['**/*.sh'],
  selector: ['**/*.sh'],
  activation: [],
});
