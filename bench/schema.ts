/**
 * A JSON schema of KubeletConfiguration generated from the field catalog
 * (server/src/catalog/fields.ts): every top-level field with its JSON type and
 * enum, as a schema-based peer (yaml-language-server) would be given.
 */
import { FIELDS, type FieldInfo } from '../server/src/catalog/fields.ts';

type Schema = Record<string, unknown>;

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
