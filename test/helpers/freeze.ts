/**
 * Deep Object.freeze for the node model and the parses it shares, so that a test fails where anything writes to
 * them after analyze(). Maps and Sets are frozen too: their set/add/delete/clear throw.
 *
 * Instances of classes other than Array, Map and Set are left alone: those are the position values that work
 * out their ranges when first asked and keep them (LazySpan, TextMap, LineIndex, the parsers' lazy words and
 * directives), whose observable fields never change.
 */
const PLAIN = new Set<unknown>([Object.prototype, Array.prototype, Map.prototype, Set.prototype, null]);

function refuse(name: string): () => never {
  return () => {
    throw new TypeError(`${name} on a frozen collection`);
  };
}

export function deepFreeze<T>(root: T): T {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    // Already frozen: by an earlier call (reused parts of a later analysis), children included.
    if (typeof v !== 'object' || v === null || seen.has(v) || Object.isFrozen(v)) continue;
    seen.add(v);
    if (!PLAIN.has(Object.getPrototypeOf(v))) continue;
    if (v instanceof Map) {
      for (const [k, x] of v) stack.push(k, x);
      for (const m of ['set', 'delete', 'clear']) Object.defineProperty(v, m, { value: refuse(`Map.${m}`) });
    } else if (v instanceof Set) {
      for (const x of v) stack.push(x);
      for (const m of ['add', 'delete', 'clear']) Object.defineProperty(v, m, { value: refuse(`Set.${m}`) });
    }
    for (const k of Reflect.ownKeys(v)) stack.push((v as Record<PropertyKey, unknown>)[k]);
    Object.freeze(v);
  }
  return root;
}
