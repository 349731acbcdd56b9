/** Percent-decoding of a URI's path that never throws (the Node and the web edge share it). */

/** decodeURIComponent(), keeping any escape that does not decode (`%zz`, a lone `%`, a cut UTF-8 sequence) as written. */
export function decodeLoosely(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}
