/**
 * Units, drop-ins and env files that are, or are carried by, a Terraform template (a Butane config or cloud-config
 * rendered by `templatefile`, as poseidon/typhoon's are; a unit with `%{ for }` directives). Terraform renders every `${name}` before systemd sees the file; only
 * `$${VAR}` reaches systemd as `${VAR}` (hashicorp/hcl hclsyntax template escapes). So in such a payload a `${...}`
 * is a placeholder, unknown until rendered, not a systemd variable that nothing sets: findings at one are dropped
 * like findings at any template placeholder (node/template.ts placeholderTest).
 */
import { LineIndex, type Span } from '../model/range.ts';
import { isTemplatePath, isTerraformTemplate, scanTemplates } from '../parse/template.ts';
import type { TemplateSpans } from '../parse/types.ts';
import type { Workspace } from './parse-cache.ts';

const SYSTEMD_KINDS: ReadonlySet<string> = new Set(['unit', 'dropin', 'envfile']);

/** The `${...}` places of the node's systemd files that are (or are carried by) a Terraform template; undefined when none. */
export function terraformPlaces(ws: Workspace, files: readonly string[]): TemplateSpans | undefined {
  let unknown: Span[] | undefined;
  const isTerraform = new Map<string, boolean>();
  for (const path of files) {
    const kind = ws.kind(path) ?? '';
    const payload = ws.payload(path);
    // A flag list or environment file a script's template holds (`--kubelet-extra-args '... ${kubelet_extra_args}'` in
    // a `userdata.sh.tpl`): in single quotes the shell leaves `${...}` alone, and systemd does not expand an
    // environment file's values, so only the template's renderer can have meant it. In a unit `${VAR}` is systemd's.
    const systemd = SYSTEMD_KINDS.has(kind) && !(kind === 'envfile' && payload && isTemplatePath(payload.host));
    if (!systemd && !(payload && isTemplatePath(payload.host))) continue;
    // The template is the carrier of a payload, or the file itself (a `kubelet.service.tftpl`, a unit with `%{ for }`).
    const host = payload?.host ?? path;
    let tf = isTerraform.get(host);
    if (tf === undefined) isTerraform.set(host, (tf = isTerraformTemplate(host, ws.text(host) ?? '')));
    if (systemd && !tf) continue;
    const text = ws.text(path) ?? '';
    let lines: LineIndex | undefined;
    for (const e of scanTemplates(text, { dollar: true })) {
      if (e.open !== '${') continue;
      lines ??= new LineIndex(text);
      (unknown ??= []).push({ file: path, range: lines.range(e.start, e.end) });
    }
  }
  return unknown ? { unknown, partial: [] } : undefined;
}

/**
 * Is this unit, drop-in or env file (or the carrier it comes from) a Terraform template? Then Terraform renders
 * `$${VAR}` to `${VAR}` before systemd reads it (parse/systemd/exec.ts expandExecArgv `terraform`).
 */
export function inTerraformTemplate(ws: Workspace, path: string): boolean {
  const host = ws.payload(path)?.host ?? path;
  return isTerraformTemplate(host, ws.text(host) ?? '');
}
