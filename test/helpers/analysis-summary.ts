/** What an analysis says, read through every getter, for comparing two analyses made different ways. */
import type { Analysis } from '../../server/src/engine.ts';
import type { Item, Setting } from '../../server/src/node/model.ts';

const item = (i: Item) => [i.key, i.text, i.keySpan?.range, i.valueSpan?.range, i.from.how, i.from.span?.range];

function setting(s: Setting): unknown {
  const from = [s.from.how, s.from.flag, s.from.field, s.from.span?.file, s.from.span?.range, s.from.via?.variable];
  return s.kind === 'scalar' ? ['scalar', s.text, s.span?.range, from] : s.kind === 'object' ? ['object', from] : [s.kind, s.items.map(item), from];
}

export function analysisSummary(a: Analysis): unknown {
  return {
    findings: a.findings,
    nodes: a.nodes.map(({ node, allocatable }) => ({
      id: node.id,
      files: node.files,
      version: node.kubernetesVersion,
      capacity: node.capacitySource,
      flags: node.flags.map((f) => [f.name, f.value, f.span.file, f.span.range, f.valueSpan.range]),
      settings: [...node.settings].map(([k, s]) => [k, setting(s)]),
      shadowed: [...node.shadowed.keys()],
      runtimes: node.runtimes.length,
      allocatable,
    })),
  };
}
