/**
 * Several YAML sub-trees of one carrier as one multi-document payload (kops: the Cluster's kubelet, then an
 * InstanceGroup's), joined by `---` lines. Each region is read where it stands (embed/yaml-region.ts); the separator
 * maps to the end of the region before it.
 */
import type { LineIndex } from '../model/range.ts';
import { VERBATIM, type PayloadMap } from './payload.ts';
import { yamlRegion } from './yaml-region.ts';

const SEP = '\n---\n';

export function yamlRegions(host: string, lines: LineIndex, regions: readonly (readonly [number, number])[]): { text: string; map: PayloadMap } {
  let text = '';
  const offsets: number[] = [];
  // Just after the region before, blank lines included (yamlRegion keeps them, for completion of the next key there).
  let after = 0;
  regions.forEach(([start, end], i) => {
    if (i > 0) {
      text += SEP;
      for (let k = 0; k < SEP.length; k++) offsets.push(after);
    }
    const r = yamlRegion(host, lines, start, end);
    text += r.text;
    // The region's own last offset (just after it) is the next separator's or the payload's end.
    for (let k = 0; k < r.text.length; k++) offsets.push(r.map.offsets[k]);
    after = r.map.offsets[r.text.length];
  });
  offsets.push(after);
  return { text, map: { host: lines, offsets: Int32Array.from(offsets), encode: VERBATIM } };
}
