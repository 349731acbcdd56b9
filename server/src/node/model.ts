/**
 * The node model: what one kubelet will run with, every value carrying
 * where it came from. Rules and allocatable read only this.
 */
import type { Span } from '../model/range.ts';
import type { LinkBy } from '../model/paths.ts';
import type { VersionMention } from '../model/version-mention.ts';

export type { VersionMention };
import type { Finding } from '../model/finding.ts';
import type {
  ConfigFileParse, EnvFile, KubeadmDoc, KubeletConfigDoc, RuntimeCgroupDriver, UnitDirective, UnitFile, Word,
} from '../parse/types.ts';
import type { Quantity } from '../quantity/quantity.ts';
import type { FlagInfo } from '../catalog/flags.ts';
import type { ExecReference } from '../parse/systemd/exec.ts';

/** How a value reached the kubelet. */
export interface Provenance {
  how: 'flag' | 'config' | 'config-dir' | 'kubeadm-extra-args' | 'default' | 'derived' | 'platform';
  /** For values a platform tool supplies (how: 'platform'): its words, e.g. "Talos default". */
  label?: string;
  /** Where the value is written (absent for defaults). */
  span?: Span;
  /** The flag name, for values set by a flag. */
  flag?: string;
  /** The variable a flag came through (`$KUBELET_EXTRA_ARGS`), with the reference in ExecStart. */
  via?: { variable: string; span: Span };
  /** The config field path, for values from a config file. */
  field?: string;
  /**
   * A platform default the platform sets only for kubelets of this minor version or newer (kops: the graceful-shutdown
   * periods from 1.21). The node drops it for an older stated version (node/build.ts completeNode).
   */
  since?: string;
  /**
   * A platform default that depends on something no file states, with the condition in words ("the machine is a
   * worker: no machine.type says which"): what rests on it is information that says so (node/evidence.ts).
   */
  assumed?: string;
}

/** One element of a list or one key of a map, with its own places. */
export interface Item {
  key?: string;
  value: string | number | boolean | null;
  /** Source text of the value. */
  text: string;
  keySpan?: Span;
  valueSpan?: Span;
  from: Provenance;
  /** Set when the value is a nested mapping or sequence rather than a scalar. */
  nested?: 'map' | 'seq';
  /** The value is a template expression (`whole`: unknown) or holds some (`partial`), see ScalarNode.template. */
  template?: 'whole' | 'partial';
  /** The key is a template expression: which key it is is unknown. */
  keyTemplate?: boolean;
}

/** An effective setting of the kubelet. */
export type Setting =
  | { kind: 'scalar'; value: string | number | boolean | null; text: string; span?: Span; from: Provenance; template?: 'whole' | 'partial' }
  | { kind: 'map'; items: Item[]; from: Provenance }
  | { kind: 'list'; items: Item[]; from: Provenance }
  | { kind: 'object'; from: Provenance };

/** One `--flag[=value]` of the final kubelet command line. */
export interface FlagUse {
  /** Name as written, without dashes. */
  written: string;
  /** Name after the kubelet's normalisation (`_` -> `-`). */
  name: string;
  /** The catalog's entry for `name` (undefined for cobra's --help), looked up once when the flag is read. */
  info: FlagInfo | undefined;
  /** Value text; undefined for a bare bool flag. */
  value?: string;
  /** The word(s) of the flag: the name word, and the value word when given as `--flag value`. */
  nameWord: Word;
  valueWord?: Word;
  /** Offset of the value inside `valueWord.text` (after `=` or 0). */
  valueOffset: number;
  /** Span of the value (or the name when none). */
  valueSpan: Span;
  /** Span of the whole flag (name through value). */
  span: Span;
  from: 'command-line' | 'kubeadm-extra-args';
  /** For extra args: what the file calls them (`extraArgs` in Talos, `kubelet.flags` in nodeadm); kubeadm's by default. */
  argsLabel?: string;
}

export interface PositionalArg {
  word: Word;
}

export interface ServiceModel {
  /** Files of the unit in the order systemd applies them (main unit first, then drop-ins). */
  files: UnitFile[];
  /** Drop-ins or units hidden by a same-named file of higher priority. */
  masked: { path: string; by: string }[];
  /** The ExecStart= that survives resets, if exactly one. */
  execStart?: UnitDirective;
  /** All ExecStart= assignments in effect after resets (more than one is an error for Type=simple). */
  execStarts: UnitDirective[];
  execStartPre: UnitDirective[];
  serviceType: string;
  slice?: UnitDirective;
  /** Environment after Environment= and EnvironmentFile= (files override). */
  environment: Map<string, { assignment: import('../parse/types.ts').EnvAssignment; source: 'Environment' | 'EnvironmentFile' }>;
  /** Every assignment of the Environment= directives in effect (after resets), in order. */
  environmentAssignments: import('../parse/types.ts').EnvAssignment[];
  /** EnvironmentFile= references in effect, with their resolution. */
  envFileRefs: { directive: UnitDirective; path: string; optional: boolean; resolved?: string; by?: LinkBy }[];
  /** A fatal error in an Exec*= line that a later reset drops: systemd still refuses the unit. */
  refused?: Finding;
}

export interface ConfigRef {
  /** The flag (or kubeadm default) that names the file. */
  flag: 'config' | 'config-dir';
  path: string;
  span: Span;
  resolved?: string[];
  /** How `resolved` was found: the same path under the node's root, or only a name alike (a guess). */
  by?: LinkBy;
}

export interface UnreadFile {
  readonly path: string;
  /** The path as people read it: a carrier's payload as `user-data.sh → /etc/...`. */
  readonly shown: string;
  /** Why it was not read, in words. */
  readonly why: string;
}

/**
 * One file a node reads because another names it, and why (issue #37): the reference, where it is written, and how
 * the file was found. A link by name alone is a guess: the engine rests no error or warning on it (engine.ts).
 */
export interface NodeLink {
  /** What names the file, in the user's words: `--config`, `--config-dir`, `EnvironmentFile=`. */
  readonly what: string;
  /** The path as written. */
  readonly ref: string;
  readonly span: Span;
  readonly to: string;
  readonly by: LinkBy;
}

/** Made once by the analysis (node/build.ts completeNode) and never changed afterwards. */
export interface NodeModel {
  /** A stable id: the path of the file that anchors the node. */
  readonly id: string;
  /** Every file of the node, anchor first. */
  readonly files: string[];
  readonly service?: ServiceModel;
  /** The kubelet command line after variable expansion (without the program). */
  readonly program?: Word;
  readonly argv: Word[];
  /** `$NAME`/`${NAME}` references of the ExecStart= that survives resets, from the expansion of argv. */
  readonly execReferences?: ExecReference[];
  /** Variables of the service holding kubelet flags that no Exec*= line references: those flags never reach the kubelet. */
  readonly unusedVariables?: import('./unused-variables.ts').UnusedVariable[];
  /** More such variables than the node keeps (MAX_UNUSED_VARIABLES): how many, and the first of them. */
  readonly unusedVariablesMore?: { readonly count: number; readonly first: import('../parse/types.ts').EnvAssignment };
  readonly flags: FlagUse[];
  readonly positional: PositionalArg[];
  readonly configRefs: ConfigRef[];
  /** Files read because another file names them, each with how it was found (absent: none). */
  readonly links?: readonly NodeLink[];
  /**
   * Files of this node the tool saw but could not read (a drop-in written by an unquoted here-document, a referenced
   * file whose template breaks its syntax): the node is incomplete, and what rests on something being absent holds
   * only if they do not change it (node/evidence.ts). Absent: the node is complete as far as the tool can see.
   */
  readonly unread?: readonly UnreadFile[];
  readonly kubeletConfigs: KubeletConfigDoc[];
  readonly kubeadm: KubeadmDoc[];
  readonly runtimes: RuntimeCgroupDriver[];
  /** Effective settings by KubeletConfiguration field path (flags mapped to their fields). */
  readonly settings: ReadonlyMap<string, Setting>;
  /** Config-file settings that a flag replaced or merged into (the kubelet re-applies flags over the file). */
  readonly shadowed: ReadonlyMap<string, Setting>;
  /** Flags with no config field (experimental-allocatable-ignore-eviction, ...), last value wins. */
  readonly flagOnly: ReadonlyMap<string, FlagUse>;
  readonly capacity?: Capacity;
  readonly capacitySource?: string;
  /**
   * Several instance types the node may be (a Karpenter NodePool's requirement, a mixed-instances group), each with
   * its capacity; `capacity` is then the first of them unless a modeline or setting gave one. Absent for one type.
   */
  readonly capacityCandidates?: readonly CandidateCapacity[];
  /** Template expressions of the node's units and environment files (config documents carry their own). */
  readonly templates?: import('../parse/types.ts').TemplateSpans[];
  /** The kubelet image a unit runs the kubelet from (node/container-run.ts), when its tag states a version. */
  readonly kubeletImage?: VersionMention;
  readonly kubernetesVersion: string;
  /** Where kubernetesVersion comes from, in words (a modeline, the setting, an image tag, kubeadm's kubernetesVersion, the default). */
  readonly kubernetesVersionSource?: string;
  /**
   * The version the files (or options) state when it is newer than the catalog's data (node/version.ts withinCatalog):
   * kubernetesVersion is then the newest the catalog knows, and a name unknown to it may be new in this one.
   */
  readonly kubernetesVersionStated?: string;
  /**
   * No file or option states the version: kubernetesVersion is the newest the catalog knows, an assumption. A finding
   * that rests on it is an error or a warning only when every version gives it (node/evidence.ts).
   */
  readonly kubernetesVersionAssumed?: boolean;
  /** The platform tool that writes this kubelet's configuration from the user's file, as its file says it. */
  readonly platform?: import('../parse/types.ts').PlatformInfo;
  /** What that platform does (its folder's declaration, from the registry): set whenever `platform` is. */
  readonly platformSpec?: import('./platform.ts').PlatformSemantics;
  /** Maps of the platform's base that a map of the user's replaced whole (node/platform.ts MergeRule fill-unset). */
  readonly platformReplaced?: PlatformReplaced[];
}

/** A platform default map the user's map replaced: the defaults' keys the user's map lacks are lost. */
export interface PlatformReplaced {
  field: string;
  base: Setting & { kind: 'map' };
  by: Setting;
}

/** A capacity an instance type name stands for (node/capacity.ts capacitiesOfInstanceTypes). */
export interface CandidateCapacity {
  readonly name: string;
  readonly capacity: Capacity;
  /** "m5.large: 2 vCPU, 8 GiB, 29 pods (EC2 table)" */
  readonly source: string;
}

export type { InstanceTypeMention } from '../model/mentions.ts';
import type { InstanceTypeMention } from '../model/mentions.ts';

/** Node capacity in base units. */
export interface Capacity {
  cpu?: bigint; // millicores
  memory?: bigint; // bytes
  'ephemeral-storage'?: bigint; // bytes
  pods?: bigint;
  /** hugepages-2Mi, hugepages-1Gi, ... in bytes */
  hugepages: Map<string, bigint>;
}

export type { Finding, Quantity, EnvFile, ConfigFileParse };
