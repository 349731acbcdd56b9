/** A realistic file of this platform, with mistakes (the worked example of docs/formats): the fuzz properties start from it. */
import type { SourceFile } from '../../model/source.ts';

export const EXAMPLES: readonly SourceFile[] = [
  {
    path: "talos/worker.yaml",
    text: `machine:
  kubelet:
    extraArgs:
      kubeconfig: /var/lib/kubelet/kubeconfig
    extraConfig:
      evictionHard:
        memory.available: 1Gi
      kubeReserved:
        cpu: 500m
        memroy: 2Gi
      systemReserved:
        cpu: 500m
        memory: 1Gi
`,
  },
  {
    path: "talos/talconfig.yaml",
    text: `# talos/talconfig.yaml
patches:
  - "@./patches/global/machine-kubelet.yaml"   # every node, applied last
nodes:
  - hostname: cp1
    controlPlane: true
  - hostname: w1
    patches:
      - |-
        machine:
          kubelet:
            extraConfig:
              kubeReserved:
                cpu: 300m   # over the worker group's 200m
worker:
  patches:
    - "@./patches/worker/kubelet.yaml"         # workers, applied first
`,
  },
];
