/** A realistic file of this platform, with mistakes (the worked example of docs/formats): the fuzz properties start from it. */
import type { SourceFile } from '../../model/source.ts';

export const EXAMPLES: readonly SourceFile[] = [
  {
    path: "kind/kind-config.yaml",
    text: `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
kubeadmConfigPatches:
- |
  kind: KubeletConfiguration
  kubeReserved:
    cpu: 100m
    memory: 256Mi
  evictionHard:
    nodefs.available: "5%"
nodes:
- role: control-plane
- role: worker
  kubeadmConfigPatches:
  - |
    kind: KubeletConfiguration
    kubeReserved:
      memory: 512Mi
  - |
    kind: JoinConfiguration
    nodeRegistration:
      kubeletExtraArgs:
        - name: max-pod
          value: "50"
`,
  },
];
