/**
 * Links made by a name alike (issue #37). A unit's `--config=/var/lib/kubelet/config.yaml` found no file at that path
 * under the unit's folders, only a `config.yaml` elsewhere whose path ends the same way. That may be the file an
 * install step copies there, or an unrelated one (a Helm chart's, another node's). The node is read with the guess,
 * so the user sees what it would give; but an error or a warning stands only when the node also gives it without the
 * guess, each file read on its own (`confirmed`). Anything else rests on the guess and says so.
 */
import type { Finding } from '../model/finding.ts';
import type { NodeLink, NodeModel } from './model.ts';
import { readablePath } from '../embed/payload.ts';
import { findingKey, loud, lowered } from './evidence.ts';

export function restOnGuesses(found: Finding[], node: NodeModel, confirmed: () => readonly Finding[]): Finding[] {
  if (!found.some(loud)) return found;
  const keys = new Set<string>();
  for (const f of confirmed()) if (loud(f)) keys.add(findingKey(f));
  const guesses = node.links!.filter((l) => l.by === 'name');
  const shown = guesses
    .slice(0, 2)
    .map((l) => `${readablePath(l.to)} is ${referenceText(l)}`)
    .join(' and ');
  const condition = `Only if ${shown}, which ${guesses.length === 1 ? 'it matches' : 'they match'} by name alone.`;
  return found.map((f) => (loud(f) && !keys.has(findingKey(f)) ? lowered(f, condition) : f));
}

/** The reference as written: `--config=/var/lib/kubelet/config.yaml`, `EnvironmentFile=/etc/default/kubelet`. */
export function referenceText(l: Pick<NodeLink, 'what' | 'ref'>): string {
  return l.what === 'EnvironmentFile=' ? `${l.what}${l.ref}` : `${l.what}=${l.ref}`;
}
