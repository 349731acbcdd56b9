/** A systemd drop-in (*.service.d/*.conf, or a .conf holding unit sections). */
import { parseTemplatedUnit } from './_systemd-template.ts';
import { defineFormat } from './types.ts';
import { SYSTEMD_TEMPLATE_GLOB as T } from '../parse/template.ts';

/** A unit section header on a line of its own. */
export const UNIT_SECTION = /^[ \t]*\[(?:Unit|Service|Install|Slice|Socket|Timer|Path|Mount)\][ \t\r]*$/m;

export default defineFormat({
  kind: 'dropin',
  rank: 80,
  label: 'systemd drop-in',
  byPath: (c) => c.ext === 'conf' && c.dir.endsWith('.service.d'),
  // A `.env` holding unit sections is a drop-in under another name: kubekey's `kubelet.env` template is installed as
  // kubelet.service.d/10-kubeadm.conf (eighth first-sight batch), and as an env file its `[Service]` means nothing.
  byContent: (c) => (c.ext === 'conf' || c.ext === 'env') && UNIT_SECTION.test(c.head),
  parse(path, text) {
    const unit = parseTemplatedUnit(path, text);
    return { unit, problems: unit.problems };
  },
  comments: () => 'line',
  join: { kind: 'anchor' },
  systemdLineEnds: true,
  watch: ['**/*.conf', `**/*.conf.${T}`],
  selector: ['**/*.service.d/*.conf', `**/*.conf.${T}`],
  activation: ['**/kubelet.service.d/*.conf'],
});
