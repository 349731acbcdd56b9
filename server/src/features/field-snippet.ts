/**
 * Snippets for a KubeletConfiguration field typed as a new key in YAML: the
 * key with the shape its value takes (a choice for enums and booleans, an
 * indented entry for maps and lists, the default as a placeholder), so
 * completing `cgroupDriver` leaves the cursor on a choice of `systemd` and
 * `cgroupfs` instead of a bare colon.
 */
import { EVICTION_SIGNALS, RESERVABLE_RESOURCES } from '../catalog/defaults.ts';
import type { FieldInfo } from '../catalog/fields.ts';

const RESERVATION_MAPS = new Set(['kubeReserved', 'systemReserved']);
const SIGNAL_MAPS = new Set(['evictionHard', 'evictionSoft', 'evictionSoftGracePeriod', 'evictionMinimumReclaim']);
/** The signals a kubelet takes in its eviction maps (those it ignores when set are left out). */
export const KUBELET_SIGNALS: readonly string[] = Object.freeze(EVICTION_SIGNALS.filter((s) => !s.ignoredWhenSet).map((s) => s.signal));

/** Text inside a snippet placeholder or choice: `$`, `}`, `\`, and for choices `,` and `|`, are escaped. */
function esc(s: string, choice = false): string {
  return s.replace(choice ? /[$}\\,|]/g : /[$}\\]/g, (c) => '\\' + c);
}

function choice(n: number, values: readonly string[]): string {
  return `\${${n}|${values.map((v) => esc(v, true)).join(',')}|}`;
}

/** The default as the table writes it (`"\"\""`, `nil`, `[]`...) when it makes a useful placeholder, else ''. */
function placeholder(info: FieldInfo): string {
  const d = info.default?.trim();
  if (!d || d === '""' || d === '"\\"\\""' || d === 'nil' || d === '[]' || d === '{}' || /\s/.test(d)) return '';
  return d.replace(/^"(.*)"$/, '$1');
}

/**
 * The snippet for `info` as a new top-level key, or undefined when a plain `key: ` is as good. `signals`: the eviction
 * signals an eviction map's first key chooses from (a platform tool may take fewer than the kubelet).
 */
export function fieldSnippet(info: FieldInfo, signals: readonly string[] = KUBELET_SIGNALS): string | undefined {
  const key = info.path;
  if (info.valueKind === 'list-string') return `${key}:\n  - ${info.enumValues ? choice(1, info.enumValues) : '$1'}`;
  if (info.enumValues?.length) return `${key}: ${choice(1, info.enumValues)}`;
  switch (info.valueKind) {
    case 'bool':
      return `${key}: ${choice(1, info.default === 'true' ? ['true', 'false'] : ['false', 'true'])}`;
    case 'map-string':
    case 'map-bool':
      if (RESERVATION_MAPS.has(key)) return `${key}:\n  ${choice(1, RESERVABLE_RESOURCES)}: $2`;
      if (SIGNAL_MAPS.has(key)) return `${key}:\n  ${choice(1, signals)}: $2`;
      return `${key}:\n  \${1:name}: $2`;
    case 'object':
    case 'list-object':
    case 'other':
      return undefined;
    default: {
      const p = placeholder(info);
      return p ? `${key}: \${1:${esc(p)}}` : undefined;
    }
  }
}
