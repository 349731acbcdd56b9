/**
 * systemd passes every Environment=/EnvironmentFile= variable to the process environment, but the kubelet reads
 * flags only from its command line: a variable that holds flags and that no Exec*= line references (`$NAME` or
 * `${NAME}`, env-util.c replace_env_argv) changes nothing. The classic case is a drop-in that adds
 * KUBELET_AUTHZ_ARGS="--authorization-mode=Webhook --client-ca-file=..." and an ExecStart= that never lists it:
 * the kubelet then runs with its defaults, which without a config file are AlwaysAllow and anonymous access.
 *
 * The flags in such a variable are still checked (unknown, removed, invalid value): they are wrong for whoever
 * adds the reference, so their findings come as warnings that say where the flag sits.
 */
import { finding, type Finding } from '../model/finding.ts';
import type { FlagUse, NodeModel } from '../node/model.ts';
import type { UnusedVariable } from '../node/unused-variables.ts';
import { comparePos } from '../model/range.ts';
import type { ConfigNode } from '../parse/types.ts';
import { flagUnknown } from './flag-unknown.ts';
import { flagRemoved } from './flag-removed.ts';
import { flagValueInvalid } from './flag-value-invalid.ts';
import type { Rule, RuleContext } from './types.ts';

/** The flag checks that hold for a flag wherever it is written. */
const OWN_CHECKS: readonly Rule[] = [flagUnknown, flagRemoved, flagValueInvalid];

export const unitVariableUnused: Rule = {
  id: 'unit-variable-unused',
  summary: 'a variable holds kubelet flags but no ExecStart= references it, so they never reach the kubelet',
  severity: 'warning',
  fix: false,
  area: 'systemd-files',
  run(ctx) {
    const { node } = ctx;
    const out: Finding[] = [];
    for (const u of node.unusedVariables ?? []) {
      const a = u.assignment;
      if (u.replacedBy) {
        // Left over in a file whose command line a later file replaced: said once, as information.
        const own = a.span.file.slice(a.span.file.lastIndexOf('/') + 1);
        const by = u.replacedBy.slice(u.replacedBy.lastIndexOf('/') + 1);
        out.push({
          ...finding('unit-variable-unused', 'information', a.span,
            `${a.name} is left over: ${by} replaced the ExecStart= that used it. Its flags never reach the kubelet. ` +
              `systemd applies drop-ins in file-name order, and the empty ExecStart= of ${by} drops the ExecStart= of ${own}. Remove the assignment, or add $${a.name} to ${by}'s ExecStart= if its flags are still wanted.`),
          tags: ['unnecessary'],
        });
        continue;
      }
      // (no Sets for the usual one flag: a drop-in may hold thousands of these variables)
      const names = u.flags.length === 1 ? [`--${u.flags[0].written}`] : [...new Set(u.flags.map((f) => `--${f.written}`))];
      const listed = listFlags(names);
      const consequences: string[] = [];
      for (const f of u.flags) {
        const c = consequence(node, f);
        if (c !== undefined && !consequences.includes(c)) consequences.push(c);
      }
      const where = u.source === 'EnvironmentFile' ? 'an environment file' : 'Environment=';
      const never = `${listed} never ${names.length === 1 ? 'reaches' : 'reach'} the kubelet.`;
      // The security consequence, when there is one, is the point: it comes first (issue 26, point 12).
      const lead = securityLead(consequences, a.name);
      const rest = lead ? consequences.filter((c) => c !== lead.consequence) : consequences;
      out.push({
        ...finding(
          'unit-variable-unused',
          'warning',
          a.span,
          (lead ? `${lead.sentence} ${never}` : `${a.name} is not in ExecStart=: ${never}`) +
            ` systemd puts ${where} variables in the process environment, but the kubelet reads flags only from its command line.` +
            ` Add $${a.name} to ExecStart= or remove the assignment.` +
            (rest.length > 0 ? ` Without ${names.length === 1 ? 'it' : 'them'}${lead ? ' also' : ''}: ${rest.join('; ')}.` : ''),
        ),
        tags: ['unnecessary'],
      });
    }
    // The flag checks run once over every unused variable's flags (they check each flag on its own; once per variable
    // made a drop-in of thousands of variables spend its time copying the node), each finding told by its place.
    // (not those of a replaced command line: nobody means to reference them again)
    const vars = (node.unusedVariables ?? []).filter((u) => !u.replacedBy);
    if (vars.length === 0) return more(node, out);
    const inner: RuleContext = { ...ctx, node: { ...node, flags: vars.flatMap((u) => u.flags) }, argProblems: vars.flatMap((u) => u.argProblems) };
    const owner = variableAt(vars);
    for (const rule of OWN_CHECKS) {
      for (const f of rule.run(inner)) {
        out.push({
          ...f,
          severity: f.severity === 'error' ? 'warning' : f.severity,
          message: `${f.message} (In ${owner(f).assignment.name}, which no ExecStart= references yet: this fails once it does.)`,
        });
      }
    }
    return more(node, out);
  },
};

/** The one finding for the unused variables past the ones a node keeps (node/unused-variables.ts). */
function more(node: NodeModel, out: Finding[]): Finding[] {
  const m = node.unusedVariablesMore;
  if (m) {
    out.push({
      ...finding('unit-variable-unused', 'warning', m.first.span,
        `${m.count} more variables, from ${m.first.name} on, hold kubelet flags that no ExecStart= references.` +
          ` Their flags never reach the kubelet either; only the first ${node.unusedVariables?.length ?? 0} such variables are reported one by one.`),
      tags: ['unnecessary'],
    });
  }
  return out;
}

/** The variable a finding of its flags lies in: the last assignment of the finding's file that starts at or before it. */
function variableAt(vars: readonly UnusedVariable[]): (f: Finding) => UnusedVariable {
  if (vars.length === 1) return () => vars[0];
  const byFile = new Map<string, UnusedVariable[]>();
  for (const u of vars) (byFile.get(u.assignment.span.file) ?? byFile.set(u.assignment.span.file, []).get(u.assignment.span.file)!).push(u);
  for (const list of byFile.values()) list.sort((x, y) => comparePos(x.assignment.span.range.start, y.assignment.span.range.start));
  return (f) => {
    const list = byFile.get(f.file) ?? vars;
    let lo = 0;
    let hi = list.length - 1;
    let found = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (comparePos(list[mid].assignment.span.range.start, f.range.start) <= 0) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return list[found];
  };
}

const ALWAYS_ALLOW = 'authorization is AlwaysAllow, so any caller of the kubelet API (port 10250) may exec into pods and read their logs';
const ANONYMOUS = 'anonymous requests to the kubelet API are accepted';

/** A first sentence (at most 120 characters) that leads with what the lost flags mean for the node's security. */
function securityLead(consequences: readonly string[], name: string): { sentence: string; consequence: string } | undefined {
  const forms: [string, string][] = [
    [ALWAYS_ALLOW, `Anyone reaching port 10250 can exec into pods (authorization AlwaysAllow): ${name} is not in ExecStart=.`],
    [ANONYMOUS, `The kubelet API (port 10250) accepts anonymous requests: ${name} is not in ExecStart=.`],
  ];
  for (const [consequence, sentence] of forms) {
    if (consequences.includes(consequence) && sentence.length <= 120) return { sentence, consequence };
  }
  return undefined;
}

/** Two flag names at most, so that the first sentence stays short; the count when even those are long. */
function listFlags(names: string[]): string {
  const two = names.length <= 2 ? names.join(', ') : `${names.slice(0, 2).join(', ')} and ${names.length - 2} more`;
  return two.length <= 60 ? two : names.length === 1 ? 'its flag' : `its ${names.length} flags`;
}

/**
 * What the kubelet does instead, for the flags that guard its API. Without --config the flag defaults apply
 * (AlwaysAllow, anonymous access on, read-only port 10255); with one, the v1beta1 defaults (Webhook, anonymous off,
 * port closed). A value another source sets is what the kubelet uses, and then nothing is lost.
 */
const GUARDS = new Set(['authorization-mode', 'anonymous-auth', 'authentication-token-webhook', 'client-ca-file', 'tls-cert-file', 'tls-private-key-file', 'read-only-port']);

function consequence(node: NodeModel, f: FlagUse): string | undefined {
  const field = f.info?.field;
  if (!field || !GUARDS.has(f.name)) return undefined;
  const set = fieldValue(node, field);
  // The kubelet loads the file --config names whether or not it is in the workspace (and fails without it).
  const fromFile = node.configRefs.some((r) => r.flag === 'config');
  switch (f.name) {
    case 'authorization-mode': {
      const mode = set ?? (fromFile ? 'Webhook' : 'AlwaysAllow');
      return mode === 'AlwaysAllow' ? ALWAYS_ALLOW : undefined;
    }
    case 'anonymous-auth': {
      const on = set !== undefined ? set === 'true' : !fromFile;
      return on ? ANONYMOUS : undefined;
    }
    case 'authentication-token-webhook': {
      const on = set !== undefined ? set === 'true' : fromFile;
      return on ? undefined : 'bearer tokens are not checked with the API server (token webhook off)';
    }
    case 'client-ca-file':
      return set ? undefined : 'no client CA, so client certificates (the API server\'s own) are not authenticated';
    case 'tls-cert-file':
    case 'tls-private-key-file':
      return set ? undefined : 'the kubelet serves its API (TLS) with a self-signed certificate that clients cannot verify';
    case 'read-only-port': {
      const port = set ?? (fromFile ? '0' : '10255');
      return port !== '0' ? `the unauthenticated read-only port ${port} stays open` : undefined;
    }
  }
  return undefined;
}

/** The value a field has on the node from its other sources (a flag on the command line, the config files). */
function fieldValue(node: NodeModel, path: string): string | undefined {
  const s = node.settings.get(path);
  if (s?.kind === 'scalar' && s.value !== null && s.value !== '') return String(s.value);
  const [top, ...rest] = path.split('.');
  if (rest.length === 0) return undefined;
  let found: string | undefined;
  for (const doc of node.kubeletConfigs) {
    let n: ConfigNode | undefined = doc.root;
    for (const k of [top, ...rest]) n = n?.kind === 'map' ? [...n.entries].reverse().find((e) => e.key === k)?.value : undefined;
    if (n?.kind === 'scalar' && n.value !== null && n.value !== '') found = String(n.value);
  }
  return found;
}
