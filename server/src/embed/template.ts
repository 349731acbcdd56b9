/**
 * Template expressions (Go/Helm/Jinja `{{ }}`, Jinja `{% %}`) the file's own format does not know. Reading them is
 * issue #16's job; until then a payload or carrier they break is reported as not checked, never as a syntax error.
 * `${...}` is systemd's own variable syntax in units and env files, so it counts only in YAML and JSON payloads.
 */
export const TEMPLATE_MARKER = /\{\{|\{%/;
export const YAML_TEMPLATE_MARKER = /\{\{|\{%|\$\{/;
