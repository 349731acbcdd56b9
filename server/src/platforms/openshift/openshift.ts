/**
 * OpenShift / OKD `machineconfiguration.openshift.io/v1` `KubeletConfig`. Recognised by apiVersion and kind at column
 * 0 only (an indented one belongs to another document, e.g. a template or a list).
 */
import { parseOpenShift } from './parse-openshift.ts';
import { defineFormat } from '../../formats/types.ts';
import { platformParse } from '../../formats/_platform.ts';

const API = /^apiVersion:[ \t]*["']?machineconfiguration\.openshift\.io\/v1["']?[ \t]*(?:#[^\n]*)?$/m;
const KIND = /^kind:[ \t]*["']?KubeletConfig["']?[ \t]*(?:#[^\n]*)?$/m;
const EXTS = new Set(['yaml', 'yml', 'json']);
/**
 * An OpenShift `Template` (template.openshift.io/v1) whose `objects` hold a KubeletConfig, as the machine-config-operator's
 * own test data keeps them: `oc process` fills its `${PARAMETERS}` and creates the objects (parse-openshift.ts).
 */
const TEMPLATE_API = /^apiVersion:[ \t]*["']?template\.openshift\.io\/v1["']?[ \t]*(?:#[^\n]*)?$/m;
const TEMPLATE_KIND = /^kind:[ \t]*["']?Template["']?[ \t]*(?:#[^\n]*)?$/m;
const OBJECT_KIND = /^[ \t-]+kind:[ \t]*["']?KubeletConfig["']?[ \t]*(?:#[^\n]*)?$/m;
const OBJECT_API = /^[ \t-]+apiVersion:[ \t]*["']?machineconfiguration\.openshift\.io\/v1["']?/m;

export default defineFormat({
  kind: 'openshift',
  rank: 180,
  // Its reader masks template expressions (parse/platform.ts), so `config.yaml.tpl` is read as the file it renders.
  templateNames: true,
  label: 'OpenShift KubeletConfig',
  byContent: (c) =>
    EXTS.has(c.ext) &&
    ((API.test(c.head) && KIND.test(c.head)) || (TEMPLATE_API.test(c.head) && TEMPLATE_KIND.test(c.head) && OBJECT_KIND.test(c.head) && OBJECT_API.test(c.head))),
  parse: platformParse(parseOpenShift),
  comments: () => 'trailing',
  join: { kind: 'standalone', order: 3 },
  watch: ['**/*.yaml', '**/*.yml'],
  selector: ['**/*.yaml', '**/*.yml'],
  activation: ['**/*kubeletconfig*.{yaml,yml}'],
});
