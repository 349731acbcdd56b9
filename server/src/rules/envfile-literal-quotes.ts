/**
 * env-file.c: quotes are special only where a value starts, so in
 * `KUBELET_EXTRA_ARGS=--node-labels='a=b'` they are part of the value, and
 * inside `A="--x='y'"` the inner quotes are too. Whether the kubelet then sees
 * them depends on how ExecStart= uses the variable (env-util.c
 * replace_env_argv): a whole-word `$A` is split with EXTRACT_UNQUOTE, which
 * removes them again; `${A}` is replaced as is, quotes included. So this rule
 * looks at the final argv: a word that still holds a quote character that came
 * from an environment file is what the kubelet receives, quotes and all
 * (`--container-runtime-endpoint='unix:///...'` is no socket path it can dial).
 */
import { finding, type Finding } from '../model/finding.ts';
import { spanInside } from '../model/range.ts';
import type { EnvAssignment } from '../parse/types.ts';
import type { Rule } from './types.ts';

const QUOTE = /['"]/;

export const envfileLiteralQuotes: Rule = {
  id: 'envfile-literal-quotes',
  summary: 'quotes from an environment file reach the kubelet as part of an argument',
  severity: 'warning',
  fix: false,
  area: 'systemd-files',
  run({ node }) {
    const out: Finding[] = [];
    const s = node.service;
    for (const w of node.argv) {
      if (!w.via || !QUOTE.test(w.text)) continue;
      // The environment-file assignments this word is made of.
      const sources: EnvAssignment[] = [];
      let inPlace = false;
      if (s) {
        const names = new Set([w.via.variable]);
        for (const r of node.execReferences ?? []) if (r.defined && spanInside(r.span, w.span)) names.add(r.variable);
        for (const name of names) {
          const e = s.environment.get(name);
          if (e && e.source === 'EnvironmentFile' && QUOTE.test(e.assignment.value)) sources.push(e.assignment);
        }
        // A word written in ExecStart itself (not one split out of the value) came from `${NAME}`.
        inPlace = w.span.file === s.execStart?.span.file && spanInside(w.via.span, w.span);
        if (sources.length === 0) continue;
      }
      const how = inPlace
        ? `\${${w.via.variable}} is replaced as is, so the quotes of the environment file's value stay in the argument`
        : `a quote escaped with "\\" survives the splitting of $${w.via.variable} into words`;
      const advice = inPlace
        ? `Remove the quotes, or reference the variable as a whole word ($${w.via.variable}), which splits and unquotes it.`
        : 'Remove the quotes.';
      out.push(
        finding(
          'envfile-literal-quotes',
          'warning',
          w.span,
          `The kubelet receives the quote characters in this argument. It gets ${JSON.stringify(w.text)}: systemd removes quotes in an environment file only where they start the value, and ${how}. The kubelet does not remove them either: the value it reads includes them. ${advice}`,
          { related: sources.map((a) => ({ span: a.span, message: `${a.name} is set here, with literal quotes` })) },
        ),
      );
    }
    return out;
  },
};
