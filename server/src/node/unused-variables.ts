/**
 * Variables of the service that hold kubelet flags but that no Exec*= line references. systemd puts them in the
 * process environment, where the kubelet never reads them: their flags do not reach its command line (a drop-in
 * that sets KUBELET_AUTHZ_ARGS next to an ExecStart= that lists only $KUBELET_KUBECONFIG_ARGS).
 */
import { splitVariable } from '../parse/systemd/exec.ts';
import type { EnvAssignment, Word } from '../parse/types.ts';
import { parseKubeletArgs, type ArgProblem } from './command-line.ts';
import type { FlagUse, ServiceModel } from './model.ts';

export interface UnusedVariable {
  assignment: EnvAssignment;
  source: 'Environment' | 'EnvironmentFile';
  /** The flags the value holds, read as the kubelet would read them if `$NAME` stood on its command line. */
  flags: FlagUse[];
  argProblems: ArgProblem[];
}

/** Only the surviving ExecStart= runs the kubelet, but any Exec*= line may use a variable (an ExecStartPre= script). */
export function unusedVariables(service: ServiceModel, referencedByExecStart: ReadonlySet<string>): UnusedVariable[] {
  const out: UnusedVariable[] = [];
  let execText: string | undefined;
  for (const [name, { assignment, source }] of service.environment) {
    if (referencedByExecStart.has(name) || !/(^|[\s"'])--?[A-Za-z]/.test(assignment.value)) continue;
    // ExecStart= lines that a later empty ExecStart= reset never run; the other Exec*= keys are kept as written.
    execText ??= [
      ...service.execStarts,
      ...service.files.flatMap((f) => f.directives).filter((d) => d.section === 'Service' && d.key.startsWith('Exec') && d.key !== 'ExecStart'),
    ]
      .map((d) => d.value)
      .join('\n');
    if (execText.includes(name) && new RegExp(`\\$(${name}\\b|\\{${name}\\})`).test(execText)) continue;
    const words: Word[] = splitVariable(assignment, { variable: name, span: assignment.nameSpan });
    const parsed = parseKubeletArgs(words);
    if (parsed.flags.length === 0) continue;
    out.push({ assignment, source, flags: parsed.flags, argProblems: parsed.problems });
  }
  return out;
}
