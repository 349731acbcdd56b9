/**
 * What "Insert recommended reservations" and "Replace reservations" do to a map the file already has (issue 26):
 * insert means insert, so only the keys the map lacks are added and every value written stays; the replace action
 * changes written values and says so, old → new, in its title.
 */
export type Pairs = [string, string][];

export interface Changes {
  added: Pairs;
  /** [key, old, new] */
  replaced: [string, string, string][];
}

/** `base` with the keys of `over` it lacks appended; its own values untouched. */
export function insertMissing(base: Pairs, over: Pairs): Pairs {
  return [...base, ...over.filter(([k]) => !base.some(([b]) => b === k))];
}

export function changesOf(base: Pairs, over: Pairs): Changes {
  const added: Pairs = [];
  const replaced: [string, string, string][] = [];
  for (const [k, v] of over) {
    const old = base.find(([b]) => b === k);
    if (!old) added.push([k, v]);
    else if (old[1] !== v) replaced.push([k, old[1], v]);
  }
  return { added, replaced };
}

/** "kubeReserved cpu 500m → 90m, memory 1Gi → 2663Mi, ephemeral-storage 1Gi (new)" for a replace; "kubeReserved memory 2663Mi" for an insert. */
export function describeChanges(field: string, c: Changes, mode: 'insert' | 'replace'): string | undefined {
  const parts = mode === 'insert'
    ? c.added.map(([k, v]) => `${k} ${v}`)
    : [...c.replaced.map(([k, a, b]) => `${k} ${a} → ${b}`), ...c.added.map(([k, v]) => `${k} ${v} (new)`)];
  return parts.length ? `${field} ${parts.join(', ')}` : undefined;
}
