/** A realistic file of this platform, with mistakes (the worked example of docs/formats): the fuzz properties start from it. */
import type { SourceFile } from '../../model/source.ts';

export const EXAMPLES: readonly SourceFile[] = [
  {
    path: "karpenter/nodepool.yaml",
    text: `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: general
spec:
  amiSelectorTerms:
    - alias: al2023@latest
  kubelet:
    maxPods: 110
    evictionSoft:
      memory.available: 10%
  userData: |
    apiVersion: node.eks.aws/v1alpha1
    kind: NodeConfig
    spec:
      kubelet:
        config:
          systemReserved:
            cpu: 500m
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: general
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: general
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["m5.xlarge", "m5.4xlarge"]
`,
  },
];
