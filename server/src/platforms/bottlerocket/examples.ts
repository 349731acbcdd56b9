/** A realistic file of this platform, with mistakes (the worked example of docs/formats): the fuzz properties start from it. */
import type { SourceFile } from '../../model/source.ts';

export const EXAMPLES: readonly SourceFile[] = [
  {
    path: "bottlerocket/user-data.toml",
    text: `[settings.kubernetes]
max-pods = 58
kube-api-qps = 30

[settings.kubernetes.kube-reserved]
"memory" = "1G"

[settings.kubernetes.eviction-soft]
"memory.available" = "100Mi"

[settings.kubernetes.eviction-soft-grace-period]
"memory.available" = "30s"
`,
  },
];
