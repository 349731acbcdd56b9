/**
 * Catalog tables are built on first use, not when their module loads: the
 * language server answers `initialize` without turning a few hundred KB of
 * table source into objects (a table's code stays in a function that V8 only
 * pre-parses until it runs), and the CLI pays for the tables it reads.
 *
 * An exported table stays a read-only array to its readers: a Proxy over an
 * array that fills itself on first access. The catalog's own lookups use the
 * underlying array (`tableOf`) and maps built on first use (`once`).
 */

const TABLES = new WeakMap<object, () => readonly unknown[]>();

/** A read-only array whose elements `build` makes on first access. */
export function lazyTable<T>(build: () => readonly T[]): readonly T[] {
  const target: T[] = [];
  let built = false;
  const fill = (): T[] => {
    if (!built) {
      built = true;
      for (const x of build()) target.push(x);
    }
    return target;
  };
  const proxy = new Proxy(target, {
    get: (t, k, r) => Reflect.get(fill(), k, r === proxy ? t : r),
    has: (_t, k) => Reflect.has(fill(), k),
    ownKeys: () => Reflect.ownKeys(fill()),
    getOwnPropertyDescriptor: (_t, k) => Reflect.getOwnPropertyDescriptor(fill(), k),
    set: (_t, k, v) => Reflect.set(fill(), k, v),
    defineProperty: (_t, k, d) => Reflect.defineProperty(fill(), k, d),
    deleteProperty: (_t, k) => Reflect.deleteProperty(fill(), k),
  });
  TABLES.set(proxy, fill);
  return proxy;
}

/** The plain array behind a lazy table (built now if need be), for lookups without the Proxy's cost. */
export function tableOf<T>(table: readonly T[]): readonly T[] {
  const fill = TABLES.get(table);
  return fill ? (fill() as readonly T[]) : table;
}

/** A value computed on first call, then kept. */
export function once<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}
