/**
 * pflag: a scalar flag given twice keeps the last value; a map flag given
 * twice accumulates keys (only its first Set clears the map), a later key
 * replacing an earlier one. Either way one of the occurrences is dead weight
 * or a surprise — typically KUBELET_EXTRA_ARGS repeating a flag that
 * kubeadm-flags.env already sets.
 * `--reserved-memory` is neither: ReservedMemoryVar.Set (kubernetes
 * pkg/util/flag/flags.go) clears its list on the first use only and appends
 * the NUMA entries of every later one, so repeating it is how several NUMA
 * nodes are written; a (node, resource) pair given twice is
 * reserved-memory-invalid's.
 */
import { finding, type Finding } from '../model/finding.ts';
import type { FlagInfo, FlagSyntax } from '../catalog/flags.ts';
import { mapKeyValues } from '../quantity/mapflag.ts';
import type { FlagUse } from '../node/model.ts';
import { kubeadmCommandLines } from '../node/kubeadm.ts';
import type { Rule } from './types.ts';

function at(f: FlagUse): string {
  return `${f.span.file} line ${f.span.range.start.line + 1}${f.nameWord.via ? ` (via $${f.nameWord.via.variable})` : ''}`;
}

/**
 * A map flag's keys with their values into `keys` and `values` (the caller's scratch lists), each key once (a key
 * repeated inside one value keeps its last value); returns how many. Strings only: a command line can repeat
 * --node-labels thousands of times.
 */
function keyValues(f: FlagUse, syn: FlagSyntax, keys: string[], values: string[]): number {
  if (syn.type !== 'map') return 0;
  return mapKeyValues(f.value ?? '', syn.form === 'signal<value' ? '<' : '=', keys, values, syn.value === 'bool');
}

export const flagDuplicate: Rule = {
  id: 'flag-duplicate',
  summary: 'the same flag is given more than once',
  severity: ['warning', 'information'],
  fix: false,
  area: 'flags-fields',
  run({ node }) {
    // kubeadm init and join each read their own document's kubeletExtraArgs: a flag in both is no repetition.
    const lines = kubeadmCommandLines(node);
    if (lines.length === 1) return duplicates(lines[0]);
    const seen = new Set<string>();
    return lines.flatMap(duplicates).filter((f) => {
      const k = `${f.file}:${f.range.start.line}:${f.range.start.character}:${f.message}`;
      return !seen.has(k) && !!seen.add(k);
    });
  },
};

function duplicates(flags: readonly FlagUse[]): Finding[] {
  const out: Finding[] = [];
  // Grouped by catalog entry where the flag has one (an identity key; names would be hashed once per use).
  const byFlag = new Map<FlagInfo | string, FlagUse[]>();
  for (const f of flags) {
    const key = f.info ?? f.name;
    const list = byFlag.get(key);
    if (list) list.push(f);
    else byFlag.set(key, [f]);
  }
  for (const uses of byFlag.values()) {
    if (uses.length < 2 || uses[0].name === 'reserved-memory') continue;
    const last = uses[uses.length - 1];
    const { name, info } = last;
    if (info?.syntax.type === 'map') {
      // Accumulating different keys is how repeated map flags are meant to work; a repeated key is not.
      // Each key's latest use and value sit in two arrays at the index `seen` gives: no object per key.
      const seen = new Map<string, number>();
      const seenUse: FlagUse[] = [];
      const seenValue: string[] = [];
      const KEYS: string[] = [];
      const VALUES: string[] = [];
      for (const u of uses) {
        const n = keyValues(u, info.syntax, KEYS, VALUES);
        for (let i = 0; i < n; i++) {
          const k = KEYS[i];
          const v = VALUES[i];
          const idx = seen.get(k);
          if (idx === undefined) {
            seen.set(k, seenUse.length);
            seenUse.push(u);
            seenValue.push(v);
            continue;
          }
          const prevValue = seenValue[idx];
          if (prevValue !== v) {
            out.push(
              finding('flag-duplicate', 'warning', seenUse[idx].span, `--${name} sets ${k}=${prevValue} here, but ${k}=${v} at ${at(u)} replaces it (repeated map flags merge key by key, the later key winning).`, {
                related: [{ span: u.span, message: `the ${k} that wins` }],
              }),
            );
          }
          seenUse[idx] = u;
          seenValue[idx] = v;
        }
      }
      continue;
    }
    // Repeated StringSlice flags append (enforce rules judge the result); a list held in one string does not.
    if (info?.syntax.type === 'list' && !info.lastWins) continue;
    const lastValue = last.value ?? 'true';
    const lastAt = at(last);
    for (let i = 0; i < uses.length - 1; i++) {
      const u = uses[i];
      const value = u.value ?? 'true';
      out.push(
        finding(
          'flag-duplicate',
          // The same value again changes nothing the kubelet does: worth tidying, not a warning (issue #36 point 3).
          value === lastValue ? 'information' : 'warning',
          u.span,
          value === lastValue
            ? `--${name}=${value} is given again at ${lastAt} with the same value; one of them can go.`
            : `--${name}=${value} has no effect: a later --${name} wins. --${name}=${lastValue} at ${lastAt} comes later on the command line, and the last one wins.`,
          { related: [{ span: last.span, message: 'the occurrence that wins' }] },
        ),
      );
    }
  }
  return out;
}
