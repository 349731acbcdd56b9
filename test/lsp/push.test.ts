/** Protocol-level tests of dist/server.js over stdio, with a client that takes pushed diagnostics. */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { FLAGS } from '../../server/src/catalog/flags.ts';
import { TestClient, applyEdits, positionOf, uri, workspace } from './client.ts';

const SEED = 'seed-node/usr/lib/systemd/system/kubelet.service';
const ENV = 'kubeadm-node/etc/default/kubelet';
const CONFIG = 'kubeadm-node/var/lib/kubelet/config.yaml';
const CONTAINERD = 'kubeadm-node/etc/containerd/config.toml';
const DOCS = 'docs-example/kubelet-config.yaml';
const NOCAP = 'nocap/kubelet-config.yaml';

describe('language server (push diagnostics)', () => {
  const ws = workspace('seed-node', 'kubeadm-node', 'docs-example');
  const client = new TestClient();
  let caps: any;

  before(async () => {
    ws.write('placeholder.txt', 'not a kubelet file\n');
    const docs = ws.read(DOCS).replace(/^# kubelet-lint: capacity.*\n/m, '');
    mkdirSync(ws.path('nocap'));
    ws.write(NOCAP, docs);
    caps = (await client.initialize([ws.dir])).capabilities;
  });
  after(async () => {
    await client.close();
    ws.dispose();
  });

  test('initialize announces the features', () => {
    assert.equal(caps.textDocumentSync.change, 2, 'incremental sync');
    assert.equal(caps.hoverProvider, true);
    assert.ok(caps.completionProvider);
    // flag names (-), YAML keys (:), a flag's value (=), the next map entry (,), an eviction threshold (<)
    assert.deepEqual(caps.completionProvider.triggerCharacters, ['-', ':', '=', ',', '<']);
    assert.deepEqual(caps.codeActionProvider.codeActionKinds, ['quickfix', 'refactor.rewrite']);
    assert.equal(caps.inlayHintProvider, true);
    assert.ok(caps.codeLensProvider);
    assert.equal(caps.documentSymbolProvider, true);
    assert.equal(caps.foldingRangeProvider, true);
    assert.deepEqual(caps.executeCommandProvider.commands, ['kubelet.showEffectiveConfiguration']);
    assert.equal(caps.diagnosticProvider, undefined, 'no pull diagnostics for a client without them');
  });

  let seedUri = '';
  let swallowed: any;
  test('pushes the swallowed Restart= of the seed unit at its line', async () => {
    seedUri = client.open(ws.path(SEED), ws.read(SEED));
    const p = await client.waitDiagnostics(seedUri, (ds) => ds.some((d) => d.code === 'unit-continuation-swallows-directive'));
    assert.equal(p.version, 1);
    swallowed = p.diagnostics.find((d) => d.code === 'unit-continuation-swallows-directive');
    const restart = positionOf(ws.read(SEED), '\tRestart=always', 1);
    assert.equal(restart.line, 19);
    assert.equal(swallowed.range.start.line, restart.line);
    assert.equal(swallowed.source, 'kubelet');
    assert.equal(swallowed.severity, 1);
    assert.ok(swallowed.data.fixes.length >= 1, 'the fix travels in data');
    assert.ok(p.diagnostics.some((d) => d.code === 'flag-deprecated' && d.severity === 4), 'deprecated flags are hints');
  });

  test('the quick fix edits exactly the fix range, and the fixed version has no such diagnostic', async () => {
    const actions: any[] = await client.request('textDocument/codeAction', {
      textDocument: { uri: seedUri },
      range: swallowed.range,
      context: { diagnostics: [swallowed], only: ['quickfix'] },
    });
    // The rule's own fixes first, then "Disable ... for this file" (no line comment: line 19 continues a command).
    const fixes = actions.filter((x) => !x.title.startsWith('Disable '));
    assert.equal(fixes.length, swallowed.data.fixes.length);
    assert.deepEqual(actions.slice(fixes.length).map((x) => x.title), [`Disable ${swallowed.code} for this file`]);
    const a = actions[0];
    assert.equal(a.kind, 'quickfix');
    assert.equal(a.isPreferred, swallowed.data.fixes[0].preferred === true);
    const edits = a.edit.changes[seedUri];
    assert.deepEqual(edits.map((e: any) => e.range), swallowed.data.fixes[0].edits.map((e: any) => e.range));
    const fixed = applyEdits(ws.read(SEED), edits);
    assert.match(fixed, /system-reserved=cpu=6,memory=24Gi *\n\s*Restart=always/);

    const version = client.change(seedUri, edits.map((e: any) => ({ range: e.range, text: e.newText })));
    const p = await client.waitDiagnostics(seedUri, () => true, version);
    assert.ok(!p.diagnostics.some((d) => d.code === 'unit-continuation-swallows-directive'));
  });

  test('hover on --system-reserved: description, effective value and provenance', async () => {
    const text = ws.read(ENV);
    const u = client.open(ws.path(ENV), text);
    const h: any = await client.request('textDocument/hover', { textDocument: { uri: u }, position: positionOf(text, '--system-reserved', 4) });
    const md: string = h.contents.value;
    const desc = FLAGS.find((f) => f.name === 'system-reserved')!.description;
    assert.ok(md.includes(desc.slice(0, 60)), md);
    assert.match(md, /Effective value: `cpu=1`/);
    // Workspace-relative, as the CLI prints it.
    assert.ok(md.includes(`--system-reserved via $KUBELET_EXTRA_ARGS in ${ENV} line 4`), md);
    assert.ok(!md.includes(ws.dir), md);
  });

  let configUri = '';
  test('document links and Go to Definition lead from the drop-in to the files it names', async () => {
    assert.equal(caps.definitionProvider, true);
    assert.ok(caps.documentLinkProvider);
    const DROPIN = 'kubeadm-node/etc/systemd/system/kubelet.service.d/10-kubeadm.conf';
    const text = ws.read(DROPIN);
    const u = client.open(ws.path(DROPIN), text);
    const links: any[] = await client.request('textDocument/documentLink', { textDocument: { uri: u } });
    const targets = links.map((l) => l.target);
    assert.ok(targets.includes(uri(ws.path(ENV))), JSON.stringify(targets));
    assert.ok(targets.includes(uri(ws.path(CONFIG))), JSON.stringify(targets));
    // the tooltip names the file as messages do, relative to the workspace
    assert.equal(links.find((l) => l.target === uri(ws.path(ENV))).tooltip, `Open ${ENV}`);
    const defs: any[] = await client.request('textDocument/definition', { textDocument: { uri: u }, position: positionOf(text, '$KUBELET_EXTRA_ARGS', 2) });
    assert.deepEqual(defs.map((d) => d.uri), [uri(ws.path(ENV))]);
  });

  test('hover on the config key the flag overrides names the override', async () => {
    const text = ws.read(CONFIG);
    configUri = client.open(ws.path(CONFIG), text);
    const h: any = await client.request('textDocument/hover', { textDocument: { uri: configUri }, position: positionOf(text, 'systemReserved:', 2) });
    assert.ok(h.contents.value.includes(`overridden by \`--system-reserved via $KUBELET_EXTRA_ARGS in ${ENV} line 4\``), h.contents.value);
  });

  test('files on disk take part: containerd config.toml (never opened) conflicts with config.yaml', async () => {
    const p = await client.waitDiagnostics(configUri, (ds) => ds.some((d) => d.code === 'cgroup-driver-mismatch'));
    const d = p.diagnostics.find((x) => x.code === 'cgroup-driver-mismatch')!;
    assert.ok(d.relatedInformation === undefined || d.relatedInformation.every((r) => r.location.uri.startsWith('file://')));
    // Messages name files relative to the workspace folder, as the CLI does.
    assert.ok(String(d.message).includes(`cgroupDriver in ${CONFIG} line 5`), String(d.message));
    assert.ok(p.diagnostics.every((x) => !String(x.message).includes(ws.dir) && (x.relatedInformation ?? []).every((r) => !r.message.includes(ws.dir))), JSON.stringify(p.diagnostics));
  });

  test('a change in the env file updates the diagnostics of the open config.yaml (same node)', async () => {
    await client.waitDiagnostics(configUri, (ds) => ds.some((d) => d.code === 'reserved-cgroup-missing'));
    const envUri = uri(ws.path(ENV));
    const line = ws.read(ENV).split('\n')[3];
    client.change(envUri, [{ range: { start: { line: 3, character: line.length }, end: { line: 3, character: line.length } }, text: ' --system-reserved-cgroup=/system.slice' }]);
    const p = await client.waitDiagnostics(configUri, (ds) => !ds.some((d) => d.code === 'reserved-cgroup-missing'));
    assert.ok(p.diagnostics.some((d) => d.code === 'cgroup-driver-mismatch'), 'other findings stay');
  });

  test('documents opened together each get their own report; two changed together each get one for the new version, even when their findings stay the same', async () => {
    // With a debounce, both changes are in before either timer fires: the first flush computes both documents
    // for the same analysis, and the second document's own flush must still report its new version.
    const other = new TestClient();
    try {
      await other.initialize([ws.dir], {}, { debounceMs: 40 });
      const paths = Array.from({ length: 12 }, (_, i) => `burst-${i}/kubelet-config.yaml`);
      const uris = paths.map((p, i) => {
        mkdirSync(ws.path(p.split('/')[0]), { recursive: true });
        return other.open(ws.path(p), `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nunknownField${i}: 1\n`, 'yaml');
      });
      const reports = await Promise.all(uris.map((u) => other.waitDiagnostics(u, () => true, 1)));
      reports.forEach((p, i) => assert.ok(p.diagnostics.some((d) => d.code === 'config-field-unknown' && String(d.message).includes(`unknownField${i}`)), `burst-${i}`));
      // A comment after the last line: the findings, ranges included, stay exactly the same.
      const comment = (u: string) => other.change(u, [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: '# a comment\n' }]);
      const [va, vb] = [comment(uris[0]), comment(uris[1])];
      const [a, b] = await Promise.all([other.waitDiagnostics(uris[0], () => true, va), other.waitDiagnostics(uris[1], () => true, vb)]);
      assert.deepEqual([a.diagnostics, b.diagnostics], [reports[0].diagnostics, reports[1].diagnostics]);
    } finally {
      await other.close();
    }
  });

  test('workspace/didChangeWatchedFiles re-reads a file on disk', async () => {
    ws.write(CONTAINERD, ws.read(CONTAINERD).replace('SystemdCgroup = false', 'SystemdCgroup = true'));
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri(ws.path(CONTAINERD)), type: 2 }] });
    await client.waitDiagnostics(configUri, (ds) => !ds.some((d) => d.code === 'cgroup-driver-mismatch'));
  });

  test('completion after --kube- offers kube-reserved (not removed flags; deprecated but not struck through: no removal is scheduled)', async () => {
    const envUri = uri(ws.path(ENV));
    const line = ws.read(ENV).split('\n')[3] + ' --system-reserved-cgroup=/system.slice';
    client.change(envUri, [{ range: { start: { line: 3, character: line.length }, end: { line: 3, character: line.length } }, text: ' --kube-' }]);
    const items: any[] = await client.request('textDocument/completion', { textDocument: { uri: envUri }, position: { line: 3, character: line.length + 8 } });
    const kr = items.find((i) => i.label === '--kube-reserved');
    assert.ok(kr, 'offers --kube-reserved');
    assert.deepEqual(kr.textEdit.range, { start: { line: 3, character: line.length + 1 }, end: { line: 3, character: line.length + 8 } });
    assert.equal(kr.textEdit.newText, '--kube-reserved=');
    assert.equal(kr.tags, undefined, 'deprecated since 1.10 but still works: no strikethrough');
    assert.match(kr.detail, /deprecated/);
    assert.ok(!items.some((i) => i.label === '--allow-privileged'), 'removed flags are not offered');
  });

  let docsUri = '';
  test('hover on kubeReserved shows the allocatable table with the kubelet-exact docs-example figures', async () => {
    const text = ws.read(DOCS);
    docsUri = client.open(ws.path(DOCS), text);
    const h: any = await client.request('textDocument/hover', { textDocument: { uri: docsUri }, position: positionOf(text, 'kubeReserved:', 3) });
    const md: string = h.contents.value;
    for (const s of ['| resource | capacity |', '**14.5 CPU**', '30614224896', '28.51 GiB', '94489280352', '88 GiB', '| 32 GiB |', '500 MiB']) assert.ok(md.includes(s), `${s} in\n${md}`);
  });

  test('hover on a quantity shows its exact value and canonical form', async () => {
    const text = ws.read(DOCS);
    const h: any = await client.request('textDocument/hover', { textDocument: { uri: docsUri }, position: positionOf(text, 'memory: 2Gi', 9) });
    assert.ok(h.contents.value.startsWith('Quantity `2Gi` = 2147483648 · canonical form `2Gi`'), h.contents.value);
    const seed = ws.read(SEED);
    const f: any = await client.request('textDocument/hover', { textDocument: { uri: seedUri }, position: positionOf(seed, 'memory=8Gi', 8) });
    assert.ok(f.contents.value.startsWith('Quantity `8Gi` = 8589934592'), f.contents.value);
    assert.ok(f.contents.value.includes('`--kube-reserved`'));
  });

  test('inlay hint and code lens summarise allocatable', async () => {
    const hints: any[] = await client.request('textDocument/inlayHint', { textDocument: { uri: docsUri }, range: { start: { line: 0, character: 0 }, end: { line: 40, character: 0 } } });
    assert.equal(hints.length, 1);
    assert.equal(hints[0].label, 'allocatable: 14.5 CPU · 28.51 GiB · 88 GiB · 110 pods');
    assert.equal(hints[0].position.line, positionOf(ws.read(DOCS), 'kind:').line);
    const lenses: any[] = await client.request('textDocument/codeLens', { textDocument: { uri: seedUri } });
    assert.equal(lenses.length, 2);
    assert.equal(lenses[0].range.start.line, positionOf(ws.read(SEED), 'ExecStart=').line);
    // The lens labelled "allocatable" opens the allocatable view; the effective configuration has its own.
    // The figures are the inlay hint's (and the status bar's): the lens does not repeat them a line above.
    assert.equal(lenses[0].command.title, 'allocatable');
    assert.equal(lenses[0].command.command, 'kubelet.showAllocatable');
    assert.deepEqual([lenses[1].command.title, lenses[1].command.command], ['effective configuration', 'kubelet.showEffectiveConfiguration']);
  });

  test('completion of cgroupDriver values and reservable resources', async () => {
    const text = ws.read(DOCS);
    const values: any[] = await client.request('textDocument/completion', { textDocument: { uri: docsUri }, position: positionOf(text, 'systemd', 3) });
    assert.deepEqual(values.map((i) => i.label).sort(), ['cgroupfs', 'systemd']);
    const resources: any[] = await client.request('textDocument/completion', { textDocument: { uri: docsUri }, position: positionOf(text, 'memory: 2Gi', 2) });
    // The key being typed and the ones the map does not have yet: cpu and ephemeral-storage are already there.
    assert.deepEqual(resources.map((i) => i.label), ['memory', 'pid']);
  });

  test('kubelet.showEffectiveConfiguration returns the merged YAML with provenance comments, paths relative to the workspace', async () => {
    const yaml: string = await client.request('workspace/executeCommand', { command: 'kubelet.showEffectiveConfiguration', arguments: [configUri] });
    assert.match(yaml, /^kind: KubeletConfiguration$/m);
    assert.ok(yaml.includes(`systemReserved:  # --system-reserved via $KUBELET_EXTRA_ARGS in ${ENV} line 4`), yaml);
    assert.ok(yaml.includes(`cgroupDriver: systemd  # cgroupDriver in ${CONFIG} line 5`), yaml);
    assert.ok(!yaml.includes(ws.dir), yaml);
    assert.match(yaml, /^failSwapOn: true {2}# the kubelet default$/m);
  });

  test('document symbols and folding ranges of a unit', async () => {
    const symbols: any[] = await client.request('textDocument/documentSymbol', { textDocument: { uri: seedUri } });
    assert.deepEqual(symbols.map((s) => s.name), ['[Unit]', '[Service]', '[Install]']);
    assert.ok(symbols[1].children.some((c: any) => c.name === 'ExecStart'));
    const folds: any[] = await client.request('textDocument/foldingRange', { textDocument: { uri: seedUri } });
    assert.equal(folds.length, 3);
  });

  test('settings: nodeCapacity gives a capacity, rules change severities', async () => {
    const text = ws.read(NOCAP);
    const u = client.open(ws.path(NOCAP), text);
    const range = { start: { line: 0, character: 0 }, end: { line: 40, character: 0 } };
    let hints: any[] = await client.request('textDocument/inlayHint', { textDocument: { uri: u }, range });
    // Without a capacity the status bar says so once; no inlay hint repeats it, and the lens only names the view.
    assert.deepEqual(hints, []);
    const noCapLenses: any[] = await client.request('textDocument/codeLens', { textDocument: { uri: u } });
    assert.equal(noCapLenses[0].command.title, 'allocatable');
    await client.notify('workspace/didChangeConfiguration', {
      settings: { kubeletConfig: { nodeCapacity: 'cpu=16,memory=32Gi,ephemeral-storage=100Gi', rules: { 'flag-deprecated': 'warning', 'reserved-resource-unknown': 'off' } } },
    });
    hints = await client.request('textDocument/inlayHint', { textDocument: { uri: u }, range });
    assert.equal(hints[0].label, 'allocatable: 14.5 CPU · 28.51 GiB · 88 GiB · 110 pods');
    const envUri = uri(ws.path(ENV));
    await client.waitDiagnostics(envUri, (ds) => ds.some((d) => d.code === 'flag-deprecated' && d.severity === 2));
    await client.waitDiagnostics(configUri, (ds) => ds.length > 0 && !ds.some((d) => d.code === 'reserved-resource-unknown'));
  });

  test('the inlay hint keeps off the line being typed and off a broken line', async () => {
    const u = uri(ws.path(NOCAP));
    const range = { start: { line: 0, character: 0 }, end: { line: 40, character: 0 } };
    const hint = async () => ((await client.request('textDocument/inlayHint', { textDocument: { uri: u }, range })) as any[]).map((h) => h.position.line);
    const kindLine = positionOf(ws.read(NOCAP), 'kind:').line;
    assert.deepEqual(await hint(), [kindLine]);
    // Typing at the end of the kind line: the hint would land inside the new text.
    const end = ws.read(NOCAP).split('\n')[kindLine].length;
    client.change(u, [{ range: { start: { line: kindLine, character: end }, end: { line: kindLine, character: end } }, text: '  # a note' }]);
    assert.deepEqual(await hint(), []);
    // An edit elsewhere (a new comment line at the top): the kind line, one lower now, gets its hint back.
    client.change(u, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# top\n' }]);
    assert.deepEqual(await hint(), [kindLine + 1]);
  });

  test('bad requests answer empty results and the server keeps running', async () => {
    const unknown = await client.request('textDocument/hover', { textDocument: { uri: uri(ws.path('nope/kubelet.service')) }, position: { line: 0, character: 0 } });
    assert.equal(unknown, null);
    const broken = await client.request('textDocument/hover', { textDocument: { uri: seedUri }, position: null });
    assert.equal(broken, null);
    const empty = await client.request('textDocument/completion', { textDocument: { uri: 'untitled:Untitled-1' }, position: { line: 0, character: 0 } });
    assert.deepEqual(empty, []);
    const h: any = await client.request('textDocument/hover', { textDocument: { uri: seedUri }, position: positionOf(ws.read(SEED), 'ExecStart=', 2) });
    assert.match(h.contents.value, /Node Allocatable/);
    assert.equal(client.exited, false);
    assert.ok(client.log.some((l) => /hover failed/.test(l)), 'the exception is logged');
  });
});
