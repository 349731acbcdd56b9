/** The `kubelet/allocatable` request and `kubelet/allocatableChanged` notification of dist/server.js. */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ALLOCATABLE_CHANGED, ALLOCATABLE_REQUEST, type AllocatableResponse } from '../../server/src/features/allocatable-data.ts';
import { TestClient, positionOf, uri, workspace } from './client.ts';

const DOCS = 'docs-example/kubelet-config.yaml';
const NOCAP = 'nocap/kubelet-config.yaml';

describe('language server: allocatable for the editor view', () => {
  const ws = workspace('docs-example');
  const client = new TestClient();
  let changed = 0;
  /** Resolves at the next kubelet/allocatableChanged after this call. */
  let nextChange: () => Promise<void> = async () => {};

  const allocatable = (rel: string) => client.request<AllocatableResponse | null>(ALLOCATABLE_REQUEST, { uri: uri(ws.path(rel)) });
  const figure = (r: AllocatableResponse | null, resource: string) => r?.nodes[0]?.resources.find((x) => x.resource === resource)?.allocatable;

  before(async () => {
    ws.write('placeholder.txt', 'not a kubelet file\n');
    mkdirSync(ws.path('nocap'));
    ws.write(NOCAP, ws.read(DOCS).replace(/^# kubelet-lint: capacity.*\n/m, ''));
    const waiters: (() => void)[] = [];
    client.conn.onNotification(ALLOCATABLE_CHANGED, () => {
      changed++;
      waiters.splice(0).forEach((w) => w());
    });
    nextChange = () => {
      const seen = changed;
      return new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no ${ALLOCATABLE_CHANGED} within 5 s`)), 5000);
        waiters.push(() => {
          if (changed > seen) {
            clearTimeout(t);
            resolve();
          }
        });
      });
    };
    // With workspace/configuration the server pulls settings after the change notification,
    // so only its own notification says when a new allocatable is ready.
    await client.initialize([ws.dir], { workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false } } });
  });
  after(async () => {
    await client.close();
    ws.dispose();
  });

  test('a file on disk: the exact figures of its node, as strings', async () => {
    const r = await allocatable(DOCS);
    assert.ok(r);
    assert.equal(r.nodes.length, 1);
    const node = r.nodes[0];
    assert.equal(node.node, DOCS, 'named relative to the workspace, as in messages');
    assert.equal(node.summary, '14.5 CPU · 28.51 GiB');
    assert.equal(figure(r, 'cpu'), '14500');
    assert.equal(figure(r, 'memory'), '30614224896');
    assert.equal(figure(r, 'ephemeral-storage'), '94489280352');
    assert.equal(figure(r, 'pods'), '110');
    assert.match(node.capacitySource ?? '', /modeline/);
  });

  test('a file the server does not read answers null', async () => {
    assert.equal(await allocatable('placeholder.txt'), null);
  });

  test('without a capacity: reservations only; the nodeCapacity setting then gives figures, announced by a notification', async () => {
    let r = await allocatable(NOCAP);
    assert.equal(r?.nodes[0].hasCapacity, false);
    assert.equal(r?.nodes[0].summary, 'no capacity');
    assert.equal(figure(r, 'cpu'), undefined);
    assert.equal(r?.nodes[0].resources[0].parts[0].amount, '1000', 'kube-reserved cpu');

    client.settings = { nodeCapacity: 'cpu=8,memory=16Gi' };
    const announced = nextChange();
    await client.notify('workspace/didChangeConfiguration', { settings: null });
    await announced;
    r = await allocatable(NOCAP);
    assert.equal(r?.nodes[0].hasCapacity, true);
    assert.equal(figure(r, 'cpu'), '6500');
    assert.equal(r?.nodes[0].summary, '6.5 CPU · 12.51 GiB');
    assert.equal(figure(await allocatable(DOCS), 'cpu'), '14500', 'the modeline still wins');
  });

  test('an edit of an open document shows in the next answer', async () => {
    const text = ws.read(NOCAP);
    const u = client.open(ws.path(NOCAP), text);
    const at = positionOf(text, 'cpu: "1"', 6);
    client.change(u, [{ range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: '2' }]);
    // Messages are ordered: the request sees the change without waiting for diagnostics.
    assert.equal(figure(await allocatable(NOCAP), 'cpu'), '5500');
  });

  test('a change on disk is announced too', async () => {
    ws.write(DOCS, ws.read(DOCS).replace('cpu: "1"', 'cpu: "3"'));
    const announced = nextChange();
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri(ws.path(DOCS)), type: 2 }] });
    await announced;
    assert.equal(figure(await allocatable(DOCS), 'cpu'), '12500');
  });

  test('the version source names a kubeadm file beside the node (its root) relative to the workspace, as the status bar and view show it', async () => {
    ws.write('docs-example/cluster.yaml', 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.30.2\n');
    const announced = nextChange();
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri(ws.path('docs-example/cluster.yaml')), type: 1 }] });
    await announced;
    const node = (await allocatable(DOCS))?.nodes[0];
    assert.equal(node?.kubernetesVersion, '1.30');
    // Before: the absolute path, since the client relabels only the node's own files.
    // Before: the absolute path, since the client relabels only the node's own files. It says why another file's version holds.
    assert.equal(node?.kubernetesVersionSource, "kubernetesVersion v1.30.2 in docs-example/cluster.yaml line 3 (the kubeadm ClusterConfiguration of this node's root, as its own files name no version)");
  });
});
