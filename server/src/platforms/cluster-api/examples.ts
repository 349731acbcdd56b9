/** A realistic file of this platform, with mistakes (the worked example of docs/formats): the fuzz properties start from it. */
import type { SourceFile } from '../../model/source.ts';

export const EXAMPLES: readonly SourceFile[] = [
  {
    path: "capi/cluster-template.yaml",
    text: `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: prod
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata:
  name: prod-md-0
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration:
          kubeletExtraArgs:
            - name: eviction-hard
              value: "nodefs.available<10%"
            - name: max-pod
              value: "50"
`,
  },
];
