import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InsertTextFormat, type CompletionItem } from 'vscode-languageserver-types';
import { analyze } from '../../server/src/engine.ts';
import { completion } from '../../server/src/features/completion.ts';
import { fieldSnippet } from '../../server/src/features/field-snippet.ts';
import { FIELDS } from '../../server/src/catalog/fields.ts';

const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

function itemsAt(path: string, text: string, line: number, character: number, snippets: boolean): CompletionItem[] {
  const a = analyze([{ path, text }]);
  return completion(a, path, { line, character }, undefined, { snippets });
}

function item(items: CompletionItem[], label: string): CompletionItem {
  const it = items.find((i) => i.label === label);
  assert.ok(it, `${label} is offered`);
  return it;
}

const newText = (i: CompletionItem) => (i.textEdit && 'newText' in i.textEdit ? i.textEdit.newText : i.insertText);

test('a new YAML key comes with its value: a choice for enums and booleans, an entry for reservation maps', () => {
  const items = itemsAt('kubelet-config.yaml', HEAD + '\n', 2, 0, true);
  const driver = item(items, 'cgroupDriver');
  assert.equal(driver.insertTextFormat, InsertTextFormat.Snippet);
  assert.match(newText(driver)!, /^cgroupDriver: \$\{1\|(systemd,cgroupfs|cgroupfs,systemd)\|\}$/);
  assert.equal(newText(item(items, 'kubeReserved')), 'kubeReserved:\n  ${1|cpu,memory,ephemeral-storage,pid|}: $2');
  assert.match(newText(item(items, 'evictionHard'))!, /^evictionHard:\n {2}\$\{1\|memory\.available,.*nodefs\.available,.*\|\}: \$2$/);
  assert.equal(newText(item(items, 'failSwapOn')), 'failSwapOn: ${1|true,false|}');
  assert.equal(newText(item(items, 'maxPods')), 'maxPods: ${1:110}');
  assert.equal(newText(item(items, 'enforceNodeAllocatable')), 'enforceNodeAllocatable:\n  - ${1|none,pods,system-reserved,system-reserved-compressible,kube-reserved,kube-reserved-compressible|}');
});

test('without snippet support, and in JSON, keys stay plain text', () => {
  const plain = item(itemsAt('kubelet-config.yaml', HEAD + '\n', 2, 0, false), 'cgroupDriver');
  assert.equal(plain.insertTextFormat, InsertTextFormat.PlainText);
  assert.equal(newText(plain), 'cgroupDriver: ');
  const json = itemsAt('kubelet-config.json', '{\n  "apiVersion": "kubelet.config.k8s.io/v1beta1",\n  "kind": "KubeletConfiguration",\n  \n}\n', 3, 2, true);
  for (const i of json) assert.notEqual(i.insertTextFormat, InsertTextFormat.Snippet, i.label);
});

test('a key already followed by a value is completed as a name only, never with a snippet', () => {
  const items = itemsAt('kubelet-config.yaml', HEAD + 'cgroupDri: systemd\n', 2, 3, true);
  const driver = item(items, 'cgroupDriver');
  assert.equal(newText(driver), 'cgroupDriver');
  assert.equal(driver.insertTextFormat, InsertTextFormat.PlainText);
});

test('every field snippet is well formed: balanced placeholders, the key first, escaped choices', () => {
  for (const f of FIELDS) {
    const s = fieldSnippet(f);
    if (!s) continue;
    assert.ok(s.startsWith(`${f.path}:`), f.path);
    const opens = (s.match(/(?<!\\)\$\{/g) ?? []).length;
    const closes = (s.match(/(?<!\\)\}/g) ?? []).length;
    assert.equal(opens, closes, `${f.path}: ${s}`);
  }
});
