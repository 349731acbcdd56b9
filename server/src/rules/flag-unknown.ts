/**
 * pflag (spf13/pflag flag.go parseLongArg): a flag the kubelet does not
 * define stops it at startup: `failed to parse kubelet flag: unknown flag: --X`.
 */
import { finding, type Finding } from '../model/finding.ts';
import { FLAGS, flagInfo } from '../catalog/flags.ts';
import { closest } from '../catalog/suggest.ts';
import { once } from '../catalog/lazy.ts';
import { oneFix, replaceWord } from './lib/edit.ts';
import type { Rule } from './types.ts';

/** The names of the flags the kubelet still has, built on first use (a table, never changed after). */
const activeNames = once((): readonly string[] => FLAGS.filter((f) => f.status !== 'removed').map((f) => f.name));

export const flagUnknown: Rule = {
  id: 'flag-unknown',
  summary: 'the kubelet does not know this flag and will not start',
  severity: 'error',
  fix: true,
  fixDoes: 'replaces the flag with the known one it resembles (e.g. `--max-pod` → `--max-pods`)',
  area: 'flags-fields',
  run({ argProblems }) {
    const out: Finding[] = [];
    for (const p of argProblems) {
      if (p.kind === 'unknown-flag') {
        if (flagInfo(p.name)) continue;
        const guess = closest(p.name, activeNames());
        out.push(
          finding(
            'flag-unknown',
            'error',
            p.span,
            `The kubelet has no flag --${p.name}; it refuses to start ("unknown flag: --${p.name}").${guess ? ` Did you mean --${guess}?` : ''}`,
            guess
              ? oneFix(
                  `Change to --${guess}`,
                  // a kubeletExtraArgs key is the bare name
                  p.from === 'kubeadm-extra-args' ? replaceWord(p.span, p.name, guess) : { file: p.span.file, range: p.span.range, newText: `--${guess}` },
                )
              : undefined,
          ),
        );
      } else if (p.kind === 'unknown-shorthand') {
        out.push(
          finding('flag-unknown', 'error', p.span, `The kubelet has no short flag -${p.name}; it refuses to start ("unknown shorthand flag"). Long flags take two dashes.`),
        );
      } else if (p.kind === 'bad-syntax') {
        out.push(finding('flag-unknown', 'error', p.span, `"${p.word.text}" is not a flag the kubelet can parse ("bad flag syntax"); it refuses to start.`));
      } else if (p.kind === 'needs-argument') {
        out.push(
          finding('flag-value-invalid', 'error', p.span, `--${p.name} needs a value but is the last argument; the kubelet refuses to start ("flag needs an argument").`),
        );
      }
    }
    return out;
  },
};
