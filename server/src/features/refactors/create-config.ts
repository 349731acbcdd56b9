/**
 * Refactor for a node whose kubelet has no --config: create a KubeletConfiguration file where
 * kubeadm puts it (/var/lib/kubelet/config.yaml under the node's root in the workspace), move the
 * flags that can move into it (the same plan and checks as "Move kubelet flags into the
 * KubeletConfiguration file"), and add --config= naming it right after the kubelet program.
 * Offered only when the file does not exist yet and the program is written literally in ExecStart=.
 */
import { formatOf } from '../../registry.ts';
import type { Analysis, NodeResult } from '../../engine.ts';
import { comparePos, offsetOf, type Position } from '../../model/range.ts';
import { parseAs } from '../../node/parse-files.ts';
import type { ConfigTarget } from './config-writer.ts';
import { planMoveFlags } from './move-flags.ts';
import type { PlainEdit, Refactor } from './types.ts';

/** Where the kubelet reads it on the node (kubeadm's path). */
export const NEW_CONFIG = '/var/lib/kubelet/config.yaml';
const HEADER = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

export function createConfigRefactor(analysis: Analysis, result: NodeResult): Refactor | undefined {
  const { node } = result;
  const program = node.program;
  const exec = node.service?.execStart;
  if (!exec || !program || program.via || program.span.file !== exec.span.file) return undefined;
  if (node.configRefs.length > 0 || node.kubeletConfigs.length > 0) return undefined;
  const path = nodeRoot(exec.span.file) + NEW_CONFIG;
  if (analysis.files.has(path)) return undefined;
  const doc = parseAs({ path, text: HEADER }, formatOf('kubelet-config')).config?.kubeletConfigs[0];
  if (!doc) return undefined;
  const target: ConfigTarget = { doc, layout: 'yaml', indent: 2 };
  const plan = planMoveFlags(analysis, result, target);
  if (!plan || plan.moved.length === 0) return undefined;
  const inFile = plan.edits.filter((e) => e.path === path);
  const elsewhere = plan.edits.filter((e) => e.path !== path);
  // --config=... after the program; folded into a removal that starts there (two edits at one place have no order).
  const at = program.span.range.end;
  const flag = ` --config=${NEW_CONFIG}`;
  const touching = elsewhere.find((e) => e.path === program.span.file && comparePos(e.range.start, at) === 0);
  const edits: PlainEdit[] = touching
    ? elsewhere.map((e) => (e === touching ? { ...e, newText: flag + e.newText } : e))
    : [...elsewhere, { path: program.span.file, range: { start: at, end: at }, newText: flag }];
  const names = plan.moved.flatMap((m) => m.flags);
  const list = names.length <= 3 ? names.map((n) => `--${n}`).join(', ') : `${names.length} flags`;
  return {
    title: `Create ${NEW_CONFIG.slice(1)} and move kubelet flags into it (${list})`,
    kind: 'refactor.rewrite',
    edits,
    creates: [{ path, text: applyTo(HEADER, inFile) }],
  };
}

/** The node's root folder: what comes before /etc/systemd/, /usr/lib/systemd/ or /lib/systemd/, else the unit's folder. */
function nodeRoot(unit: string): string {
  const m = /^(.*?)\/(?:etc|usr\/lib|lib)\/systemd\//.exec(unit);
  if (m) return m[1];
  const slash = unit.lastIndexOf('/');
  return slash === -1 ? '' : unit.slice(0, slash);
}

function applyTo(text: string, edits: readonly PlainEdit[]): string {
  const offset = (p: Position) => offsetOf(text, p) ?? text.length;
  let out = text;
  for (const e of [...edits].sort((a, b) => comparePos(b.range.start, a.range.start))) {
    out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  }
  return out;
}
