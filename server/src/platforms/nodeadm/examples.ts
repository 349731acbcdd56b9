/** A realistic file of this platform, with mistakes (the worked example of docs/formats): the fuzz properties start from it. */
import type { SourceFile } from '../../model/source.ts';

export const EXAMPLES: readonly SourceFile[] = [
  {
    path: "eks/nodeconfig.yaml",
    text: `MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="//"

--//
Content-Type: application/node.eks.aws

apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  featureGates:
    MemoryQoS: true
  kubelet:
    config:
      maxPods: 58
      evictionSoft:
        memory.available: 500Mi
    flags:
      - --kube-reserved=cpu=100m

--//--
`,
  },
];
