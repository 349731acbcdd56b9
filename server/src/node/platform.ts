/**
 * What the node model needs to know about a platform tool that writes the kubelet's configuration from the user's
 * files (Talos, EKS nodeadm, ...). Each platform states it once, in its own folder (server/src/platforms/<id>/), and
 * the engine hands it to the build through the registry (server/src/registry.ts): nothing here names a platform.
 *
 * Every field is required or says what its absence means, so a new platform cannot inherit another one's behaviour
 * by leaving something out.
 */
import type { FileSet, FormatRegistry, StandaloneRead } from '../formats/types.ts';
import type { PlatformInfo, Word } from '../parse/types.ts';
import type { Capacity, Item, Provenance, Setting } from './model.ts';
import type { Finding } from '../model/finding.ts';

/**
 * How the user's settings merge over what the platform writes:
 * - `fill-unset`: the user's configuration is decoded first, then the platform fills the fields left unset; a map of
 *   the user's replaces the platform's whole map (Talos);
 * - `merge-patch`: the platform's configuration is the base and the user's is merged over it like a kubelet
 *   `--config-dir` drop-in, maps key by key (nodeadm, Karpenter, kind).
 */
export type MergeRule = 'fill-unset' | 'merge-patch';

export interface PlatformBase {
  rule: MergeRule;
  settings: ReadonlyMap<string, Setting>;
}

/** Where the platform puts the kubelet's reserved cgroups, so advice and fixes name a cgroup that exists there. */
export type CgroupLayout =
  | { kind: 'systemd' }
  | {
      /** Its own hierarchy (no systemd slices): the cgroups to suggest, and a sentence on what they hold. */
      kind: 'own';
      systemReserved: string;
      kubeReserved: string;
      note: string;
    };

/** A field (or `parent.child` path) of the user's block the platform refuses, with its message. */
export interface Refusal {
  readonly field: string;
  /** The message's first sentence says what happens (the platform's own words in quotes). */
  readonly message: string;
}

/** How the platform's blocks of user settings enter the effective configuration. */
export interface SourceRule {
  /** The first block: the kubelet's own --config ('config') or a drop-in over the platform's ('config-dir'). */
  how: 'config' | 'config-dir';
  /** What the user's file calls the block, for provenance ("spec.kubeletConfig"); PlatformInfo.configLabel wins. */
  label?: string;
  /** Blocks after the first (patches of one machine), when they merge unlike the first. */
  later?: { how: 'config' | 'config-dir'; label: string };
}

/** A program that runs the kubelet inside itself (k3s, RKE2): the unit is the platform's, not the kubelet's. */
export interface WrapperProgram {
  /** Base names of the executable. */
  readonly names: ReadonlySet<string>;
  /** Whether this ExecStart= command line (its text, prefixes removed) runs a kubelet: the subcommand and flags that do. */
  runsKubelet(commandLine: string): boolean;
  /** What the command line and the files it names give the kubelet. */
  read(files: FileSet, anchor: string, argv: readonly Word[]): StandaloneRead;
}

export interface PlatformSemantics {
  /** The id a parser writes into PlatformInfo.tool. */
  readonly id: string;
  /** Its name in messages: "Talos". */
  readonly name: string;
  /** Its user page (docs/formats/<page>.md). */
  readonly docs: string;
  readonly merge: MergeRule;
  /** What it writes under the user's settings; an empty map when it writes nothing. */
  base(info: PlatformInfo): ReadonlyMap<string, Setting>;
  /**
   * What it computes from the machine once the capacity is known (nodeadm's reservations from the cores and the ENI
   * pod limit). Undefined when nothing changes; a platform without this computes nothing from the machine.
   */
  capacitySettings?(info: PlatformInfo, settings: ReadonlyMap<string, Setting>, capacity: Capacity | undefined): Map<string, Setting> | undefined;
  readonly source: SourceRule;
  /** Fields of the user's block it refuses; none when absent. */
  refused?(info: PlatformInfo): readonly Refusal[];
  /** Flags of the user's it refuses (name → message); none when absent. */
  refusedFlags?: ReadonlyMap<string, string>;
  readonly cgroups: CgroupLayout;
  /** Programs that run the kubelet inside them; none when absent. */
  readonly wrapper?: WrapperProgram;
  /**
   * Its own names of KubeletConfiguration fields and other kubelet words (eviction signals, `--flags` it sets from
   * fields), where its file spells them otherwise and writes the same value (imageGCHighThresholdPercent →
   * imageGcHighThreshold, --eviction-hard → evictionHard): the findings about its files, and what their fixes write
   * there, say these. None when absent.
   */
  readonly names?: Readonly<Record<string, string>>;
}

/** The registry as the node model sees it: formats, and platforms by id. */
export interface NodeRegistry extends FormatRegistry {
  platform(id: string): PlatformSemantics | undefined;
  /** The wrapper programs of every platform (units whose program is one of these belong to that platform). */
  wrapper(program: string): { platform: PlatformSemantics; wrapper: WrapperProgram } | undefined;
}

export function platformBase(spec: PlatformSemantics, info: PlatformInfo): PlatformBase {
  return { rule: spec.merge, settings: spec.base(info) };
}

// ---------- helpers the platforms' bases share ----------

/**
 * A base that does not depend on the node (nodeadm's config.json before the instance type is known): made once and
 * shared by every node's model, so frozen (models never change; a write would throw in a test). One copy per node
 * made half of a nodeadm node's model: 25 MB in a stream of 10,000 NodeConfigs.
 */
export function sameForEveryNode(make: () => Map<string, Setting>): () => ReadonlyMap<string, Setting> {
  let made: ReadonlyMap<string, Setting> | undefined;
  return () => {
    if (!made) {
      made = make();
      for (const v of made.values()) deepFreeze(v);
    }
    return made;
  };
}

function deepFreeze(v: unknown): void {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return;
  Object.freeze(v);
  for (const x of Object.values(v)) deepFreeze(x);
}

export function scalar(value: string | number | boolean, from: Provenance): Setting {
  return { kind: 'scalar', value, text: String(value), from };
}

export function map(entries: Record<string, string>, from: Provenance): Setting & { kind: 'map' } {
  const items: Item[] = Object.entries(entries).map(([key, v]) => ({ key, value: v, text: v, from }));
  return { kind: 'map', items, from };
}

/** An error a program prints, quoted in a message: `fails with ("...")`. */
const QUOTED_ERROR = /(\("[^"]*"\))/;

/**
 * A finding about a platform's file in the platform's own words: each KubeletConfiguration name of `names` (a field,
 * or another name the platform spells its own way, such as GKE's eviction signals) in the message, in its fixes'
 * titles and in the text they write into that file becomes the file's name for it (a whole name only, not part of a
 * longer one): a fix that wrote the kubelet's name would write a key the platform's tool refuses. Findings about other
 * files are returned as they are.
 */
export function inPlatformWords(f: Finding, names: Readonly<Record<string, string>>, file: string): Finding {
  if (f.file !== file) return f;
  const rename = (text: string): string => {
    let out = text;
    for (const [field, own] of Object.entries(names)) {
      if (!out.includes(field)) continue;
      out = out.replace(new RegExp(`(?<![\\w.-])${field.replace(/[.]/g, '\\.')}(?![\\w-])`, 'g'), own);
    }
    return out;
  };
  // A program's own error quoted as `("...")` stays as the program prints it.
  const words = (text: string): string => text.split(QUOTED_ERROR).map((part, i) => (i % 2 ? part : rename(part))).join('');
  const message = words(f.message);
  let fixes = f.fixes;
  if (fixes?.length) {
    const renamed = fixes.map((x) => {
      const title = words(x.title);
      const edits = x.edits.map((e) => (e.file === file ? { ...e, newText: words(e.newText) } : e));
      return title === x.title && edits.every((e, i) => e.newText === x.edits[i].newText) ? x : { ...x, title, edits };
    });
    if (renamed.some((x, i) => x !== fixes![i])) fixes = renamed;
  }
  return message === f.message && fixes === f.fixes ? f : { ...f, message, ...(fixes ? { fixes } : {}) };
}
