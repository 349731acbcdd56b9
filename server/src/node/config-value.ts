/** The effective value of a nested KubeletConfiguration field (`memorySwap.swapBehavior`), flag first. */
import type { Span } from '../model/range.ts';
import type { ConfigNode } from '../parse/types.ts';
import type { NodeModel } from './model.ts';

export interface FieldValue {
  value: string | number | boolean | null;
  text: string;
  span: Span;
  how: 'flag' | 'config';
}

/** Dotted field paths split once: rules ask for the same few paths of every node. */
const PARTS = new Map<string, string[]>();

export function fieldValue(node: NodeModel, path: string): FieldValue | undefined {
  const s = node.settings.get(path);
  if (s?.kind === 'scalar' && s.span) return { value: s.value, text: s.text, span: s.span, how: s.from.how === 'flag' || s.from.how === 'kubeadm-extra-args' ? 'flag' : 'config' };
  // A platform tool's value (Talos, nodeadm: node/platform.ts) is written nowhere in the user's file: it is placed
  // at the key that holds the user's kubelet settings.
  if (s?.kind === 'scalar' && s.from.how === 'platform' && node.platform) return { value: s.value, text: s.text, span: node.platform.span, how: 'config' };
  if (!path.includes('.')) return undefined;
  let parts = PARTS.get(path);
  if (!parts) {
    if (PARTS.size >= 1024) PARTS.clear(); // (bounded, should a user's key ever be asked for)
    PARTS.set(path, (parts = path.split('.')));
  }
  for (let i = node.kubeletConfigs.length - 1; i >= 0; i--) {
    let n: ConfigNode | undefined = node.kubeletConfigs[i].root;
    for (const p of parts) n = n?.kind === 'map' ? n.entries.find((e) => e.key === p)?.value : undefined;
    if (n?.kind === 'scalar') return { value: n.value, text: n.source, span: n.span, how: 'config' };
  }
  return undefined;
}
