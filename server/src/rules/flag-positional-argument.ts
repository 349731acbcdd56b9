/**
 * cmd/kubelet/app/server.go: after parsing flags, any word left over stops
 * the kubelet with `unknown command "X"`. Typical causes: `--flag false`
 * for a bool flag (pflag only takes `--flag=false`), a stray word, or a
 * directive swallowed by a trailing `\` (unit-continuation-swallows-directive
 * reports those).
 * The check came in 1.11 (NewKubeletCommand: "check if there are non-flag arguments in the command line"; 1.10's
 * command and 1.9's main parse the flags and ignore what is left, read in k8s.io/kubernetes v1.9.0, v1.10.0 and
 * v1.11.0 from the Go module proxy). An older kubelet starts: a stray word does nothing, and `--flag false` leaves the
 * bool flag true, which is still not what it says.
 */
import { finding, type Finding } from '../model/finding.ts';
import { compareVersions, isBoolFlag } from '../catalog/flags.ts';
import type { Rule } from './types.ts';

const DIRECTIVE = /^[A-Z][A-Za-z0-9]*=/;

/** The first release whose kubelet refuses leftover words. */
const REFUSED_FROM = '1.11';

export const flagPositionalArgument: Rule = {
  id: 'flag-positional-argument',
  summary: 'a word on the kubelet command line that is not a flag or a flag value',
  severity: ['error', 'warning'],
  fix: true,
  fixDoes: 'for a bool flag followed by its value (`--flag false`), joins them as `--flag=false`',
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    const exec = node.service?.execStart;
    const firstLine = exec?.keySpan.range.start.line;
    const refuses = compareVersions(node.kubernetesVersion, REFUSED_FROM) >= 0;
    for (let i = 0; i < node.positional.length; i++) {
      const { word } = node.positional[i];
      const swallowed =
        !word.via && exec && word.span.file === exec.span.file && word.span.range.start.line !== firstLine && DIRECTIVE.test(word.text);
      if (swallowed) continue;
      const idx = node.argv.indexOf(word);
      const prev = idx > 0 ? node.argv[idx - 1] : undefined;
      const prevName = prev?.text.startsWith('--') && !prev.text.includes('=') ? prev.text.slice(2).replaceAll('_', '-') : undefined;
      const boolValue = prevName && isBoolFlag(prevName) && /^(true|false|[01tTfF]|TRUE|FALSE|True|False)$/.test(word.text);
      // An older kubelet ignores the word: harmful only when it meant to turn the flag off.
      if (!refuses && !(boolValue && /^(false|0|f|F|FALSE|False)$/.test(word.text))) continue;
      const fix =
        boolValue && prev && !prev.via && !word.via && prev.span.file === word.span.file && prev.span.range.end.line === word.span.range.start.line
          ? {
              fixes: [
                {
                  title: `Write --${prevName}=${word.text}`,
                  edits: [{ file: word.span.file, range: { start: prev.span.range.end, end: word.span.range.start }, newText: '=' }],
                  preferred: true,
                },
              ],
            }
          : undefined;
      out.push(
        finding(
          'flag-positional-argument',
          refuses ? 'error' : 'warning',
          word.span,
          !refuses
            ? `"${word.text}" does not set --${prevName}: a bool flag takes its value only as --${prevName}=${word.text}. A ${node.kubernetesVersion} kubelet ignores the word and sets --${prevName}=true.`
            : boolValue
            ? `"${word.text}" does not set --${prevName}: a bool flag takes its value only as --${prevName}=${word.text}. The kubelet sees "${word.text}" as a command and refuses to start (unknown command "${word.text}").`
            : `"${word.text}" is not a flag; the kubelet accepts no positional arguments and refuses to start (unknown command "${word.text}").` +
                (word.via ? ` It comes from $${word.via.variable}.` : ''),
          fix,
        ),
      );
    }
    return out;
  },
};
