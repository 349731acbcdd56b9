/** A realistic file of this platform, with mistakes (the worked example of docs/formats): the fuzz properties start from it. */
import type { SourceFile } from '../../model/source.ts';

export const EXAMPLES: readonly SourceFile[] = [
  {
    path: "etc/rancher/k3s/config.yaml",
    text: `write-kubeconfig-mode: "0644"
tls-san:
  - k3s.example.com
kubelet-arg:
  - "eviction-hard=memory.available<500Mi"
  - "--kube-reserved=cpu=500m,memroy=1Gi"
  - "max-pods=150"
`,
  },
];
