/**
 * schemas/kubelet-config.schema.json: up to date with the catalog, contributed
 * for kubelet config files, and help-only in yaml-language-server (the engine
 * of the YAML extension): completion and hover, never a diagnostic of its own.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { editorSchema, kubeletConfigSchema } from '../../server/src/catalog/schema.ts';
import { SCHEMA_FILE, schemaText } from '../../scripts/schema.ts';

const ROOT = join(__dirname, '..', '..');
const requireFromRoot = createRequire(join(ROOT, 'package.json'));

/** Keywords that make a JSON schema report a problem (draft-07), plus VS Code's deprecationMessage. */
const VALIDATION = new Set([
  'type', 'enum', 'const', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'pattern', 'format',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems',
  'uniqueItems', 'contains', 'minProperties', 'maxProperties', 'dependencies', 'if', 'then', 'else', 'not', 'allOf', 'anyOf',
  'oneOf', 'deprecationMessage', 'errorMessage',
]);

/** Every keyword used in a schema node, walking subschemas (property names are data, not keywords). */
function keywords(node: unknown, out = new Set<string>()): Set<string> {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return out;
  for (const [k, v] of Object.entries(node)) {
    out.add(k);
    if (k === 'properties') for (const sub of Object.values(v as object)) keywords(sub, out);
    else if (k === 'items') keywords(v, out);
  }
  return out;
}

test('the committed schema is what the catalog generates (else: npm run schema)', () => {
  assert.equal(readFileSync(SCHEMA_FILE, 'utf8'), schemaText(), 'schemas/kubelet-config.schema.json is stale: run `npm run schema`');
});

test('the editor schema has no validation keywords: the server already reports types, values and unknown fields', () => {
  const used = keywords(editorSchema());
  assert.deepEqual([...used].filter((k) => VALIDATION.has(k)), []);
  // The check itself sees validation keywords where there are some.
  assert.ok(['type', 'required', 'additionalProperties'].every((k) => keywords(kubeletConfigSchema()).has(k)));
});

test('package.json contributes the schema to the YAML and JSON language services for kubelet config files', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const yaml = pkg.contributes.yamlValidation as { fileMatch: string[]; url: string }[];
  const json = pkg.contributes.jsonValidation as { fileMatch: string[]; url: string }[];
  for (const list of [yaml, json]) {
    assert.equal(list.length, 1);
    assert.equal(join(ROOT, list[0].url), SCHEMA_FILE);
  }
  assert.ok(yaml[0].fileMatch.includes('**/kubelet-config.yaml'));
  assert.ok(yaml[0].fileMatch.includes('**/var/lib/kubelet/config.yaml'));
  assert.ok(json[0].fileMatch.includes('**/kubelet-config.json'));
  assert.ok(yaml[0].fileMatch.every((p) => !p.endsWith('.json')) && json[0].fileMatch.every((p) => p.endsWith('.json')));
});

// ---------------------------------------------------------------------------
// yaml-language-server, as the YAML extension runs it

let version = 0;

async function yamlService(schema: object) {
  const { getLanguageService } = requireFromRoot('yaml-language-server');
  const uri = 'file:///schemas/kubelet-config.schema.json';
  const ls = getLanguageService({
    schemaRequestService: (u: string) => (u === uri ? Promise.resolve(JSON.stringify(schema)) : Promise.reject(new Error(`no schema ${u}`))),
    workspaceContext: { resolveRelativePath: (rel: string, base: string) => new URL(rel, base).toString() },
  });
  ls.configure({ validate: true, hover: true, completion: true, isKubernetes: false, yamlVersion: '1.2', schemas: [{ uri, fileMatch: ['**/kubelet-config.yaml'], schema }] });
  // A new version each time: the service caches parses by URI and version.
  const doc = (text: string) => TextDocument.create('file:///node/kubelet-config.yaml', 'yaml', ++version, text);
  return { ls, doc };
}

const MISTAKES = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: lxc
failSwapOn: yes
maxPods: "many"
kubeReserved:
  memory: 1GB
  gpu: 1
evictionHard: 5
enforceNodeAllocatable: [podz]
unknownField: 1
`;

test('yaml-language-server: a file full of mistakes gets no diagnostics from the schema (the strict schema reports them)', async () => {
  const editor = await yamlService(editorSchema());
  assert.deepEqual(await editor.ls.doValidation(editor.doc(MISTAKES), false), []);
  const strict = await yamlService(kubeletConfigSchema());
  assert.ok((await strict.ls.doValidation(strict.doc(MISTAKES), false)).length >= 5, 'the harness applies a schema');
});

test('yaml-language-server: completion of fields, enum values, booleans, reservable resources and eviction signals', async () => {
  const { ls, doc } = await yamlService(editorSchema());
  const text = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: \nfailSwapOn: \nkubeReserved:\n  \nevictionHard:\n  \n';
  const labels = async (line: number, character: number) => (await ls.doComplete(doc(text), { line, character }, false)).items.map((i: { label: string }) => i.label);
  assert.deepEqual(await labels(2, 14), ['cgroupfs', 'systemd']);
  assert.deepEqual(await labels(3, 12), ['true', 'false']);
  assert.deepEqual((await labels(5, 2)).sort(), ['cpu', 'ephemeral-storage', 'memory', 'pid']);
  assert.ok((await labels(7, 2)).includes('memory.available'));
  const written = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\n';
  const top = (await ls.doComplete(doc(written), { line: 3, character: 0 }, false)).items.map((i: { label: string }) => i.label);
  assert.ok(top.includes('systemReserved') && top.includes('evictionSoft'), 'top-level fields');
  assert.ok(!top.includes('cgroupDriver'), 'not the fields already written');
});

test('yaml-language-server: hover shows the catalog description', async () => {
  const { ls, doc } = await yamlService(editorSchema());
  const hover = await ls.doHover(doc('apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\n'), { line: 2, character: 3 });
  assert.match(JSON.stringify(hover?.contents), /How the kubelet manages cgroups/);
});
