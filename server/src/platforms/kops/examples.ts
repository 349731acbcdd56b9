/** A realistic file of this platform, with mistakes (the worked example of docs/formats): the fuzz properties start from it. */
import type { SourceFile } from '../../model/source.ts';

export const EXAMPLES: readonly SourceFile[] = [
  {
    path: "kops/cluster.yaml",
    text: `apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata:
  name: demo.example.com
spec:
  kubelet:
    kubeReserved:
      cpu: 500m
      memory: 1G
---
apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata:
  name: nodes
spec:
  role: Node
  kubelet:
    evictionHard: memory.available<200Mi
    kubeReserved:
      memroy: 2Gi
`,
  },
];
