/**
 * String order for sorting output: UTF-16 code units, as `Array.prototype.sort()` and Go's
 * `sort.Strings` order them (for ASCII names, systemd's strcmp too). Unlike `localeCompare`, it is
 * the same for every user's locale, and it never touches ICU: the first ICU collation maps about
 * 4 MB of the node binary's locale data into the language server's memory.
 */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
