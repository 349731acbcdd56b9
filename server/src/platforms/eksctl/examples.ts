/** A realistic file of this platform, with mistakes (the worked example of docs/formats): the fuzz properties start from it. */
import type { SourceFile } from '../../model/source.ts';

export const EXAMPLES: readonly SourceFile[] = [
  {
    path: "eksctl/cluster.yaml",
    text: `apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata:
  name: demo
  region: eu-west-1
nodeGroups:
  - name: workers
    instanceType: m5.large
    kubeletExtraConfig:
      serverTLSBootstrap: false
      kubeReservedCgroup: /kube-reserved
      evictionSoft:
        memory.available: 500Mi
`,
  },
];
