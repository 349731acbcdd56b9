import type { Provenance } from './model.ts';

/** Human words for where a value came from: "--system-reserved via $KUBELET_EXTRA_ARGS in /etc/default/kubelet line 2". */
export function describe(p: Provenance): string {
  const at = p.span ? ` in ${p.span.file} line ${p.span.range.start.line + 1}` : '';
  switch (p.how) {
    case 'flag':
      return `--${p.flag}${p.via ? ` via $${p.via.variable}` : ''}${at}`;
    case 'kubeadm-extra-args':
      return `${p.label ?? 'kubeletExtraArgs'} ${p.flag}${at}`;
    case 'config':
      return `${p.field}${at}`;
    case 'config-dir':
      return `${p.field} in ${p.label ?? 'a --config-dir drop-in'}${at}`;
    case 'default':
      return 'the kubelet default';
    case 'platform':
      return p.label ?? 'the platform default';
    case 'derived':
      return `derived${at}`;
  }
}
