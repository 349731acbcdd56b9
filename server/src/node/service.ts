/**
 * A service as systemd assembles it from the main unit and its drop-ins
 * (systemd.unit(5), systemd.exec(5)): list settings append, an empty
 * assignment resets the list, EnvironmentFile= values override
 * Environment= values whatever their order.
 */
import type { LinkBy } from '../model/paths.ts';
import type { EnvAssignment, EnvFile, UnitDirective, UnitFile } from '../parse/types.ts';
import { readEnvironmentDirective } from '../parse/systemd/environment.ts';
import { parseExecCommands, REFUSED } from '../parse/systemd/exec.ts';
import { resolveSpecifiers } from '../parse/systemd/words.ts';
import { finding } from '../model/finding.ts';
import type { ServiceModel } from './model.ts';
import type { Finding } from '../model/finding.ts';

export interface EnvFileLookup {
  (ref: string, from: string): { path: string; env: EnvFile; by: LinkBy } | undefined;
}

/** The command lines systemd reads with config_parse_exec(). */
const EXEC_KEYS = new Set(['ExecStart', 'ExecStartPre', 'ExecStartPost', 'ExecCondition', 'ExecReload', 'ExecStop', 'ExecStopPost']);
const DROP_IN = /\.d\/[^/]*\.conf$/;
/** Service types (service_type_table, src/core/service.c); notify-reload is new in systemd 253. */
const SERVICE_TYPES = new Set(['simple', 'exec', 'forking', 'oneshot', 'dbus', 'notify', 'notify-reload', 'idle']);

/**
 * EnvironmentFile= as config_parse_unit_env_file() takes it (src/core/load-fragment.c): specifiers resolved (`%%`
 * gives `%`), an optional `-`, then path_simplify_and_warn(PATH_CHECK_ABSOLUTE): an absolute path, simplified
 * (`//` and `/./` collapse, a trailing `/` goes), without `..`. Anything else is ignored (the message says why).
 * Checked with Debian's systemd 252 (test/oracle/systemd.test.ts).
 */
function envFilePath(d: UnitDirective): { path: string; optional: boolean } | string {
  const spec = resolveSpecifiers(d.value, d.valueMap);
  if (spec.unknown.length) return `Unknown specifier ${spec.unknown[0]!.spec} in EnvironmentFile=: systemd ignores the setting.`;
  const optional = spec.text.startsWith('-');
  const raw = optional ? spec.text.slice(1) : spec.text;
  if (!raw.startsWith('/')) return `EnvironmentFile= path is not absolute: systemd ignores the setting (write it from /, without quotes or blanks).`;
  const parts = raw.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return 'EnvironmentFile= path holds `..`: systemd ignores the setting (the path is not normalized).';
  const path = '/' + parts.join('/');
  // path_is_valid() after path_simplify(): under PATH_MAX (4096) bytes, each name at most NAME_MAX (255) bytes
  // (checked with Debian's systemd 252: 4095 and 255 are read, 4096 and 256 dropped)
  if (Buffer.byteLength(path) >= 4096) return 'EnvironmentFile= path is 4096 bytes or longer (PATH_MAX): systemd ignores the setting.';
  if (parts.some((p) => Buffer.byteLength(p) > 255)) return 'EnvironmentFile= path has a name longer than 255 bytes (NAME_MAX): systemd ignores the setting.';
  return { path, optional };
}

export function buildService(
  files: UnitFile[],
  masked: ServiceModel['masked'],
  lookupEnvFile: EnvFileLookup,
): { service: ServiceModel; problems: Finding[] } {
  const problems: Finding[] = [];
  let envDirectives: UnitDirective[] = [];
  let envFileDirectives: UnitDirective[] = [];
  let execStarts: UnitDirective[] = [];
  let execStartPre: UnitDirective[] = [];
  let slice: UnitDirective | undefined;
  let serviceType = 'simple';

  // List settings append; an empty assignment resets the list. Lists are built in place: units can be long.
  const add = (list: UnitDirective[], d: UnitDirective): UnitDirective[] => {
    if (d.value === '') return [];
    list.push(d);
    return list;
  };
  let refused: Finding | undefined;
  for (const f of files) {
    const dropIn = DROP_IN.test(f.path);
    // a unit file systemd stopped reading (parseUnit: bad section header, line too long) is refused: load state "error"
    if (!dropIn) refused ??= f.problems.find((p) => p.severity === 'error' && (p.code === 'unit-section-header' || p.code === 'unit-line-too-long'));
    let stop = false;
    for (const d of f.directives) {
      if (stop) break;
      if (d.section !== 'Service') continue;
      if (EXEC_KEYS.has(d.key) && d.value !== '') {
        // config_parse_exec() returning -ENOEXEC ends config_parse() of the file at this line (src/shared/conf-parser.c).
        // In the unit file that refuses the unit ("bad-setting"), even if a drop-in resets the line; drop-ins are
        // read with their errors ignored (unit_load_dropin()): there the commands before the error stay and the rest
        // of the file is dropped.
        // Checked with Debian's systemd 252 (test/oracle/systemd.test.ts).
        const fatal = parseExecCommands(d).fatal;
        if (fatal) {
          const span = { file: fatal.file, range: fatal.range };
          if (dropIn) {
            problems.push(finding(fatal.code, 'error', span, fatal.message.replace(REFUSED, 'systemd ignores the rest of this drop-in')));
            stop = true;
          } else {
            refused ??= fatal;
            problems.push(fatal);
          }
        }
      }
      switch (d.key) {
        case 'Environment':
          envDirectives = add(envDirectives, d);
          break;
        case 'EnvironmentFile':
          envFileDirectives = add(envFileDirectives, d);
          break;
        case 'ExecStart':
          execStarts = add(execStarts, d);
          break;
        case 'ExecStartPre':
          execStartPre = add(execStartPre, d);
          break;
        case 'Slice':
          slice = d;
          break;
        case 'Type':
          // config_parse_service_type (src/core/load-fragment.c, DEFINE_CONFIG_PARSE_ENUM): a value that is no service
          // type, the empty one too, is logged and ignored; the type set before stays (checked with systemd 252).
          if (SERVICE_TYPES.has(d.value)) serviceType = d.value;
          else problems.push(finding('unit-syntax', 'warning', d.valueMap.span(0, d.value.length), `systemd ignores Type=${d.value}: it is no service type ("Failed to parse service type, ignoring"); the type stays ${serviceType}.`));
          break;
      }
    }
  }

  const environment: ServiceModel['environment'] = new Map();
  const environmentAssignments: EnvAssignment[] = [];
  for (const d of envDirectives) readEnvironmentDirective(d, environmentAssignments, problems);
  for (const a of environmentAssignments) environment.set(a.name, { assignment: a, source: 'Environment' });

  const envFileRefs: ServiceModel['envFileRefs'] = [];
  const fromFiles = new Map<string, EnvAssignment>();
  for (const d of envFileDirectives) {
    const ref = envFilePath(d);
    if (typeof ref === 'string') {
      problems.push(finding('unit-syntax', 'warning', d.valueMap.span(0, d.value.length), ref));
      continue;
    }
    const { path, optional } = ref;
    const hit = lookupEnvFile(path, d.keySpan.file);
    envFileRefs.push(hit ? { directive: d, path, optional, resolved: hit.path, by: hit.by } : { directive: d, path, optional });
    if (hit) for (const a of hit.env.assignments) fromFiles.set(a.name, a);
  }
  for (const [name, a] of fromFiles) environment.set(name, { assignment: a, source: 'EnvironmentFile' });

  return {
    service: {
      files,
      masked,
      execStart: execStarts.length === 1 ? execStarts[0] : execStarts.at(-1),
      execStarts,
      execStartPre,
      serviceType,
      slice,
      environment,
      environmentAssignments,
      envFileRefs,
      refused,
    },
    problems,
  };
}
