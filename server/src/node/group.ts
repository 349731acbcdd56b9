/**
 * Which files make up which kubelet. A unit and its drop-ins anchor a node;
 * files they reference join it later; configs and env files nobody
 * references are nodes of their own.
 */
import type { UnitFile } from '../parse/types.ts';
import { basename, dirname, nodeRoot } from '../model/paths.ts';
import { systemdTemplateName } from '../parse/template.ts';
import type { Workspace } from './parse-cache.ts';
import type { NodeRegistry } from './platform.ts';
import { byCodeUnit } from '../model/order.ts';

export interface NodeSeed {
  anchor: string;
  /** Unit files in the order systemd applies them: main unit first, then drop-ins by file name. */
  units: UnitFile[];
  masked: { path: string; by: string }[];
  /** A config, kubeadm or env file that is a node by itself. */
  standalone?: string;
}

/** systemd's unit search path, highest priority first (systemd.unit(5)). */
const UNIT_DIRS = ['etc/systemd/system', 'run/systemd/system', 'usr/local/lib/systemd/system', 'usr/lib/systemd/system', 'lib/systemd/system'];

function priority(path: string): number {
  const d = '/' + dirname(path) + '/';
  for (let i = 0; i < UNIT_DIRS.length; i++) {
    if (d.includes('/' + UNIT_DIRS[i] + '/')) return UNIT_DIRS.length - i;
  }
  return 0;
}

export function execProgram(unit: UnitFile): string | undefined {
  let program: string | undefined;
  for (const d of unit.directives) {
    if (d.section === 'Service' && d.key === 'ExecStart' && d.value !== '') {
      program = d.value.replace(/^[@\-:+!]+/, '').trim().split(/\s+/)[0];
    }
  }
  return program;
}

/**
 * Whether the unit runs a kubelet: its program is one, or a platform's program that runs one inside it (k3s and RKE2
 * in `server`/`agent`: node/platform.ts WrapperProgram).
 */
export function runsKubelet(unit: UnitFile, registry: NodeRegistry): boolean {
  const p = execProgram(unit);
  if (p === undefined) return false;
  if (basename(p).includes('kubelet')) return true;
  const wrapper = registry.wrapper(basename(p));
  if (!wrapper) return false;
  const start = [...unit.directives].reverse().find((d) => d.section === 'Service' && d.key === 'ExecStart' && d.value !== '');
  return start !== undefined && wrapper.wrapper.runsKubelet(start.value.replace(/^[@\-:+!]+/, ''));
}

/** A drop-in outside a `kubelet.service.d` folder counts only if it visibly configures a kubelet. */
function mentionsKubelet(unit: UnitFile): boolean {
  return unit.directives.some(
    (d) =>
      d.section === 'Service' &&
      ((d.key === 'ExecStart' && d.value.includes('kubelet')) ||
        (d.key === 'Environment' && d.value.includes('KUBELET')) ||
        (d.key === 'EnvironmentFile' && d.value.includes('kubelet'))),
  );
}

/**
 * The one platform file whose image ships `unit` (Format.anchorsDropinsOf) at this node root, beside drop-ins of that
 * unit that have no unit file of their own: user data whose script writes `kubelet.service.d/*.conf` next to its
 * NodeConfig. The drop-ins change the very kubelet the platform file configures: one node, not two.
 */
function platformFileFor(ws: Workspace, unit: string, root: string): string | undefined {
  const found = ws.paths.filter((p) => {
    const kind = ws.kind(p);
    return kind !== undefined && ws.registry.formatOf(kind).anchorsDropinsOf === unit && nodeRoot(p) === root && ws.get(p)?.config?.platform;
  });
  return found.length === 1 ? found[0] : undefined;
}

export function groupNodes(ws: Workspace): NodeSeed[] {
  const units: { path: string; name: string; root: string; unit: UnitFile }[] = [];
  const dropins: { path: string; unitName?: string; root: string; unit: UnitFile; related: boolean }[] = [];

  for (const path of ws.paths) {
    const kind = ws.kind(path);
    if (kind !== 'unit' && kind !== 'dropin') continue;
    const unit = ws.get(path)!.unit!;
    const root = nodeRoot(path);
    if (kind === 'unit') {
      // A template (`kubelet.service.j2`) is the unit it renders: its drop-ins are in `kubelet.service.d/`.
      const name = renderedName(path);
      if (name === 'kubelet.service' || runsKubelet(unit, ws.registry)) units.push({ path, name, root, unit });
    } else {
      const dir = basename(dirname(path));
      const unitName = dir.endsWith('.service.d') ? dir.slice(0, -2) : undefined;
      dropins.push({ path, unitName, root, unit, related: unitName === 'kubelet.service' || mentionsKubelet(unit) });
    }
  }

  // Units with the same name under one root: the highest-priority directory wins.
  const byKey = new Map<string, typeof units>();
  for (const u of units) {
    const key = u.root + '|' + u.name;
    byKey.set(key, [...(byKey.get(key) ?? []), u]);
  }
  const seeds = new Map<string, NodeSeed & { root: string; name: string }>();
  for (const [key, list] of byKey) {
    list.sort((a, b) => priority(b.path) - priority(a.path) || byCodeUnit(a.path, b.path));
    const [main, ...hidden] = list;
    seeds.set(key, {
      anchor: main.path,
      units: [main.unit],
      masked: hidden.map((h) => ({ path: h.path, by: main.path })),
      root: main.root,
      name: main.name,
    });
  }

  // Drop-ins: by their `<unit>.service.d` folder, or in a flat folder the one kubelet unit beside them.
  // A flat drop-in's key: the one kubelet unit beside it, if there is exactly one.
  const beside = new Map<(typeof dropins)[number], string | undefined>();
  for (const d of dropins) {
    if (d.unitName) continue;
    const found = [...seeds.values()].filter((s) => s.root === d.root);
    beside.set(d, found.length === 1 ? found[0].root + '|' + found[0].name : undefined);
  }
  const layered = layeredFlatDropins(dropins.filter((d) => !d.unitName && d.related && beside.get(d) === undefined));
  const dropinsByKey = new Map<string, typeof dropins>();
  for (const d of dropins) {
    let key: string | undefined;
    if (d.unitName) key = d.root + '|' + d.unitName;
    else key = beside.get(d) ?? layered.get(d);
    if (key === undefined || (!seeds.has(key) && !d.related)) {
      if (!d.related) continue;
      key ??= d.path + '|standalone';
    }
    dropinsByKey.set(key, [...(dropinsByKey.get(key) ?? []), d]);
  }
  for (const [key, list] of dropinsByKey) {
    // Lexical order of file name across all directories; a higher-priority file masks a same-named one.
    const byName = new Map<string, (typeof list)[number][]>();
    for (const d of list) byName.set(renderedName(d.path), [...(byName.get(renderedName(d.path)) ?? []), d]);
    const ordered: UnitFile[] = [];
    const masked: NodeSeed['masked'] = [];
    for (const name of [...byName.keys()].sort()) {
      const same = byName.get(name)!.sort((a, b) => priority(b.path) - priority(a.path) || byCodeUnit(a.path, b.path));
      ordered.push(same[0].unit);
      for (const h of same.slice(1)) masked.push({ path: h.path, by: same[0].path });
    }
    const seed = seeds.get(key);
    if (seed) {
      seed.units.push(...ordered);
      seed.masked.push(...masked);
    } else {
      const owner = list[0].unitName ? platformFileFor(ws, list[0].unitName, list[0].root) : undefined;
      seeds.set(key, { anchor: owner ?? ordered[0].path, units: ordered, masked, root: list[0].root, name: key, ...(owner && { standalone: owner }) });
    }
  }

  return [...seeds.values()]
    .map(({ anchor, units, masked, standalone }) => ({ anchor, units, masked, ...(standalone && { standalone }) }))
    .sort((a, b) => byCodeUnit(a.anchor, b.anchor));
}

/**
 * Drop-ins of the kubelet that lie in one folder with no unit beside them and are numbered to be applied in order
 * (`10-kubeadm.conf`, `15-kubeadm.conf`: two or more, each number once) are drop-ins of one kubelet.service, as they
 * are once copied into its `kubelet.service.d/`: systemd applies them in file-name order (src/shared/dropin.c), so a
 * later one's empty `ExecStart=` replaces an earlier one's command line. Others are read one by one.
 */
function layeredFlatDropins<D extends { path: string }>(loose: readonly D[]): Map<D, string> {
  const byDir = new Map<string, D[]>();
  for (const d of loose) (byDir.get(dirname(d.path)) ?? byDir.set(dirname(d.path), []).get(dirname(d.path))!).push(d);
  const out = new Map<D, string>();
  for (const [dir, list] of byDir) {
    const numbers = list.map((d) => /^(\d+)-[^/]*\.conf$/.exec(renderedName(d.path))?.[1]);
    if (list.length < 2 || numbers.some((n) => n === undefined) || new Set(numbers).size !== numbers.length) continue;
    for (const d of list) out.set(d, `${dir}|kubelet.service.d`);
  }
  return out;
}

/** The file name systemd sees: a template's (`10-kubeadm.conf.j2`) is the name it renders to. */
function renderedName(path: string): string {
  const name = basename(path);
  return systemdTemplateName(name) ?? name;
}
