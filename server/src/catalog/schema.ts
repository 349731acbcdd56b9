/**
 * JSON schemas of KubeletConfiguration generated from the field catalog.
 *
 * - `editorSchema()` is shipped as schemas/kubelet-config.schema.json and
 *   contributed to the YAML and JSON language services. It only annotates
 *   (descriptions, defaults, examples): see EDITOR_SCHEMA_NOTE for why.
 * - `kubeletConfigSchema()` validates, as a schema-based peer
 *   (yaml-language-server) would be given; `npm run bench` times that peer.
 */
import { EVICTION_SIGNALS, RESERVABLE_RESOURCES } from './defaults.ts';
import { FIELDS, type FieldInfo } from './fields.ts';

type Schema = Record<string, unknown>;

export const EDITOR_SCHEMA_NOTE =
  'Completion and hover help only: this schema has no validation keywords (type, enum, required, additionalProperties, pattern, ' +
  'minimum, ...). The kubelet-config language server already reports wrong types, invalid values and quantities, and unknown ' +
  'fields the way the kubelet decodes them; a schema error would repeat each finding with a weaker message.';

function typeOf(f: FieldInfo): Schema {
  const e = f.enumValues?.length ? { enum: f.enumValues } : {};
  switch (f.valueKind) {
    case 'string':
    case 'duration':
      return { type: 'string', ...e };
    case 'bool':
      return { type: 'boolean' };
    case 'int':
      return { type: 'integer' };
    case 'float':
      return { type: 'number' };
    case 'quantity':
      return { type: ['string', 'integer'] };
    case 'map-string':
      return { type: 'object', additionalProperties: { type: ['string', 'integer'] } };
    case 'map-bool':
      return { type: 'object', additionalProperties: { type: 'boolean' } };
    case 'list-string':
      return { type: 'array', items: { type: 'string', ...e } };
    case 'object':
      return { type: 'object' };
    case 'list-object':
      return { type: 'array', items: { type: 'object' } };
    default:
      return {};
  }
}

/** Top-level fields with types and enums, closed to unknown fields: a validating peer's schema. */
export function kubeletConfigSchema(): Schema {
  const properties: Record<string, Schema> = {};
  for (const f of FIELDS) {
    if (f.path.includes('.') || f.path.includes('[')) continue;
    properties[f.path] = { ...typeOf(f), description: f.description, ...(f.default ? { default: f.default } : {}) };
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://kubelet-config.invalid/kubelet-config.schema.json',
    title: 'KubeletConfiguration (kubelet.config.k8s.io/v1beta1)',
    type: 'object',
    properties,
    required: ['apiVersion', 'kind'],
    additionalProperties: false,
  };
}

// ---------------------------------------------------------------------------
// The editor schema: annotations only.

interface Node {
  description?: string;
  markdownDescription?: string;
  default?: unknown;
  examples?: unknown[];
  properties?: Record<string, Node>;
  items?: Node;
}

/** The catalog's default as a value of the field's type, when it is one plain value (else it stays in the text only). */
function typedDefault(f: FieldInfo): unknown {
  const d = f.default;
  if (d === undefined) return undefined;
  if (f.valueKind === 'bool') return d === 'true' ? true : d === 'false' ? false : undefined;
  if (f.valueKind === 'int') return /^-?\d+$/.test(d) ? Number(d) : undefined;
  if (f.valueKind === 'float') return /^-?\d+(\.\d+)?$/.test(d) ? Number(d) : undefined;
  if (f.valueKind === 'string' || f.valueKind === 'duration' || f.valueKind === 'quantity') {
    if (d === '""') return '';
    return /^[^\s"()]+$/.test(d) && d !== 'nil' ? d : undefined;
  }
  return undefined;
}

/** Values offered on completion: the enum, or both booleans. */
function examples(f: FieldInfo): unknown[] | undefined {
  if (f.valueKind === 'bool') return [true, false];
  if (f.enumValues?.length && f.valueKind !== 'list-string') return f.enumValues.filter((v) => v !== '');
  return undefined;
}

function markdown(f: FieldInfo): string {
  const facts = [`Go type \`${f.goType}\``];
  if (f.default !== undefined) facts.push(`default \`${f.default}\``);
  if (f.flag) facts.push(`flag \`--${f.flag}\``);
  if (f.since) facts.push(`since ${f.since}`);
  return `${f.description}\n\n${facts.join(' · ')}`;
}

/** Finds (or makes) the schema node of a dotted catalog path like `reservedMemory[].limits`. */
function nodeAt(root: Node, path: string): Node {
  let node = root;
  for (const seg of path.split('.')) {
    const list = seg.endsWith('[]');
    const name = list ? seg.slice(0, -2) : seg;
    node.properties ??= {};
    node = node.properties[name] ??= {};
    if (list) node = node.items ??= {};
  }
  return node;
}

const keyed = (keys: readonly string[], describe: (k: string) => string): Record<string, Node> =>
  Object.fromEntries(keys.map((k) => [k, { description: describe(k) }]));

/** Known keys of map fields, offered on completion inside the map. */
const MAP_KEYS: Record<string, Record<string, Node>> = {
  ...Object.fromEntries(
    ['kubeReserved', 'systemReserved'].map((field) => [
      field,
      keyed(RESERVABLE_RESOURCES, (r) => `Amount of ${r} set aside (${r === 'cpu' ? 'cores or millicores, e.g. 500m' : r === 'pid' ? 'process IDs' : 'a quantity, e.g. 1Gi'}).`),
    ]),
  ),
  ...Object.fromEntries(
    ['evictionHard', 'evictionSoft', 'evictionMinimumReclaim', 'evictionSoftGracePeriod'].map((field) => [
      field,
      Object.fromEntries(EVICTION_SIGNALS.map((s) => [s.signal, { description: `${s.note} (${s.condition})` }])),
    ]),
  ),
};

export function editorSchema(): Schema {
  const root: Node = {};
  for (const f of FIELDS) {
    const node = nodeAt(root, f.path);
    node.description = f.description.replace(/`/g, '');
    node.markdownDescription = markdown(f);
    const d = typedDefault(f);
    if (d !== undefined) node.default = d;
    const ex = examples(f);
    if (ex) node.examples = ex;
    if (f.valueKind === 'list-string' && f.enumValues?.length) node.items = { examples: f.enumValues };
    const keys = MAP_KEYS[f.path];
    if (keys) node.properties = keys;
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://kubelet-config.invalid/kubelet-config.schema.json',
    title: 'KubeletConfiguration (kubelet.config.k8s.io/v1beta1)',
    description: EDITOR_SCHEMA_NOTE,
    properties: root.properties,
  };
}
