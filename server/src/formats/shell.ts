/**
 * A shell script (`#!` sh/bash, or a `.sh` file) that writes kubelet files: a carrier of the files its
 * here-documents write and of the kubelet flags it hands to EKS's bootstrap.sh (embed/shell.ts). Only literal text
 * is read; what the shell computes when the script runs is named as not checked.
 */
import { LineIndex } from '../model/range.ts';
import { scanShell } from '../embed/shell.ts';
import { VERBATIM } from '../embed/payload.ts';
import { defineFormat } from './types.ts';

const SHEBANG = /^\uFEFF?#![ \t]*\/\S*\/(?:env[ \t]+)?(?:ba|da|z|k)?sh\b/;
const KUBELET_WORDS = /kubelet|\/etc\/eks\/bootstrap\.sh/i;

/**
 * A snippet without `#!` whose first command writes a file with a here-document (`cat > kubelet.service <<EOF`):
 * a script, whatever its name says (a `kubelet.service` that holds the commands writing it, seventh first-sight batch).
 */
const HEREDOC_FIRST = /^(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*(?:sudo[ \t]+)?(?:cat|tee)\b[^\n]*<<-?[ \t]*['"]?[A-Za-z_]\w*/;

export function heredocScript(head: string): boolean {
  return HEREDOC_FIRST.test(head.slice(0, 2048));
}

/**
 * The text after the template directive lines it starts with (`%{ if enable_bootstrap_user_data ~}`, `{% if x %}`):
 * a Terraform or Jinja template of a script whose `#!` line the rendered file starts with (terraform-aws-modules/eks
 * templates/al2_user_data.tpl). At most 8 lines are looked through.
 */
function afterDirectives(head: string): string {
  let at = head.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let n = 0; n < 8; n++) {
    const m = DIRECTIVE_LINE.exec(head.slice(at, at + 512));
    if (!m) break;
    at += m[0].length;
  }
  return head.slice(at, at + 512);
}
const DIRECTIVE_LINE = /^[ \t]*(?:%\{[^}\n]*\}|\{%[^%\n]*%\})[ \t]*\r?\n/;

export default defineFormat({
  kind: 'shell',
  rank: 270,
  label: 'shell script',
  readsScripts: true,
  // Only a script that mentions the kubelet: others hold nothing kubelet-lint reads.
  byContent: (c) => (SHEBANG.test(c.head) || SHEBANG.test(afterDirectives(c.head)) || c.ext === 'sh' || c.ext === 'bash' || heredocScript(c.head)) && KUBELET_WORDS.test(c.head),
  parse(path, text) {
    const lines = new LineIndex(text);
    const offsets = Int32Array.from({ length: text.length + 1 }, (_, i) => i);
    const embedded = scanShell({ text, offsets, encode: VERBATIM }, lines, (a, b) => lines.range(a, b));
    return { embedded, problems: [] };
  },
  comments: () => 'line',
  join: { kind: 'carrier' },
  watch: ['**/*.sh'],
  selector: ['**/*.sh'],
  activation: [],
});
