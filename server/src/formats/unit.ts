/** A systemd service unit (kubelet.service, or any *.service that runs a kubelet). */
import { parseTemplatedUnit } from './_systemd-template.ts';
import { defineFormat } from './types.ts';
import { SYSTEMD_TEMPLATE_GLOB as T } from '../parse/template.ts';

export default defineFormat({
  kind: 'unit',
  rank: 70,
  label: 'systemd unit',
  // A .service file is a unit whatever it holds: systemd reads it as one, and so do we (a broken header is a finding).
  byPath: (c) => c.ext === 'service',
  parse(path, text) {
    const unit = parseTemplatedUnit(path, text);
    return { unit, problems: unit.problems };
  },
  comments: (p) => (p.path.endsWith('.json') ? 'none' : 'line'),
  join: { kind: 'anchor' },
  systemdLineEnds: true,
  // Templates of a unit (`kubelet.service.j2`) are read as the unit (formats/index.ts detectKind).
  watch: ['**/*.service', `**/*.service.${T}`],
  selector: ['**/*.service', `**/*.service.${T}`],
  activation: ['**/kubelet.service', `**/kubelet.service.${T}`],
});
