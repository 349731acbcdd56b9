/**
 * Cloud instance types: vCPU, memory and, for EC2, the max pods that EKS's nodeadm gives the type (VPC CNI ENI
 * limit). The table is generated (scripts/instance-types.ts) from public upstream lists named in the generated
 * file's header; it stays one string per cloud until the first lookup, which splits it into a map.
 *
 * Stable API for formats that name instance types (Karpenter requirements, eksctl instanceType, CAPI machineType):
 * `instanceType(name)`, `suggestInstanceType(name)`, and node/capacity.ts `capacitiesOfInstanceTypes(names)`.
 */
import { closest } from './suggest.ts';
import { AZURE_ROWS, EC2_ROWS } from './instance-types.generated.ts';
import { once } from './lazy.ts';

export type Cloud = 'EC2' | 'Azure';

export interface InstanceType {
  /** The name as the cloud spells it: m5.large, Standard_D4s_v5. */
  readonly name: string;
  readonly cloud: Cloud;
  readonly vcpu: number;
  readonly memoryMiB: number;
  /** EC2 only: defaultMaxENIs * (IPv4 per ENI - 1) + 2, as nodeadm computes maxPods (eni_max_pods.go). */
  readonly maxPods?: number;
}

function parseRows(rows: string, cloud: Cloud, prefix: string, into: Map<string, InstanceType>): void {
  for (const row of rows.split(';')) {
    const [short, vcpu, mem, pods] = row.split(',');
    if (!short || !vcpu || !mem) continue;
    const name = prefix + short;
    const memoryMiB = mem.endsWith('M') ? Number(mem.slice(0, -1)) : Number(mem) * 1024;
    into.set(name.toLowerCase(), { name, cloud, vcpu: Number(vcpu), memoryMiB, ...(pods ? { maxPods: Number(pods) } : {}) });
  }
}

/** By lower-cased name: EC2 names are lower case, and Azure's API treats VM sizes case-insensitively. */
const table = once(() => {
  const m = new Map<string, InstanceType>();
  parseRows(EC2_ROWS, 'EC2', '', m);
  parseRows(AZURE_ROWS, 'Azure', 'Standard_', m);
  return m;
});

/** The instance type of that name (case-insensitive), or undefined. */
export function instanceType(name: string): InstanceType | undefined {
  return table().get(name.trim().toLowerCase());
}

/** Every name in the table, as the cloud spells it. */
export function instanceTypeNames(): string[] {
  return [...table().values()].map((t) => t.name);
}

/** Counts per cloud, for reports and tests. */
export function instanceTypeCounts(): Record<Cloud, number> {
  const out: Record<Cloud, number> = { EC2: 0, Azure: 0 };
  for (const t of table().values()) out[t.cloud]++;
  return out;
}

/**
 * The closest known name to a mistyped one (at most 2 edits, or a missing `Standard_` prefix), for did-you-mean.
 * Only names of the same length give or take 2 are compared, so a lookup stays cheap.
 */
export function suggestInstanceType(name: string): string | undefined {
  const w = name.trim().toLowerCase();
  if (!w) return undefined;
  const prefixed = table().get(`standard_${w}`);
  if (prefixed) return prefixed.name;
  const key = closest(w, table().keys(), 2);
  return key === undefined ? undefined : table().get(key)?.name;
}

/** "m5.large: 2 vCPU, 8 GiB, 29 pods (EC2 table)": what a capacity taken from the table stands for. */
export function describeInstanceType(t: InstanceType): string {
  const gib = t.memoryMiB / 1024;
  const mem = Number.isInteger(gib) ? `${gib} GiB` : `${t.memoryMiB} MiB`;
  const pods = t.maxPods === undefined ? '' : `, ${t.maxPods} pods`;
  return `${t.name}: ${t.vcpu} vCPU, ${mem}${pods} (${t.cloud} table)`;
}
