/**
 * pflag: a scalar flag given twice keeps the last value; a map flag given
 * twice accumulates keys (only its first Set clears the map), a later key
 * replacing an earlier one. Either way one of the occurrences is dead weight
 * or a surprise — typically KUBELET_EXTRA_ARGS repeating a flag that
 * kubeadm-flags.env already sets.
 */
import { finding, type Finding } from '../model/finding.ts';
import { flagInfo, type FlagSyntax } from '../catalog/flags.ts';
import { mapKeyValues } from '../quantity/mapflag.ts';
import type { FlagUse } from '../node/model.ts';
import type { Rule } from './types.ts';

function at(f: FlagUse): string {
  return `${f.span.file} line ${f.span.range.start.line + 1}${f.nameWord.via ? ` (via $${f.nameWord.via.variable})` : ''}`;
}

/** Scratch lists of one use's keys and values (see keyValues). */
const KEYS: string[] = [];
const VALUES: string[] = [];

/**
 * A map flag's keys with their values into KEYS and VALUES, each key once (a key repeated inside one value keeps
 * its last value); returns how many. Strings only: a command line can repeat --node-labels thousands of times.
 */
function keyValues(f: FlagUse, syn: FlagSyntax): number {
  if (syn.type !== 'map') return 0;
  return mapKeyValues(f.value ?? '', syn.form === 'signal<value' ? '<' : '=', KEYS, VALUES, syn.value === 'bool');
}

export const flagDuplicate: Rule = {
  id: 'flag-duplicate',
  summary: 'the same flag is given more than once',
  run({ node }) {
    const out: Finding[] = [];
    const byName = new Map<string, FlagUse[]>();
    for (const f of node.flags) {
      const list = byName.get(f.name);
      if (list) list.push(f);
      else byName.set(f.name, [f]);
    }
    for (const [name, uses] of byName) {
      if (uses.length < 2) continue;
      const info = flagInfo(name);
      const last = uses[uses.length - 1];
      if (info?.syntax.type === 'map') {
        // Accumulating different keys is how repeated map flags are meant to work; a repeated key is not.
        const seen = new Map<string, { use: FlagUse; value: string }>();
        for (const u of uses) {
          const n = keyValues(u, info.syntax);
          for (let i = 0; i < n; i++) {
            const k = KEYS[i];
            const v = VALUES[i];
            const prev = seen.get(k);
            if (prev && prev.value !== v) {
              out.push(
                finding('flag-duplicate', 'warning', prev.use.span, `--${name} sets ${k}=${prev.value} here, but ${k}=${v} at ${at(u)} replaces it (repeated map flags merge key by key, the later key winning).`, {
                  related: [{ span: u.span, message: `the ${k} that wins` }],
                }),
              );
            }
            seen.set(k, { use: u, value: v });
          }
        }
        continue;
      }
      // Repeated StringSlice flags append (enforce rules judge the result); a list held in one string does not.
      if (info?.syntax.type === 'list' && !info.lastWins) continue;
      for (const u of uses.slice(0, -1)) {
        const same = (u.value ?? 'true') === (last.value ?? 'true');
        out.push(
          finding(
            'flag-duplicate',
            'warning',
            u.span,
            same
              ? `--${name}=${u.value ?? 'true'} is given again at ${at(last)} with the same value; one of them can go.`
              : `--${name}=${u.value ?? 'true'} has no effect: --${name}=${last.value ?? 'true'} at ${at(last)} comes later on the command line and the last one wins.`,
            { related: [{ span: last.span, message: 'the occurrence that wins' }] },
          ),
        );
      }
    }
    return out;
  },
};
