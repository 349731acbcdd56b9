/**
 * GitHub issue #6: the workspace changing under the server (files deleted,
 * renamed, replaced by directories, folders removed) and workspace
 * confinement (nothing outside the workspace folders is read: not through a
 * symbolic link, not for a watched-file event, not for an absolute
 * EnvironmentFile= or --config= path). Pull diagnostics: workspace/diagnostic
 * shows every file on disk the server analyses, not only open documents.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TestClient, uri, workspace } from './client.ts';
import { eventually } from './server-process.ts';

const ENV = 'kubeadm-node/etc/default/kubelet';
const CONFIG = 'kubeadm-node/var/lib/kubelet/config.yaml';
const CONTAINERD = 'kubeadm-node/etc/containerd/config.toml';
const DROPIN = 'seed-node/etc/systemd/system/kubelet.service.d/10-kubelet.conf';
const CAPS = {
  textDocument: { diagnostic: { dynamicRegistration: false } },
  workspace: { diagnostics: { refreshSupport: true }, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
};
const CREATED = 1;
const CHANGED = 2;
const DELETED = 3;

/** `--allow-privileged` was removed from the kubelet (flag-removed); the cgroup flag silences reserved-cgroup-missing in config.yaml. */
const ENV_TEXT = 'KUBELET_EXTRA_ARGS=--system-reserved-cgroup=/system.slice --allow-privileged=true\n';

type Report = { uri: string; items: { code?: unknown; message: string }[] };

async function everything(c: TestClient): Promise<Report[]> {
  return ((await c.request('workspace/diagnostic', { previousResultIds: [] })) as { items: Report[] }).items;
}
async function codesOf(c: TestClient, u: string): Promise<unknown[]> {
  const r: any = await c.request('textDocument/diagnostic', { textDocument: { uri: u } });
  return r.items.map((d: any) => d.code);
}

describe('the workspace changing under the server (workspace/didChangeWatchedFiles, didChangeWorkspaceFolders)', () => {
  const ws = workspace('kubeadm-node');
  const other = workspace('seed-node');
  const client = new TestClient();
  let configUri = '';
  const envUri = () => uri(ws.path(ENV));
  const flagRemovedIn = async (u: string) => (await everything(client)).some((r) => r.uri === u && r.items.some((d) => d.code === 'flag-removed'));
  const watched = (changes: [string, number][]) => client.notify('workspace/didChangeWatchedFiles', { changes: changes.map(([p, type]) => ({ uri: uri(p), type })) });

  before(async () => {
    ws.write(ENV, ENV_TEXT);
    await client.initialize([ws.dir, other.dir], CAPS);
    configUri = client.open(ws.path(CONFIG), ws.read(CONFIG));
  });
  after(async () => {
    try {
      await client.close();
    } finally {
      ws.dispose();
      other.dispose();
    }
  });

  test('at start: the env file on disk reports its removed flag and config.yaml sees its cgroup flag', async () => {
    assert.ok(await flagRemovedIn(envUri()));
    assert.ok(!(await codesOf(client, configUri)).includes('reserved-cgroup-missing'));
    assert.ok(await flagRemovedIn(uri(other.path(DROPIN))), 'the second folder is read too');
  });

  test('the env file deleted: its diagnostic vanishes and config.yaml loses the flag it carried', async () => {
    rmSync(ws.path(ENV));
    await watched([[ws.path(ENV), DELETED]]);
    await eventually(async () => !(await flagRemovedIn(envUri())), 'the removed flag is no longer reported');
    assert.ok((await codesOf(client, configUri)).includes('reserved-cgroup-missing'));
  });

  test('renamed back into place (created): read again', async () => {
    ws.write('kubeadm-node/etc/default/kubelet.saved', ENV_TEXT);
    renameSync(ws.path('kubeadm-node/etc/default/kubelet.saved'), ws.path(ENV));
    await watched([[ws.path('kubeadm-node/etc/default/kubelet.saved'), DELETED], [ws.path(ENV), CREATED]]);
    await eventually(() => flagRemovedIn(envUri()), 'the flag is reported again');
    assert.ok(!(await codesOf(client, configUri)).includes('reserved-cgroup-missing'));
  });

  test('renamed away: the old name is forgotten, the new name is no EnvironmentFile= of the unit', async () => {
    renameSync(ws.path(ENV), ws.path('kubeadm-node/etc/default/kubelet.old'));
    await watched([[ws.path(ENV), DELETED], [ws.path('kubeadm-node/etc/default/kubelet.old'), CREATED]]);
    await eventually(async () => !(await flagRemovedIn(envUri())), 'the old name is forgotten');
    assert.ok((await codesOf(client, configUri)).includes('reserved-cgroup-missing'));
    rmSync(ws.path('kubeadm-node/etc/default/kubelet.old'));
    await watched([[ws.path('kubeadm-node/etc/default/kubelet.old'), DELETED]]);
  });

  test('the env file replaced by a directory (event: changed): no crash, the old content is forgotten, the directory is read', async () => {
    ws.write(ENV, ENV_TEXT);
    await watched([[ws.path(ENV), CREATED]]);
    await eventually(() => flagRemovedIn(envUri()), 'the env file is back');
    rmSync(ws.path(ENV));
    mkdirSync(ws.path(ENV));
    ws.write(`${ENV}/kubelet.env`, 'KUBELET_EXTRA_ARGS=--cadvisor-port=4194\n');
    await watched([[ws.path(ENV), CHANGED]]);
    await eventually(async () => !(await flagRemovedIn(envUri())), 'the file that became a directory is forgotten');
    assert.ok((await codesOf(client, configUri)).includes('reserved-cgroup-missing'));
    const inside = uri(ws.path(`${ENV}/kubelet.env`));
    assert.ok((await everything(client)).some((r) => r.uri === inside && r.items.some((d) => d.code === 'flag-removed')), 'the file inside the directory is read');
    assert.equal(client.exited, false);
  });

  test('the directory deleted again (event for the directory only): the files under it are forgotten', async () => {
    rmSync(ws.path(ENV), { recursive: true });
    await watched([[ws.path(ENV), DELETED]]);
    const inside = uri(ws.path(`${ENV}/kubelet.env`));
    await eventually(async () => !(await everything(client)).some((r) => r.uri === inside && r.items.length > 0), 'the file under the deleted directory is forgotten');
  });

  test('a folder removed (workspace/didChangeWorkspaceFolders): its files leave the analysis; added back, they return', async () => {
    const folder = { uri: uri(other.dir), name: 'other' };
    await client.notify('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [folder] } });
    await eventually(async () => !(await flagRemovedIn(uri(other.path(DROPIN)))), 'the removed folder is forgotten');
    // A watched-file event inside the removed folder is outside the workspace now.
    await watched([[other.path(DROPIN), CHANGED]]);
    await client.notify('workspace/didChangeWorkspaceFolders', { event: { added: [folder], removed: [] } });
    await eventually(() => flagRemovedIn(uri(other.path(DROPIN))), 'the folder is read again');
  });
});

describe('workspace confinement: nothing outside the folders is read', () => {
  const ws = workspace('kubeadm-node');
  const outside = mkdtempSync(join(tmpdir(), 'kubelet-outside-'));
  const client = new TestClient();
  let configUri = '';
  /** Only files outside the workspace carry this; it must never appear in any diagnostic. */
  const MARK = 'outside.slice';
  const OUTSIDE_ENV = `KUBELET_EXTRA_ARGS=--system-reserved-cgroup=/${MARK} --allow-privileged=true\n`;
  const leaked = async () => JSON.stringify(await everything(client)).includes(MARK) || JSON.stringify(await client.request('textDocument/diagnostic', { textDocument: { uri: configUri } })).includes(MARK);
  const mentions = async (rel: string) => (await everything(client)).some((r) => r.uri.startsWith(uri(ws.path(rel))) && r.items.length > 0);

  before(async () => {
    writeFileSync(join(outside, 'kubelet'), OUTSIDE_ENV);
    mkdirSync(join(outside, 'dir', 'kubelet.service.d'), { recursive: true });
    writeFileSync(join(outside, 'dir', 'kubelet.service.d', '20-outside.conf'), `[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--system-reserved-cgroup=/${MARK} --allow-privileged=true"\n`);
    writeFileSync(join(outside, 'dir', 'outside.env'), OUTSIDE_ENV);
    writeFileSync(join(outside, 'outside-config.yaml'), `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nsystemReservedCgroup: /${MARK}\n`);
    // etc/default/kubelet is a link to a file outside; linked-dir is a link to a directory outside.
    rmSync(ws.path(ENV));
    symlinkSync(join(outside, 'kubelet'), ws.path(ENV));
    symlinkSync(join(outside, 'dir'), ws.path('kubeadm-node/linked-dir'));
    await client.initialize([ws.dir], CAPS);
    configUri = client.open(ws.path(CONFIG), ws.read(CONFIG));
  });
  after(async () => {
    try {
      await client.close();
    } finally {
      ws.dispose();
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('the startup walk follows no link, to a file or to a directory', async () => {
    assert.equal(await leaked(), false);
    assert.ok((await codesOf(client, configUri)).includes('reserved-cgroup-missing'), 'the cgroup flag of the linked env file is not seen');
    assert.equal(await mentions('kubeadm-node/linked-dir'), false);
    assert.equal(await mentions(ENV), false);
  });

  test('watched-file events for the links, for a path under a linked directory, and for a path outside the folders are ignored', async () => {
    // One notification, handled in order: the last change (inside the workspace, visible in config.yaml) proves the others were handled.
    ws.write(CONTAINERD, ws.read(CONTAINERD).replace('SystemdCgroup = false', 'SystemdCgroup = true'));
    const name = outside.split('/').pop()!;
    await client.notify('workspace/didChangeWatchedFiles', {
      changes: [
        { uri: uri(ws.path(ENV)), type: CHANGED },
        { uri: uri(ws.path('kubeadm-node/linked-dir')), type: CREATED },
        { uri: uri(ws.path('kubeadm-node/linked-dir/kubelet.service.d/20-outside.conf')), type: CREATED },
        { uri: uri(ws.path('kubeadm-node/linked-dir/outside.env')), type: CHANGED },
        { uri: uri(join(outside, 'kubelet')), type: CREATED },
        { uri: uri(join(outside, 'dir')), type: CREATED },
        // Dot segments, plain and percent-encoded: URL parsing resolves them, so these name the file outside.
        { uri: `${uri(ws.dir)}/../${name}/kubelet`, type: CREATED },
        { uri: `${uri(ws.dir)}/kubeadm-node/%2e%2e/%2e%2e/${name}/dir/outside.env`, type: CREATED },
        { uri: uri(ws.path(CONTAINERD)), type: CHANGED },
      ],
    });
    await eventually(async () => !(await codesOf(client, configUri)).includes('cgroup-driver-mismatch'), 'the containerd change is seen');
    assert.equal(await leaked(), false);
    assert.ok((await codesOf(client, configUri)).includes('reserved-cgroup-missing'));
    assert.equal(await mentions('kubeadm-node/linked-dir'), false);
    assert.equal((await everything(client)).some((r) => r.uri.startsWith(uri(outside))), false);
  });

  test('EnvironmentFile= and --config= naming absolute paths outside the workspace are not read from disk (they stay unresolved)', async () => {
    const dropin = 'kubeadm-node/etc/systemd/system/kubelet.service.d/20-outside.conf';
    ws.write(dropin, `[Service]\nEnvironmentFile=${join(outside, 'dir', 'outside.env')}\nEnvironment="KUBELET_CONFIG_ARGS=--config=${join(outside, 'outside-config.yaml')}"\n`);
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: uri(ws.path(dropin)), type: CREATED }] });
    const dropinUri = uri(ws.path(dropin));
    await eventually(async () => (await everything(client)).some((r) => r.uri === dropinUri && r.items.some((d) => d.code === 'reference-unresolved')), 'the drop-in is analysed');
    const report = (await everything(client)).find((r) => r.uri === dropinUri)!;
    assert.equal(report.items.filter((d) => d.code === 'reference-unresolved').length, 2, JSON.stringify(report.items));
    assert.equal(await leaked(), false);
  });
});
