/** A systemd service unit (kubelet.service, or any *.service that runs a kubelet). */
import { parseUnit } from '../parse/systemd/unit.ts';
import { outsideTemplates, systemdTemplateSpans } from '../parse/template.ts';
import { defineFormat } from './types.ts';

export default defineFormat({
  kind: 'unit',
  label: 'systemd unit',
  // A .service file is a unit whatever it holds: systemd reads it as one, and so do we (a broken header is a finding).
  byPath: (c) => c.ext === 'service',
  parse(path, text) {
    const unit = parseUnit(path, text);
    const template = systemdTemplateSpans(path, text);
    if (template) {
      unit.template = template;
      unit.problems = outsideTemplates(unit.problems, template);
    }
    return { unit, problems: unit.problems };
  },
  comments: (p) => (p.path.endsWith('.json') ? 'none' : 'line'),
  join: { kind: 'anchor' },
  systemdLineEnds: true,
  watch: ['**/*.service'],
  selector: ['**/*.service'],
  activation: ['**/kubelet.service'],
});
