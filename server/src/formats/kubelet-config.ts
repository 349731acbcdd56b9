/** A KubeletConfiguration (YAML or JSON), whole or a --config-dir drop-in. */
import { parseConfigFile } from '../parse/config.ts';
import { defineFormat } from './types.ts';

/**
 * At column 0 only: `kind: KubeletConfiguration` indented under another key is a document embedded in a carrier
 * (a cloud-init write_files entry, a Butane inline, a kind config's patches), not this file's kind.
 */
const YAML_KIND = /^["']?kind["']?[ \t]*:[ \t]*["']?KubeletConfiguration\b/m;
const JSON_KIND = /"kind"[ \t\r\n]*:[ \t\r\n]*"KubeletConfiguration"/;
/**
 * Or indented like the file's first line, in the block it starts: go-yaml reads such a file, and drops everything
 * after the first line indented less (parse/yaml.ts dedentEnd; the engine says so). A carrier's first line is at
 * column 0, so its embedded documents do not match.
 */
const YAML_KIND_INDENTED = /^\ufeff?(?:[ \t]*(?:#[^\n]*)?\n)*( +)[^ \t\r\n#][^\n]*\n(?:\1[^\n]*\n|[ \t]*(?:#[^\n]*)?\r?\n)*?\1["']?kind["']?[ \t]*:[ \t]*["']?KubeletConfiguration\b/;

export default defineFormat({
  kind: 'kubelet-config',
  rank: 150,
  templateNames: true,
  label: 'KubeletConfiguration',
  byContent(c) {
    if ((c.ext === 'yaml' || c.ext === 'yml' || c.ext === 'conf') && (YAML_KIND.test(c.head) || YAML_KIND_INDENTED.test(c.head))) return true;
    // kubelet --config-dir drop-ins are YAML or JSON files named *.conf
    return (c.ext === 'json' || c.ext === 'conf') && JSON_KIND.test(c.head);
  },
  parse(path, text, opts) {
    const config = parseConfigFile(path, text, opts);
    return { config, problems: config.problems };
  },
  comments: (p) => ((p.config?.kubeletConfigs[0]?.format ?? (p.path.endsWith('.json') ? 'json' : 'yaml')) === 'json' ? 'none' : 'trailing'),
  join: { kind: 'standalone', order: 2 },
  // Templates of a config (kubelet-config.yaml.j2) are read as the file they render to (parse/template.ts).
  watch: ['**/*.yaml', '**/*.yml', '**/*.json', '**/*.conf', '**/*.{yaml,yml,json}.{j2,jinja,jinja2,tpl,tmpl,gotmpl,template,tftpl}'],
  selector: ['**/*.yaml', '**/*.yml', '**/*.json', '**/*.conf', '**/*.{yaml,yml,json}.{j2,jinja,jinja2,tpl,tmpl,gotmpl,template,tftpl}'],
  activation: [
    '**/var/lib/kubelet/config.yaml',
    '**/kubelet-config.{yaml,yml,json}',
    '**/kubelet/config.{yaml,yml,json}',
    '**/*kubelet*.{yaml,yml,json,conf,env}',
    '**/kubelet.conf.d/*.{yaml,yml,json}',
  ],
});
