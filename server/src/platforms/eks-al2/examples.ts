/** A realistic AL2 user data script, with a mistake (the fuzz properties start from it). */
import type { SourceFile } from '../../model/source.ts';

export const EXAMPLES: readonly SourceFile[] = [
  {
    path: 'eks-al2/user-data.sh',
    text: `#!/bin/bash
set -o xtrace
# kubelet-lint: capacity m5.large
/etc/eks/bootstrap.sh my-cluster \\
  --b64-cluster-ca "\${B64_CLUSTER_CA}" \\
  --apiserver-endpoint "\${API_SERVER_URL}" \\
  --kubelet-extra-args '--node-labels=team=data --kube-reserved=memroy=1Gi'
`,
  },
];
