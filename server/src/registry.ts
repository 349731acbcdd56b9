/**
 * The registry: every file format the engine reads, every platform, every rule. It is the one place that lists
 * them, and the only module below the engine that knows all of them: the node model, the rules and the features get
 * what they need from it (node/ through the Workspace the engine makes). A format is one module, in formats/ or in
 * its platform's folder; a platform is one folder and one line in platforms/index.ts. The watch globs, the client's
 * document selector and package.json's activationEvents are derived from this list (`npm run formats`, checked by
 * test/unit/formats.test.ts).
 */
import type { Candidate, Format, FormatRegistry } from './formats/types.ts';
import type { NodeRegistry, PlatformSemantics, WrapperProgram } from './node/platform.ts';
import type { Rule, RuleMeta } from './rules/types.ts';
import { CORE_PARSER_CODES } from './rules/parser-codes.ts';
import type { Platform } from './platforms/types.ts';
import { heredocScript } from './formats/shell.ts';
import { basename, dirname } from './model/paths.ts';
import { systemdTemplateName, withoutTemplateExt } from './parse/template.ts';
import unit from './formats/unit.ts';
import dropin from './formats/dropin.ts';
import crio from './formats/crio.ts';
import containerd from './formats/containerd.ts';
import kubeadmConfig from './formats/kubeadm-config.ts';
import kubeletConfig from './formats/kubelet-config.ts';
import docker from './formats/docker.ts';
import envfile from './formats/envfile.ts';
import cloudInit from './formats/cloud-init.ts';
import butane from './formats/butane.ts';
import ignition from './formats/ignition.ts';
import shell from './formats/shell.ts';
import mime from './formats/mime.ts';
import { yamlStreamFormat, type DocDetector } from './formats/yaml-stream.ts';
import { CORE_RULES } from './rules/index.ts';
import { PLATFORMS } from './platforms/index.ts';

/** A document of a multi-document stream, as the format it would be alone (formats/yaml-stream.ts). */
const docKind: DocDetector = (c) => FORMATS.find((f) => f !== yamlStream && f.byContent?.(c))?.kind;
const yamlStream = yamlStreamFormat(docKind);

const CORE_FORMATS: readonly Format[] = [mime, yamlStream, cloudInit, butane, ignition, unit, dropin, crio, containerd, kubeadmConfig, kubeletConfig, docker, envfile, shell];

/** Every format, in the order recognition tries them (Format.rank). */
export const FORMATS: readonly Format[] = [...CORE_FORMATS, ...PLATFORMS.flatMap((p: Platform) => p.formats)].sort((a, b) => a.rank - b.rank);

/** Every rule: the core's, then each platform's own. */
export const RULES: readonly Rule[] = [...CORE_RULES, ...PLATFORMS.flatMap((p: Platform) => p.rules)];

/** Every code a reader reports itself: the core's, then each platform's. */
export const PARSER_CODES: readonly RuleMeta[] = [...CORE_PARSER_CODES, ...PLATFORMS.flatMap((p: Platform) => p.codes)];

export type FormatKind = string;

const BY_KIND = new Map<string, Format>(FORMATS.map((f) => [f.kind, f]));
const PLATFORM_OF_KIND = new Map<string, string>(PLATFORMS.flatMap((p: Platform) => p.formats.map((f) => [f.kind, p.id] as const)));
const BY_ID = new Map<string, Platform>(PLATFORMS.map((p: Platform) => [p.id, p]));

export function formatOf(kind: FormatKind): Format {
  const f = BY_KIND.get(kind);
  if (!f) throw new Error(`no format ${kind}`);
  return f;
}

export function platformOf(id: string): Platform | undefined {
  return BY_ID.get(id);
}

/** Kinds that are a node by themselves when nothing claims them, in the order they are tried. */
export const STANDALONE_ORDER: readonly FormatKind[] = FORMATS.flatMap((f) => (f.join.kind === 'standalone' ? [{ k: f.kind, o: f.join.order }] : []))
  .sort((a, b) => a.o - b.o)
  .map((x) => x.k);

export const RUNTIME_KINDS: ReadonlySet<FormatKind> = new Set(FORMATS.filter((f) => f.join.kind === 'runtime').map((f) => f.kind));

/** Kinds whose files hold other files (embed/payload.ts). */
export const CARRIER_KINDS: ReadonlySet<FormatKind> = new Set(FORMATS.filter((f) => f.join.kind === 'carrier').map((f) => f.kind));

/** Kinds whose line ends are counted as systemd counts them (a fix must not fuse two). */
export const SYSTEMD_LINE_KINDS: ReadonlySet<FormatKind> = new Set(FORMATS.filter((f) => f.systemdLineEnds).map((f) => f.kind));

const WRAPPERS = new Map<string, { platform: PlatformSemantics; wrapper: WrapperProgram }>(
  PLATFORMS.flatMap((p: Platform) => (p.wrapper ? [...p.wrapper.names].map((n) => [n, { platform: p, wrapper: p.wrapper! }] as const) : [])),
);

/** The registry as the node model gets it (node/platform.ts NodeRegistry). */
export const REGISTRY: NodeRegistry = {
  detectKind: (path, text) => detectKind(path, text),
  formatOf,
  carrierKinds: CARRIER_KINDS,
  runtimeKinds: RUNTIME_KINDS,
  standaloneOrder: STANDALONE_ORDER,
  systemdLineKinds: SYSTEMD_LINE_KINDS,
  platformOfKind: (kind) => PLATFORM_OF_KIND.get(kind),
  platform: (id) => BY_ID.get(id),
  wrapper: (program) => WRAPPERS.get(program),
};
const _check: FormatRegistry = REGISTRY;
void _check;

const HEAD = 65536;

/**
 * What kind of file this is, from its path first and its content second (only the first 64 KiB are looked at).
 * Undefined means "not ours": the engine ignores it.
 */
export function detectKind(path: string, text: string): FormatKind | undefined {
  const name = basename(path);
  const head = text.length > HEAD ? text.slice(0, HEAD) : text;
  const found = detectByName(candidate(path, name, head));
  if (found !== undefined) return found;
  // A template of a unit, drop-in or environment file (Kubespray's `kubelet.service.j2`, a Terraform
  // `kubelet.service.tftpl`) is read as the file it renders, by the same tests as that name: a drop-in still needs its
  // `*.service.d/` folder or a unit section. Its expressions are unknown values (formats/_systemd-template.ts), and in
  // a Terraform template `${name}` is a placeholder while `$${VAR}` is systemd's `${VAR}` (node/terraform.ts).
  const rendered = systemdTemplateName(name);
  if (rendered !== undefined) {
    const kind = detectByName(candidate(path, rendered, head));
    if (kind !== undefined && SYSTEMD_KINDS.has(kind)) return kind;
  }
  // A template of a config file (`kubelet-config.yaml.j2`, `config.yaml.tpl`) is read as the file it renders; the
  // config parser masks its expressions (parse/template.ts). (Runtime configs are read through parse/runtime-template.ts.)
  // A name with nothing before the template suffix but a stem (`kubeadm-config.tpl`, Terraform's `nodepool_default.tpl`)
  // renders a file whose format only its content tells: it is tried as YAML, the only syntax these formats share.
  const bare = withoutTemplateExt(name);
  if (bare !== undefined) {
    const t = candidate(path, bare.includes('.') ? bare : `${bare}.yaml`, head);
    for (const f of TEMPLATE_FORMATS) if (f.byPath?.(t) || f.byContent?.(t)) return f.kind;
  }
  return undefined;
}

const TEMPLATE_FORMATS = FORMATS.filter((f) => f.templateNames);

/** Kinds whose files may be named as templates of them (`kubelet.service.j2`): systemd's own files. */
const SYSTEMD_KINDS: ReadonlySet<FormatKind> = new Set([unit.kind, dropin.kind, envfile.kind]);

/** The kind recognition gives a candidate: every byPath in list order, then every byContent. */
function detectByName(c: Candidate): FormatKind | undefined {
  // Commands that write a file are a script whatever the file is named (`kubelet.service` holding `cat > ... <<EOF`).
  const written = heredocScript(c.head);
  for (const f of FORMATS) if ((!written || f.readsScripts) && f.byPath?.(c)) return f.kind;
  const script = written || SCRIPT_HEAD.test(c.head);
  for (const f of FORMATS) if ((!script || f.readsScripts) && f.byContent?.(c)) return f.kind;
  return undefined;
}

/** A first line `#!`: the kernel runs the file with that interpreter, whatever else the text holds. */
const SCRIPT_HEAD = /^\uFEFF?#!/;

function candidate(path: string, name: string, head: string): Candidate {
  const lower = name.toLowerCase();
  const dot = lower.lastIndexOf('.');
  return { path, name, lower, dir: basename(dirname(path)), ext: dot < 0 ? '' : lower.slice(dot + 1), head };
}

export { looksLikeEnvFile } from './formats/envfile.ts';
