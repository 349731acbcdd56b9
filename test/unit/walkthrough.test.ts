// Issue 26, point 18: the walkthrough's first step ("Open a kubelet file") completes once a kubelet file is open,
// also one opened before the extension started or behind the walkthrough's own page (no active text editor then).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { whenKubeletFileOpen, type WalkthroughApi } from '../../client/src/walkthrough.ts';

type Doc = { fileName: string };
type Listener<T> = (x: T) => void;

function fakeApi(open: Doc[], visible: Doc[] = []) {
  const listeners = { open: [] as Listener<Doc>[], active: [] as Listener<{ document: Doc } | undefined>[], visible: [] as Listener<{ document: Doc }[]>[] };
  const on = <T>(list: Listener<T>[]) => (l: Listener<T>) => (list.push(l), { dispose() {} });
  const api = {
    window: { visibleTextEditors: visible.map((document) => ({ document })), onDidChangeActiveTextEditor: on(listeners.active), onDidChangeVisibleTextEditors: on(listeners.visible) },
    workspace: { textDocuments: open, onDidOpenTextDocument: on(listeners.open) },
    languages: { match: (_: unknown, d: Doc) => (d.fileName.endsWith('kubelet.service') || d.fileName.endsWith('config.yaml') ? 10 : 0) },
  } as unknown as WalkthroughApi;
  return { api, listeners };
}

test('18: a kubelet file already open when the extension starts completes the step at once (no active text editor needed)', () => {
  let calls = 0;
  const { api } = fakeApi([{ fileName: '/n/README.md' }, { fileName: '/n/etc/systemd/system/kubelet.service' }]);
  whenKubeletFileOpen(api, [], () => calls++);
  assert.equal(calls, 1);
});

test('18: a kubelet file opened later completes it once; other files do not', () => {
  let calls = 0;
  const { api, listeners } = fakeApi([{ fileName: '/n/README.md' }]);
  whenKubeletFileOpen(api, [], () => calls++);
  assert.equal(calls, 0);
  listeners.open[0]({ fileName: '/n/notes.txt' });
  listeners.active[0](undefined);
  assert.equal(calls, 0);
  listeners.open[0]({ fileName: '/n/var/lib/kubelet/config.yaml' });
  listeners.visible[0]([{ document: { fileName: '/n/etc/systemd/system/kubelet.service' } }]);
  assert.equal(calls, 1);
});
