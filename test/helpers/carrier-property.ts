/**
 * The carrier property of issue #16, for any carrier: every corpus node file wrapped into the carrier gives the
 * same findings at the mapped places and the same allocatable as the bare file, and every quick fix applied to
 * the carrier leaves a valid carrier whose payload is the bare file with the same fix.
 */
import { placeholderBlind } from './messages.ts';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import { CARRIER_KINDS, detectKind } from '../../server/src/registry.ts';
import { rangeToHost } from '../../server/src/embed/to-host.ts';
import { payloadPath } from '../../server/src/embed/payload.ts';
import { applyEdits } from './edits.ts';

export interface CarrierKit {
  host: string;
  /** The carrier writing `text` to `target`. */
  wrap(target: string, text: string): string;
  /** What the node would get: target -> content (asserts that the carrier is still valid). */
  read(carrier: string): Record<string, string>;
  /** Where the carrier writes the corpus file `name` (default `/<name>`); the bare file is analysed at `disk<target>`. */
  target?(name: string): string;
  /** A file the carrier cannot hold byte for byte (left out, and counted). */
  cannot?(text: string): boolean;
  /**
   * For a carrier whose tool puts its own configuration under the file (kind's generated KubeletConfiguration,
   * node/platform.ts): the bare file with that base merged under it, whose allocatable the carrier's node must have
   * (undefined: not comparable).
   */
  withBase?(text: string): string | undefined;
  /** Codes whose outcome the base decides (left out on both sides). */
  supplies?: ReadonlySet<string>;
}

export function carrierProperty(corpus: string, kit: CarrierKit): { files: number; fixes: number; left: number } {
  const { host: HOST } = kit;
  const samePaths = (m: string) => m.replaceAll(`${HOST}//`, 'disk/');
  let files = 0;
  let fixes = 0;
  let left = 0;
  for (const name of readdirSync(join(corpus, 'files')).sort()) {
    const text = readFileSync(join(corpus, 'files', name), 'utf8');
    const target = kit.target?.(name) ?? `/${name}`;
    const bare = analyze([{ path: `disk${target}`, text }]);
    if (!bare.nodes.length && !bare.findings.length) continue;
    // A script is itself a carrier: the files it writes have paths of their own, not the wrapped file's.
    if (kit.cannot?.(text) || CARRIER_KINDS.has(detectKind(name, text)!)) {
      left++;
      continue;
    }
    files++;
    const carrier = kit.wrap(target, text);
    const inHost = analyze([{ path: HOST, text: carrier }]);
    const based = kit.withBase ? kit.withBase(text) : text;
    if (based !== undefined) {
      const want = based === text ? bare : analyze([{ path: `disk${target}`, text: based }]);
      assert.deepEqual(inHost.nodes.map((n) => n.allocatable), want.nodes.map((n) => n.allocatable), name);
    }
    const kept = (f: { code: string }) => !kit.supplies?.has(f.code);
    // The file's payload, also when it is a payload of a payload (a script in a MIME part), mapped to the carrier.
    const payload = inHost.payloads?.get(payloadPath(HOST, target))?.payload ?? inHost.files.get(HOST)!.embedded![0];
    assert.equal(payload.text, text, name);
    const place = (code: string, r: unknown, m: string) => `${code} ${JSON.stringify(r)} ${placeholderBlind({ code }, m)}`;
    const want = bare.findings.filter(kept).map((f) => place(f.code, rangeToHost(payload, f.range), f.message)).sort();
    const got = inHost.findings.filter(kept).map((f) => place(f.code, f.range, samePaths(f.message))).sort();
    assert.deepEqual(got, want, name);
    const bareByPlace = new Map(bare.findings.map((f) => [place(f.code, rangeToHost(payload, f.range), f.message), f]));
    for (const f of inHost.findings.filter(kept)) {
      const b = bareByPlace.get(place(f.code, f.range, samePaths(f.message)))!;
      assert.equal(f.fixes?.length ?? 0, b.fixes?.length ?? 0, `${name}: ${f.code} ${f.message} lost a fix`);
      for (const [i, fix] of (f.fixes ?? []).entries()) {
        fixes++;
        assert.equal(kit.read(applyEdits(carrier, fix.edits, HOST))[target], applyEdits(text, b.fixes![i].edits, `disk${target}`), `${name}: ${fix.title}`);
      }
    }
  }
  return { files, fixes, left };
}

/**
 * Every quick fix of `carrier` (at `host`), applied and read back with `read`, gives each file of `files` (target ->
 * bare text) the bare file's fix. Returns the number of fixes checked.
 */
export function fixesMatchBare(host: string, carrier: string, files: Record<string, string>, read: (text: string) => Record<string, string>): number {
  const bare = analyze(Object.entries(files).map(([p, text]) => ({ path: 'disk' + p, text })));
  let n = 0;
  for (const f of analyze([{ path: host, text: carrier }]).findings.filter((x) => x.fixes?.length)) {
    const b = bare.findings.find((x) => x.code === f.code && x.message === f.message.replaceAll(`${host}//`, 'disk/'));
    assert.ok(b, f.message);
    for (const [i, fix] of f.fixes!.entries()) {
      n++;
      const after = read(applyEdits(carrier, fix.edits, host));
      for (const [p, t] of Object.entries(files)) assert.equal(after[p], applyEdits(t, b.fixes![i].edits, 'disk' + p), `${fix.title} on ${p}`);
    }
  }
  return n;
}
