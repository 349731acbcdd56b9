import { formatBytes, formatMillicores } from '../../quantity/quantity.ts';

/** A resource amount in the unit people read it in. */
export function formatAmount(resource: string, n: bigint): string {
  if (resource === 'cpu') return `${formatMillicores(n)} CPU`;
  if (resource === 'pods' || resource === 'pid') return n.toString();
  return formatBytes(n);
}
