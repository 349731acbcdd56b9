/**
 * env-util.c replace_env_argv(): an unset variable expands to nothing, with
 * no log line. When ExecStart= references `$KUBELET_KUBECONFIG_ARGS` and no
 * Environment=/EnvironmentFile= of the service sets it, the kubelet silently
 * starts without those flags (no --kubeconfig, no --config).
 *
 * Variables systemd itself puts in the environment of the command (sd_listen,
 * sd_notify, directories, credentials, the manager's PATH/LANG, User= ones)
 * and those passed with PassEnvironment= are not reported.
 *
 * Severity: a warning when the variable is a typo of one the service sets, or
 * when the workspace holds the whole service (main unit, a drop-in, every
 * EnvironmentFile=); otherwise information, saying which missing part may set it.
 * A variable left empty on purpose is information too: one whose Environment= line is commented out, or a hook for
 * the user's own flags (`*_EXTRA_ARGS`, which kubeadm's own drop-ins before 1.11 referenced without setting).
 */
import { finding, type Finding } from '../model/finding.ts';
import { closest } from '../catalog/suggest.ts';
import type { Span } from '../model/range.ts';
import type { UnitFile } from '../parse/types.ts';
import type { Rule } from './types.ts';

/** Variables systemd sets for the command (systemd.exec(5) "Environment Variables in Spawned Processes"). */
const SYSTEMD_SET = new Set([
  'PATH', 'LANG', 'LANGUAGE', 'USER', 'LOGNAME', 'HOME', 'SHELL', 'TERM', 'INVOCATION_ID', 'JOURNAL_STREAM',
  'MAINPID', 'MANAGERPID', 'SYSTEMD_EXEC_PID', 'NOTIFY_SOCKET', 'LISTEN_FDS', 'LISTEN_PID', 'LISTEN_FDNAMES',
  'WATCHDOG_PID', 'WATCHDOG_USEC', 'RUNTIME_DIRECTORY', 'STATE_DIRECTORY', 'CACHE_DIRECTORY', 'LOGS_DIRECTORY',
  'CONFIGURATION_DIRECTORY', 'CREDENTIALS_DIRECTORY', 'PIDFILE', 'FDSTORE', 'MEMORY_PRESSURE_WATCH',
  'MEMORY_PRESSURE_WRITE', 'SERVICE_RESULT', 'EXIT_CODE', 'EXIT_STATUS', 'REMOTE_ADDR', 'REMOTE_PORT',
  'TRIGGER_UNIT', 'TRIGGER_PATH', 'TRIGGER_TIMER_REALTIME_USEC', 'TRIGGER_TIMER_MONOTONIC_USEC',
  'MONITOR_SERVICE_RESULT', 'MONITOR_EXIT_CODE', 'MONITOR_EXIT_STATUS', 'MONITOR_INVOCATION_ID', 'MONITOR_UNIT',
  'container', 'container_uuid', 'XDG_RUNTIME_DIR', 'XDG_SESSION_ID', 'XDG_SEAT', 'XDG_VTNR',
]);

/** A variable meant for the user's own flags, empty unless they set it (kubeadm's `KUBELET_EXTRA_ARGS`). */
const OPTIONAL_HOOK = /_EXTRA_(?:ARGS|OPTS|FLAGS)$/;

/** The commented-out `Environment=` line of the service's files that would set `name`, if any. */
function switchedOff(files: readonly UnitFile[], name: string): Span | undefined {
  for (const f of files) for (const c of f.commentedEnvironment ?? []) if (c.name === name) return c.span;
  return undefined;
}

export const unitVariableUndefined: Rule = {
  id: 'unit-variable-undefined',
  summary: 'ExecStart= references a variable no Environment=/EnvironmentFile= of the service sets',
  severity: ['warning', 'information'],
  fix: true,
  fixDoes: 'when the name is a near-miss of a variable the service sets, renames the reference to it',
  area: 'systemd-files',
  run({ node }) {
    const out: Finding[] = [];
    const s = node.service;
    if (!s || !s.execStart) return out;

    let passed = new Set<string>();
    for (const f of s.files) {
      for (const d of f.directives) {
        if (d.section !== 'Service' || d.key !== 'PassEnvironment') continue;
        // Added in place: copying the set for every line made many PassEnvironment= lines quadratic.
        if (d.value === '') passed = new Set();
        else for (const name of d.value.split(/[ \t\n]+/)) if (name) passed.add(name);
      }
    }

    const unresolved = s.envFileRefs.filter((r) => !r.resolved);
    const resolved = s.envFileRefs.filter((r) => r.resolved);
    // Parts of the unit the workspace may lack: a drop-in alone (no main unit), or a main unit with no drop-in.
    const hasMain = s.files.some((f) => f.path.endsWith('.service'));
    const hasDropin = s.files.some((f) => !f.path.endsWith('.service'));
    const defined = [...s.environment.keys()];
    const seen = new Set<string>();
    for (const ref of node.execReferences ?? []) {
      if (ref.defined || ref.invalidName) continue;
      if (SYSTEMD_SET.has(ref.variable) || /^LC_[A-Z_]+$/.test(ref.variable) || passed.has(ref.variable)) continue;
      const key = `${ref.span.file}|${ref.span.range.start.line}:${ref.span.range.start.character}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const name = ref.variable;
      const typo = closest(name, defined);
      let off: Span | undefined;
      // Replace only the name: `$NAME` has it at 1, `${NAME}` and `"$NAME"` at 2.
      const r = ref.span.range;
      const width = r.end.character - r.start.character;
      const at = width === name.length + 1 ? 1 : width === name.length + 3 ? 2 : -1;
      const fixes = typo && r.start.line === r.end.line && at > 0
        ? [{
            title: `Change $${name} to $${typo}`,
            edits: [{
              file: ref.span.file,
              range: { start: { line: r.start.line, character: r.start.character + at }, end: { line: r.start.line, character: r.start.character + at + name.length } },
              newText: typo,
            }],
            preferred: true,
          }]
        : undefined;
      if (node.unread?.length) {
        // A drop-in or environment file of this unit the tool could not read may set it (issue #37).
        const u = node.unread[0];
        out.push(
          finding(
            'unit-variable-undefined',
            'information',
            ref.span,
            `$${name} is set in no file read here; ${u.shown}${node.unread.length > 1 ? ` and ${node.unread.length - 1} more` : ''} may set it but was not read: ${u.why}. If nothing sets it, systemd expands $${name} to nothing.`,
          ),
        );
      } else if (typo) {
        const src = s.environment.get(typo)!;
        out.push(
          finding(
            'unit-variable-undefined',
            'warning',
            ref.span,
            `$${name} is set nowhere: did you mean $${typo}? No Environment= or EnvironmentFile= of the service sets it, so systemd expands it to nothing, silently, and the kubelet starts without the flags it was meant to carry.`,
            { related: [{ span: src.assignment.nameSpan, message: `${typo} is set here` }], ...(fixes ? { fixes } : {}) },
          ),
        );
      } else if (unresolved.length) {
        const paths = unresolved.map((r) => `${r.optional ? '-' : ''}${r.path}`).join(', ');
        out.push(
          finding(
            'unit-variable-undefined',
            'information',
            ref.span,
            `$${name} can only come from a file not in the workspace. No Environment= of the service sets it; EnvironmentFile=${paths} may. If that file does not set it, systemd expands $${name} to nothing and the kubelet gets none of its flags.`,
            { related: unresolved.map((r) => ({ span: r.directive.valueMap.span(0, r.directive.value.length), message: 'not in the workspace: may set the variable' })) },
          ),
        );
      } else if ((off = switchedOff(s.files, name)) || OPTIONAL_HOOK.test(name)) {
        // Left empty on purpose: its Environment= line is commented out, or it is the hook for flags of one's own
        // (kubeadm's drop-ins before 1.11 reference $KUBELET_EXTRA_ARGS without setting it). Nothing is lost.
        out.push(
          finding(
            'unit-variable-undefined',
            'information',
            ref.span,
            off
              ? `$${name} expands to nothing: the Environment= line that sets it is commented out (line ${off.range.start.line + 1}${off.file === ref.span.file ? '' : ` of ${off.file}`}).`
              : `$${name} is set nowhere, so it expands to nothing: it is the place for flags of your own. Set it with Environment= in a drop-in, or in an EnvironmentFile= such as /etc/default/kubelet, to add some.`,
            off ? { related: [{ span: off, message: `${name}, commented out` }] } : undefined,
          ),
        );
      } else if (!hasMain || !hasDropin) {
        const missing = hasMain ? 'no drop-in of this unit is in the workspace' : 'the main unit and its other drop-ins are not in the workspace';
        out.push(
          finding(
            'unit-variable-undefined',
            'information',
            ref.span,
            `Nothing in the workspace sets $${name}, but ${missing}. One of them may set it with Environment=. If none does, systemd expands $${name} to nothing and the kubelet gets none of its flags.`,
          ),
        );
      } else {
        const where = resolved.length
          ? `No Environment= of the service sets $${name}, nor does ${resolved.map((r) => r.resolved).join(', ')}`
          : `No Environment= or EnvironmentFile= of the service sets $${name}`;
        out.push(
          finding(
            'unit-variable-undefined',
            'warning',
            ref.span,
            `$${name} is set nowhere, so it expands to nothing. ${where}: systemd drops it silently, and the kubelet starts without the flags it was meant to carry.`,
            { related: resolved.map((r) => ({ span: r.directive.valueMap.span(0, r.directive.value.length), message: 'read; does not set the variable' })) },
          ),
        );
      }
    }
    return out;
  },
};
