/** Workspace paths are POSIX-style strings; these helpers never touch the disk. */

export function basename(p: string): string {
  const i = p.lastIndexOf('/');
  return i === -1 ? p : p.slice(i + 1);
}

export function dirname(p: string): string {
  const i = p.lastIndexOf('/');
  return i === -1 ? '' : p.slice(0, i);
}

/** The directory without trailing slashes. A loop, not /\/+$/, which retries from every slash of a long run (docs/dev/regex-audit.md). */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return path.slice(0, end);
}

export function segments(p: string): string[] {
  return p.split('/').filter((s) => s !== '' && s !== '.');
}

/**
 * segments() and nodeRoot() are asked about the same few thousand paths over
 * and over (every reference is matched against every workspace file, every
 * runtime config against every node's files), so their results are memoised.
 * The maps are cleared when they grow large, which bounds them in a
 * long-running language server.
 */
const MEMO_LIMIT = 50_000;

function boundedMemo<T>(compute: (p: string) => T): (p: string) => T {
  const memo = new Map<string, T>();
  return (p) => {
    let v = memo.get(p);
    if (v === undefined) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      v = compute(p);
      memo.set(p, v);
    }
    return v;
  };
}

/** segments(), shared and read-only. */
const segs: (p: string) => readonly string[] = boundedMemo(segments);

/**
 * Folders that hold a node's files on a real root filesystem. The part of a
 * workspace path before one of these is the node's root.
 */
const SYSTEM_DIRS = [
  'etc/systemd/system',
  'run/systemd/system',
  'usr/lib/systemd/system',
  'lib/systemd/system',
  'usr/local/lib/systemd/system',
  'etc/default',
  'etc/sysconfig',
  'etc/kubernetes',
  'var/lib/kubelet',
  'etc/containerd',
  'etc/docker',
  'etc/crio',
  'etc/eks',
];

const SYSTEM_DIR_SEGMENTS = SYSTEM_DIRS.map((d) => d.split('/'));

/**
 * The folder a file's node lives in: the root of a root-filesystem layout,
 * or simply the file's folder in a flat one.
 */
export const nodeRoot: (p: string) => string = boundedMemo(computeNodeRoot);

function computeNodeRoot(p: string): string {
  const segs = segments(dirname(p));
  // A drop-in folder belongs with its unit: kubelet.service.d/ sits beside kubelet.service.
  if (segs.length > 0 && segs[segs.length - 1].endsWith('.service.d')) segs.pop();
  for (let i = 0; i < segs.length; i++) {
    for (const s of SYSTEM_DIR_SEGMENTS) {
      if (segs[i] === s[0] && i + s.length <= segs.length && s.every((x, j) => segs[i + j] === x)) {
        return segs.slice(0, i).join('/');
      }
    }
  }
  return segs.join('/');
}

/** Number of leading folders two folders share. */
export function commonDepth(a: string, b: string): number {
  const x = segs(a);
  const y = segs(b);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/** How many trailing path segments of `file` equal those of the absolute reference `ref`. */
export function suffixMatch(file: string, ref: string): number {
  const x = segs(file);
  const y = segs(ref);
  let n = 0;
  while (n < x.length && n < y.length && x[x.length - 1 - n] === y[y.length - 1 - n]) n++;
  return n;
}

/**
 * The best suffix matches of `ref` among `files` (several: a tie), once per file list and reference: a workspace of a
 * hundred nodes in the same layout has every node's `--config=/var/lib/kubelet/config.yaml` match the same hundred
 * files, which were scored again for each node (quadratic in the number of nodes).
 */
const matchMemo = new WeakMap<readonly string[], Map<string, readonly string[]>>();

function bestMatches(ref: string, files: readonly string[]): readonly string[] {
  let byRef = matchMemo.get(files);
  if (!byRef) matchMemo.set(files, (byRef = new Map()));
  const have = byRef.get(ref);
  if (have) return have;
  let best = 0;
  let found: string[] = [];
  // Only files whose last segment equals the reference's match at all; the index keeps their order.
  const last = segs(ref).at(-1);
  for (const f of last === undefined ? [] : (byLastSegment(files).get(last) ?? [])) {
    const n = suffixMatch(f, ref);
    if (n === 0) continue;
    if (n > best) {
      best = n;
      found = [f];
    } else if (n === best) found.push(f);
  }
  byRef.set(ref, found);
  return found;
}

const lastSegmentIndex = new WeakMap<readonly string[], Map<string, string[]>>();

/** Files by their last path segment, built once per file list (the engine passes the same ws.paths for every reference). */
function byLastSegment(files: readonly string[]): Map<string, string[]> {
  let index = lastSegmentIndex.get(files);
  if (!index) {
    index = new Map();
    for (const f of files) {
      const last = segs(f).at(-1);
      if (last === undefined) continue;
      const list = index.get(last);
      if (list) list.push(f);
      else index.set(last, [f]);
    }
    lastSegmentIndex.set(files, index);
  }
  return index;
}

/** How a reference found its file: the same absolute path under a folder laid out like `/`, or only a name alike. */
export type LinkBy = 'identity' | 'name';

export interface Resolved {
  path: string;
  by: LinkBy;
}

/**
 * Resolve an absolute path a file names (`--config=/var/lib/kubelet/config.yaml`) to the workspace file it is.
 * Identity: the whole path lies under a folder that holds the referring file, laid out like `/` (nearest folder
 * first): `node1/var/lib/kubelet/config.yaml` for `node1/etc/systemd/system/kubelet.service`, or a carrier's payload
 * written to that path. Otherwise the best match by path suffix inside the referrer's root, which is only a name alike: the
 * caller shows it as a guess and rests no error or warning on it (issue #37).
 */
export function resolveReference(ref: string, files: readonly string[], near?: string): Resolved | undefined {
  const same = near === undefined ? undefined : underAncestor(ref, files, near);
  if (same !== undefined) return { path: same, by: 'identity' };
  // A guess stays inside the referrer's node root (issue #37: nothing crosses roots): another folder's file that
  // ends the same way (a Helm chart's `kubelet/config.yaml`, another carrier's payload) is another machine's.
  const found = bestMatches(ref, files);
  const root = near === undefined ? '' : nodeRoot(near);
  if (root === '') return found.length === 1 ? { path: found[0], by: 'name' } : undefined;
  // (by segments: a root is written without the leading `/` of an absolute path, and a carrier's `//` is one `/`)
  const depth = segs(root).length;
  const under = (f: string) => commonDepth(dirname(f), root) === depth;
  let inside = found.filter(under);
  // The best match anywhere may lie outside: the best inside, then (the same last segment, scored again).
  if (inside.length === 0) {
    let best = 0;
    const last = segs(ref).at(-1);
    for (const f of last === undefined ? [] : (byLastSegment(files).get(last) ?? [])) {
      if (!under(f)) continue;
      const n = suffixMatch(f, ref);
      if (n > best) [best, inside] = [n, [f]];
      else if (n === best && n > 0) inside.push(f);
    }
  }
  return inside.length === 1 ? { path: inside[0], by: 'name' } : undefined;
}

/** The file at `ref` under the nearest folder holding `near` (a relative reference has no such place). */
function underAncestor(ref: string, files: readonly string[], near: string): string | undefined {
  if (!ref.startsWith('/')) return undefined;
  const index = byNormalPath(files);
  const tail = segs(ref);
  const up = segs(dirname(near));
  for (let n = up.length; n >= 0; n--) {
    const hit = index.get([...up.slice(0, n), ...tail].join('/'));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

const normalIndex = new WeakMap<readonly string[], Map<string, string>>();

/** Files by their segments joined with one `/` (a payload's `carrier//etc/x` is `carrier/etc/x`), once per file list. */
function byNormalPath(files: readonly string[]): Map<string, string> {
  let index = normalIndex.get(files);
  if (!index) {
    index = new Map();
    for (const f of files) {
      const k = segs(f).join('/');
      if (!index.has(k)) index.set(k, f);
    }
    normalIndex.set(files, index);
  }
  return index;
}

/** The files of a folder a reference names, and how the folder was found (resolveReference on folders). */
export function resolveDirReference(ref: string, files: readonly string[], near?: string): { paths: string[]; by: LinkBy } {
  const dirs = foldersOf(files);
  const dir = resolveReference(withoutTrailingSlashes(ref) + '/', [...dirs.keys()].map((d) => d + '/'), near);
  return dir === undefined ? { paths: [], by: 'name' } : { paths: dirs.get(dir.path.slice(0, -1))!.slice().sort(), by: dir.by };
}

function foldersOf(files: readonly string[]): Map<string, string[]> {
  const byDir = new Map<string, string[]>();
  for (const f of files) {
    const d = dirname(f);
    const list = byDir.get(d);
    if (list) list.push(f);
    else byDir.set(d, [f]);
  }
  return byDir;
}
