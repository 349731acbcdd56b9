/** A systemd service unit (kubelet.service, or any *.service that runs a kubelet). */
import { parseTemplatedUnit } from './_systemd-template.ts';
import { defineFormat } from './types.ts';

export default defineFormat({
  kind: 'unit',
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
  watch: ['**/*.service'],
  selector: ['**/*.service'],
  activation: ['**/kubelet.service'],
});
