/** A realistic file of this platform, with mistakes (the worked example of docs/formats): the fuzz properties start from it. */
import type { SourceFile } from '../../model/source.ts';

export const EXAMPLES: readonly SourceFile[] = [
  {
    path: "openshift/kubeletconfig.yaml",
    text: `apiVersion: machineconfiguration.openshift.io/v1
kind: KubeletConfig
metadata:
  name: worker-reserved
spec:
  autoSizingReserved: true
  kubeletConfig:
    featureGates:
      MemoryQoS: true
    evictionHard:
      memory.available: 500Mi
    systemReserved:
      memory: 2Gi
  machineConfigPoolSelector:
    matchLabels:
      pools.operator.machineconfiguration.openshift.io/worker: ""
`,
  },
];
