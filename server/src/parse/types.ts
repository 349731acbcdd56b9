/**
 * What each parser hands to the node model. Parsers keep exact source
 * places for everything they return; nothing downstream re-reads text.
 */
import type { Finding } from '../model/finding.ts';
import type { Span, TextMap } from '../model/range.ts';

// ---------- systemd units and drop-ins ----------

/** One logical assignment `Key=value` of a unit file, after continuation joining. */
export interface UnitDirective {
  section: string; // section name without brackets, e.g. "Service"
  key: string;
  /** Logical value: continued lines joined (the continuing `\` becomes a space), trimmed; quotes not removed. */
  value: string;
  keySpan: Span;
  /** Maps offsets of `value` to file positions; its segments are the physical pieces the value came from. */
  valueMap: TextMap;
  /** Whole logical line, from its first physical line to the end of its last. */
  span: Span;
  /** Physical line systemd reports errors on (the last one of a continued line). */
  lastLine: number;
  /** The line holds a continued value (more than one physical line), read without building any position. */
  continued: boolean;
}

export interface UnitSection {
  name: string;
  span: Span; // the `[Name]` header
}

export interface UnitFile {
  path: string;
  sections: UnitSection[];
  directives: UnitDirective[];
  /** Parse-level problems systemd logs (missing '=', assignment outside section, line too long, ...). */
  problems: Finding[];
  /**
   * Physical lines (not comments) ending in an unpaired `\` followed by blanks:
   * systemd does not continue them. `backslash` and `end` are characters on
   * `line` (the `\`, and the end of the trailing blanks). Absent when none.
   */
  trailingBlankContinuations?: { line: number; backslash: number; end: number }[];
  /** Go/Jinja template expressions in the file (systemd reads them literally; findings about them are not reported). */
  template?: TemplateSpans;
  /**
   * Variables a commented-out `Environment=` line would set (`#Environment="KUBELET_NODE_IP=--node-ip x.x.x.x"`), with
   * the comment's span: switched off on purpose, so a reference to one that nothing else sets is no oversight.
   */
  commentedEnvironment?: { name: string; span: Span }[];
}

// ---------- words and variables ----------

/** One argument of a command line or one word of a variable's value. */
export interface Word {
  /** The argument as the program receives it (quotes removed, escapes resolved). */
  text: string;
  /** Where the raw word is written (quotes included). */
  span: Span;
  /** Maps offsets of `text` to file positions (exact where text is a verbatim copy of the source). */
  map: TextMap;
  /** Set when the word came from expanding `$NAME`/`${NAME}`: the reference in the command line. */
  via?: { variable: string; span: Span };
}

/** A variable assignment from Environment= or an environment file. */
export interface EnvAssignment {
  name: string;
  /** Value as systemd stores it (quotes removed where systemd removes them). */
  value: string;
  nameSpan: Span;
  /** Maps offsets of `value` to file positions. */
  valueMap: TextMap;
  /** The whole assignment. */
  span: Span;
}

export interface EnvFile {
  path: string;
  assignments: EnvAssignment[];
  problems: Finding[];
  /**
   * The file as systemd before 254 reads it, when that differs: there a comment ending in `\` continues onto the
   * next line (src/basic/env-file.c, COMMENT_ESCAPE). Its problems are those of the newest reading.
   */
  before254?: EnvFile;
  /** Values that hold Go/Jinja template expressions: the whole value is unknown (its words split anywhere). */
  template?: TemplateSpans;
}

/** A parsed ExecStart=/ExecStartPre= value, before variable expansion. */
export interface ExecCommand {
  /** Prefix characters before the path: any of @ - : + ! !! */
  prefixes: string;
  /** argv as written: words after quote removal and C escapes; `$VAR` words are kept as written for expansion later. */
  words: RawExecWord[];
  problems: Finding[];
}

export interface RawExecWord {
  text: string;
  span: Span;
  map: TextMap;
}

// ---------- YAML / JSON documents ----------

export type ConfigNode = ScalarNode | MapNode | SeqNode;

export interface ScalarNode {
  kind: 'scalar';
  /** Type as the Go YAML/JSON decoder sees it (YAML 1.1 rules, like sigs.k8s.io/yaml). */
  value: string | number | boolean | null;
  /** Source text of the scalar (without quotes for quoted strings). */
  source: string;
  span: Span;
  /**
   * The scalar holds template expressions (parse/template.ts): `whole` when it is nothing else (its value is
   * unknown; `value` is the expression text), `partial` when literal text surrounds them (`{{ .mem }}Gi`; `value`
   * has each expression replaced by `1`, so that the literal part can be checked).
   */
  template?: 'whole' | 'partial';
}

export interface MapEntry {
  key: string;
  keySpan: Span;
  value: ConfigNode;
  /** The key holds a template expression: which field it names is unknown. */
  keyTemplate?: boolean;
}

export interface MapNode {
  kind: 'map';
  entries: MapEntry[];
  span: Span;
}

export interface SeqNode {
  kind: 'seq';
  items: ConfigNode[];
  span: Span;
}

/** One KubeletConfiguration document (from a YAML stream, a JSON file, or embedded in a kubeadm file). */
export interface KubeletConfigDoc {
  path: string;
  format: 'yaml' | 'json' | 'toml';
  apiVersion?: string;
  /** The document's root mapping. */
  root: MapNode;
  /** Index of the document in a multi-document YAML stream (0 for JSON). */
  docIndex: number;
  /** The file has YAML syntax errors: what was read is a best effort, and edits that insert lines are not safe. */
  syntaxErrors?: boolean;
  span: Span;
  /** Places of the file whose value is a template expression (absent when the file has none). */
  template?: TemplateSpans;
}

/**
 * Where a file's template expressions made values unknown: findings about what lies there are not reported
 * (a placeholder is not a mistake), except the checks that a partly literal value can still fail.
 */
export interface TemplateSpans {
  /** Values and keys that are nothing but template expressions. */
  unknown: Span[];
  /** Values with literal text around their expressions (`{{ .mem }}Gi`). */
  partial: Span[];
  /**
   * An expression alone on its line inserts lines nobody can see (`{{ toYaml .x | nindent 4 }}`): a setting missing
   * from the literal text may be there once the template is rendered. (The lines inside `{% if %}` are literal text.)
   */
  inserts?: boolean;
  /**
   * The file whose lines template directives decide (a unit with `{% if %}` lines): a key written twice may be in
   * two branches, of which the rendered file keeps one.
   */
  structureIn?: string;
  /**
   * The file's directives choose between alternatives (`{% else %}`, `{% elif %}`, `{{ else }}`, `%{ else }`): its
   * literal lines are several renderings at once, so two of them need not be in one rendered file.
   */
  branches?: string;
}

/** A kubeadm document (InitConfiguration, JoinConfiguration, ClusterConfiguration, ...). */
export interface KubeadmDoc {
  path: string;
  apiVersion: string;
  kind: string;
  /** nodeRegistration.kubeletExtraArgs, normalised: v1beta3 map entries and v1beta4 {name, value} items. */
  kubeletExtraArgs: { name: string; value: string; nameSpan: Span; valueSpan: Span }[];
  /** nodeRegistration.kubeletExtraArgs as written (for completion): its key, its value, and whether it is the v1beta4 list form. */
  kubeletExtraArgsNode?: { keySpan: Span; value: ConfigNode; list: boolean };
  /**
   * InitConfiguration / JoinConfiguration `patches.directory` (kubeadm v1beta3+): kubeadm applies the
   * `kubeletconfiguration*.yaml` patches there to the kubelet's configuration it writes.
   */
  patchesDirectory?: string;
  /** ClusterConfiguration.kubernetesVersion as written (`v1.30.2`, `stable-1.30`), with the span of its value. */
  kubernetesVersion?: { value: string; span: Span };
  /** What the file calls these flags when it is no kubeadm file (a platform's own key for them). */
  argsLabel?: string;
  span: Span;
  /** As KubeletConfigDoc.template. */
  template?: TemplateSpans;
}

/** Everything a YAML/JSON file of the kubelet family yields. */
export interface ConfigFileParse {
  path: string;
  kubeletConfigs: KubeletConfigDoc[];
  kubeadm: KubeadmDoc[];
  problems: Finding[];
  /** Set when a platform tool writes the kubelet's configuration from this file. */
  platform?: PlatformInfo;
  /**
   * The tool's blocks of kubelet settings as written, every key in the tool's own names, when `kubeletConfigs` holds
   * only the part that is KubeletConfiguration: what completion reads. Never read by rules.
   */
  blocks?: KubeletConfigDoc[];
}

/**
 * The keys a platform tool reads in its block of kubelet settings, when they are not every KubeletConfiguration
 * field (the format or parser that knows the tool owns the lists): completion offers these and no others.
 */
export interface PlatformKeys {
  /** The top-level names the tool reads, in its own spelling. */
  fields: readonly string[];
  /**
   * The names of `fields` whose value has the KubeletConfiguration field's shape (its snippet, its map keys and enum
   * values); the others are the tool's own (flag strings such as `evictionHard: memory.available<100Mi`) and get a
   * plain `name: `. Undefined: all of them.
   */
  kubeletShaped?: readonly string[];
  /** The tool's name for what a field becomes, when it is not the KubeletConfiguration field (`logLevel`: the flag v). */
  flags?: Readonly<Record<string, string>>;
  /** The eviction signals its eviction maps take, when fewer than the kubelet's. */
  signals?: readonly string[];
}

/**
 * A platform tool that builds the kubelet's configuration from the user's settings and its own base: the user's
 * KubeletConfiguration fragments are `kubeletConfigs`, the user's flags are `kubeletExtraArgs` of a pseudo kubeadm
 * document (they reach the command line the same way). What the tool does with them is its platform's
 * (server/src/platforms/<tool>/, node/platform.ts); nothing here depends on which tool it is.
 */
export interface PlatformInfo {
  /** The platform's id (its folder under server/src/platforms). */
  tool: string;
  /** The key that holds the kubelet settings (`kubelet:`), for findings about the tool's own values. */
  span: Span;
  /** Instance types the file's requirements name (a node pool's `node.kubernetes.io/instance-type In ...`). */
  instanceTypes?: { name: string; span: Span }[];
  /** What the file calls the block of kubelet settings, for provenance ("EC2NodeClass spec.kubelet"). */
  configLabel?: string;
  /** The tool's own feature gates, beside the kubelet's (they never reach the kubelet). */
  gates: { name: string; span: Span }[];
  /**
   * Where flags are written: a map of names or a list of `--name=value`; `node`: the value as written, for
   * completion (features/completion-args.ts), also while a first name is typed; `bare`: list items may leave out
   * the flag's leading dashes (completion follows the siblings' style).
   */
  args?: { span: Span; style: 'map' | 'list'; node?: ConfigNode; bare?: boolean }[];
  /** The keys the tool reads in its block of kubelet settings, when not every KubeletConfiguration field. */
  keys?: PlatformKeys;
  /** Reservations the node computes itself at boot: what the allocatable view says instead of a number. */
  computedOnNode?: { text: string; span: Span };
  /** Facts only the platform's own code reads (its machine role, AMI family, ...): each platform types its own. */
  facts?: Readonly<Record<string, unknown>>;
}

// ---------- container runtimes ----------

export interface RuntimeCgroupDriver {
  path: string;
  runtime: 'containerd' | 'docker' | 'crio';
  driver: 'systemd' | 'cgroupfs';
  /** False when the runtime's default applies (nothing in the file sets it). */
  explicit: boolean;
  /** The setting, or the file's first line when the default applies. */
  span: Span;
  /** Human words for where it came from, e.g. `SystemdCgroup = true in [plugins."io.containerd.grpc.v1.cri"...runc.options]`. */
  detail: string;
  /** The value as written, when set explicitly, and how a new driver is written there (for fixes). */
  value?: { span: Span; form: 'toml-bool' | 'toml-string' | 'json-exec-opt' };
}

export interface RuntimeConfigParse {
  path: string;
  runtime: 'containerd' | 'docker' | 'crio';
  /** Undefined when the file cannot be read as config (syntax errors are in problems). */
  cgroupDriver?: RuntimeCgroupDriver;
  problems: Finding[];
}

/** A key written twice in one mapping/object. Go keeps the last one (see parse/config.ts). */
export interface DuplicateKey {
  key: string;
  /** The earlier occurrence (overridden). */
  first: Span;
  /** The later occurrence (the one the kubelet's lenient decoding keeps). */
  second: Span;
  /** One of the two came into the mapping through a `<<` merge key (go-yaml v3 does not compare those). */
  merged?: boolean;
  /** The earlier entry itself, and the mapping the later one stays in (a reader that takes both, as k3s does). */
  earlier?: MapEntry;
  map?: MapNode;
}

/** Entry of a map by key (the effective one: duplicates were already reduced to the last). */
export function getEntry(m: MapNode, key: string): MapEntry | undefined {
  const es = m.entries;
  for (let i = es.length - 1; i >= 0; i--) if (es[i].key === key) return es[i];
  return undefined;
}
