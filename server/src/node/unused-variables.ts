/**
 * Variables of the service that hold kubelet flags but that no Exec*= line references. systemd puts them in the
 * process environment, where the kubelet never reads them: their flags do not reach its command line (a drop-in
 * that sets KUBELET_AUTHZ_ARGS next to an ExecStart= that lists only $KUBELET_KUBECONFIG_ARGS).
 */
import { splitVariable } from '../parse/systemd/exec.ts';
import type { EnvAssignment, Word } from '../parse/types.ts';
import { parseKubeletArgs, type ArgProblem } from './command-line.ts';
import type { FlagUse, ServiceModel } from './model.ts';

/**
 * The most unused variables a node keeps (issue #28 point 5): a generated environment file of 136,000 of them kept a
 * parse of each (its words and flags, about 800 bytes) in the node and a finding of each, 200 MB together; past these
 * the rest are counted (UnusedVariables.more) and reported as one finding.
 */
export const MAX_UNUSED_VARIABLES = 1000;

export interface UnusedVariables {
  list: UnusedVariable[];
  /** Further unused variables with flags, past MAX_UNUSED_VARIABLES: how many, and the first one. */
  more?: { count: number; first: EnvAssignment };
}

export interface UnusedVariable {
  assignment: EnvAssignment;
  source: 'Environment' | 'EnvironmentFile';
  /** The flags the value holds, read as the kubelet would read them if `$NAME` stood on its command line. */
  flags: FlagUse[];
  argProblems: ArgProblem[];
  /**
   * The file whose empty `ExecStart=` replaced the command line that referenced this variable (an older drop-in
   * superseded by a later one): the variable is left over on purpose, not forgotten.
   */
  replacedBy?: string;
}

/** Only the surviving ExecStart= runs the kubelet, but any Exec*= line may use a variable (an ExecStartPre= script). */
export function unusedVariables(service: ServiceModel, referencedByExecStart: ReadonlySet<string>): UnusedVariables {
  const out: UnusedVariable[] = [];
  let more: UnusedVariables['more'];
  let used: Set<string> | undefined;
  let dropped: Map<string, Set<string>> | undefined;
  for (const [name, { assignment, source }] of service.environment) {
    if (referencedByExecStart.has(name) || !/(^|[\s"'])--?[A-Za-z]/.test(assignment.value)) continue;
    // ExecStart= lines that a later empty ExecStart= reset never run; the other Exec*= keys are kept as written.
    used ??= referencedNames([
      ...service.execStarts,
      ...service.files.flatMap((f) => f.directives).filter((d) => d.section === 'Service' && d.key.startsWith('Exec') && d.key !== 'ExecStart'),
    ].map((d) => d.value));
    if (used.has(name)) continue;
    const words: Word[] = splitVariable(assignment, { variable: name, span: assignment.nameSpan });
    const parsed = parseKubeletArgs(words);
    if (parsed.flags.length === 0) continue;
    if (out.length >= MAX_UNUSED_VARIABLES) {
      if (more) more.count++;
      else more = { count: 1, first: assignment };
      continue;
    }
    // A variable set by a file whose own command line used it, before a later file's empty ExecStart= dropped that
    // line (systemd's config_parse_exec: an empty value clears the list): the whole older file is superseded. A
    // variable the user sets elsewhere (an environment file) that the new command line forgot is the mistake itself.
    dropped ??= droppedReferences(service);
    const by = service.execStarts[0]?.span.file;
    const replacedBy = by !== undefined && by !== assignment.span.file && dropped.get(assignment.span.file)?.has(name) ? by : undefined;
    out.push({ assignment, source, flags: parsed.flags, argProblems: parsed.problems, ...(replacedBy && { replacedBy }) });
  }
  return more ? { list: out, more } : { list: out };
}

/** By file, the names its ExecStart= lines reference that a later reset dropped. */
function droppedReferences(service: ServiceModel): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const f of service.files) {
    const lines = f.directives.filter((d) => d.section === 'Service' && d.key === 'ExecStart' && d.value !== '' && !service.execStarts.includes(d));
    if (lines.length) out.set(f.path, referencedNames(lines.map((d) => d.value)));
  }
  return out;
}

/**
 * Every name the lines reference as `$NAME` (the longest run of word characters) or `${NAME}`, in one pass: a search
 * of the whole text per variable was quadratic in a drop-in of thousands of Environment= and continuation lines.
 */
function referencedNames(values: readonly string[]): Set<string> {
  const out = new Set<string>();
  const word = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_';
  for (const v of values) {
    // A scan, not a pattern: `${` without its `}` would be searched to the line's end once per `$` (quadratic).
    for (let i = v.indexOf('$'); i >= 0; i = v.indexOf('$', i)) {
      i++;
      if (v[i] === '{') {
        let e = i + 1;
        while (e < v.length && v[e] !== '}' && v[e] !== '\n' && v[e] !== '$') e++;
        if (v[e] === '}') out.add(v.slice(i + 1, e));
        i = e;
      } else {
        let e = i;
        while (e < v.length && word(v[e])) e++;
        if (e > i) out.add(v.slice(i, e));
        i = e;
      }
    }
  }
  return out;
}
