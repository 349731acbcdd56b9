import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseContainerdConfig, parseDockerDaemonJson, parseCrioConfig, locateToml, TOML_PATH_SEP } from '../../server/src/parse/runtime.ts';
import type { RuntimeConfigParse } from '../../server/src/parse/types.ts';
import { detectKind } from '../../server/src/registry.ts';

// The package is CommonJS (no "type": "module"), so import.meta is not available to tsc; __dirname is.
const corpus = join(__dirname, '../../../shared/corpus/files/');
const read = (name: string): string | undefined => {
  const u = join(corpus, name);
  return existsSync(u) ? readFileSync(u, 'utf8') : undefined;
};
const parse = (name: string, text: string): RuntimeConfigParse | undefined => {
  const k = detectKind(name, text);
  return k === 'containerd' ? parseContainerdConfig(name, text) : k === 'docker' ? parseDockerDaemonJson(name, text) : k === 'crio' ? parseCrioConfig(name, text) : undefined;
};

test('containerd v2: SystemdCgroup of the default runtime (runc) under plugins."io.containerd.grpc.v1.cri", exact span', () => {
  const t = 'version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\n  SystemdCgroup = true\n';
  const r = parseContainerdConfig('config.toml', t);
  assert.equal(r.cgroupDriver!.driver, 'systemd');
  assert.equal(r.cgroupDriver!.explicit, true);
  assert.deepEqual(r.cgroupDriver!.span.range, { start: { line: 2, character: 2 }, end: { line: 2, character: 22 } });
});

test('containerd v3: plugins.\'io.containerd.cri.v1.runtime\' (single-quoted keys), dotted keys and inline tables are located', () => {
  const t = "version = 3\n[plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]\noptions = { BinaryName = 'runc', SystemdCgroup = true }\n";
  const r = parseContainerdConfig('config.toml', t);
  assert.equal(r.cgroupDriver!.driver, 'systemd');
  assert.deepEqual(r.cgroupDriver!.span.range.start, { line: 2, character: 33 });
  const d = parseContainerdConfig('config.toml', 'version = 3\n[plugins]\n"io.containerd.cri.v1.runtime".containerd.runtimes.runc.options.SystemdCgroup = false\n');
  assert.equal(d.cgroupDriver!.driver, 'cgroupfs');
  assert.equal(d.cgroupDriver!.explicit, true);
  assert.equal(d.cgroupDriver!.span.range.start.line, 2);
});

test('containerd: the driver of default_runtime_name counts; unset SystemdCgroup defaults to false (cgroupfs)', () => {
  const t = 'version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd]\ndefault_runtime_name = "nvidia"\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\nSystemdCgroup = true\n';
  const r = parseContainerdConfig('config.toml', t);
  assert.equal(r.cgroupDriver!.driver, 'cgroupfs');
  assert.equal(r.cgroupDriver!.explicit, false);
  assert.match(r.cgroupDriver!.detail, /nvidia/);
});

test('locateToml skips multi-line strings and arrays', () => {
  const t = 'a = """\n[not.a.table]\nx = 1\n"""\nb = [\n  1, # c\n  2,\n]\n[t]\nk = "v"\n';
  const m = locateToml(t);
  assert.ok(m.has(['t', 'k'].join(TOML_PATH_SEP)));
  assert.ok(!m.has(['not', 'a', 'table', 'x'].join(TOML_PATH_SEP)));
});

test('invalid TOML gives runtime-config-invalid at the TomlError line/column', () => {
  const r = parseContainerdConfig('config.toml', 'version = 2\n[plugins\nx = 1\n');
  assert.equal(r.cgroupDriver, undefined);
  assert.equal(r.problems[0].code, 'runtime-config-invalid');
  assert.equal(r.problems[0].severity, 'error');
  assert.equal(r.problems[0].range.start.line, 1);
});

test('docker: exec-opts native.cgroupdriver=systemd; unknown driver is an error (dockerd accepts systemd or cgroupfs)', () => {
  const r = parseDockerDaemonJson('daemon.json', '{\n  "exec-opts": ["native.cgroupdriver=systemd"]\n}\n');
  assert.equal(r.cgroupDriver!.driver, 'systemd');
  assert.deepEqual(r.cgroupDriver!.span.range, { start: { line: 1, character: 16 }, end: { line: 1, character: 45 } });
  const bad = parseDockerDaemonJson('daemon.json', '{"exec-opts": ["native.cgroupdriver=foo"]}');
  assert.equal(bad.problems[0].code, 'runtime-config-invalid');
});

test('crio: cgroup_manager in [crio.runtime], default systemd when unset', () => {
  const r = parseCrioConfig('crio.conf', '[crio.runtime]\ncgroup_manager = "cgroupfs"\n');
  assert.equal(r.cgroupDriver!.driver, 'cgroupfs');
  assert.equal(r.cgroupDriver!.span.range.start.line, 1);
  const d = parseCrioConfig('crio.conf', '[crio.runtime]\n# cgroup_manager = "cgroupfs"\n');
  assert.equal(d.cgroupDriver!.driver, 'systemd');
  assert.equal(d.cgroupDriver!.explicit, false);
});

const EXPECTED: [string, 'containerd' | 'docker' | 'crio', 'systemd' | 'cgroupfs' | 'invalid', boolean?][] = [
  ['011-kthw-containerd-config.toml', 'containerd', 'systemd', true],
  ['020-eks-al2-containerd-config.toml', 'containerd', 'systemd', true],
  ['021-eks-al2-docker-daemon.json', 'docker', 'cgroupfs', false],
  ['026-eks-nodeadm-containerd-configv3.toml', 'containerd', 'systemd', true],
  ['031-kind-containerd-config.toml', 'containerd', 'systemd', true],
  ['040-community-docker-daemon-invalid-json.json', 'docker', 'invalid'],
  ['042-sk8s-crio.conf', 'crio', 'cgroupfs', true],
  ['043-kindest-node-crio.conf', 'crio', 'cgroupfs', true],
  ['047-disco-containerd-config-cgroupfs.toml', 'containerd', 'cgroupfs', false],
  ['048-disco-crio-systemd.conf', 'crio', 'systemd', true],
  ['053-ubuntu-crio-crio.conf', 'crio', 'systemd', false],
  ['069-aks-gb-containerd-nvidia.toml', 'containerd', 'cgroupfs', false],
  ['070-aks-nvidia-docker-daemon.json', 'docker', 'cgroupfs', false],
  ['075-kube-playbooks-docker-daemon-systemd.json', 'docker', 'systemd', true],
  ['076-workdrafts-docker-daemon-two-objects.json', 'docker', 'invalid'],
];

for (const [name, kind, driver, explicit] of EXPECTED) {
  test(`corpus ${name}: ${kind} cgroup driver ${driver}${explicit === false ? ' (runtime default)' : ''}`, (t) => {
    const text = read(name);
    if (text === undefined) return t.skip('corpus file absent');
    assert.equal(detectKind(name, text), kind);
    const r = parse(name, text)!;
    if (driver === 'invalid') {
      assert.equal(r.cgroupDriver, undefined);
      assert.equal(r.problems[0].code, 'runtime-config-invalid');
      assert.equal(r.problems[0].severity, 'error');
      assert.equal(r.problems[0].range.start.line, 3);
      return;
    }
    assert.deepEqual(r.problems, []);
    assert.equal(r.cgroupDriver!.driver, driver);
    assert.equal(r.cgroupDriver!.explicit, explicit);
    if (explicit) {
      const line = text.split('\n')[r.cgroupDriver!.span.range.start.line];
      assert.match(line.slice(r.cgroupDriver!.span.range.start.character), /SystemdCgroup|cgroup_manager|native\.cgroupdriver/);
    }
  });
}
