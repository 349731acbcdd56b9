/**
 * fast-check generators for every file kind the engine reads, and a mutator
 * over the real files of ../shared/corpus/files.
 *
 * The generators aim at the places parsers go wrong: line continuations,
 * comments, quotes, `$VAR` references, blank/odd whitespace, YAML/JSON type
 * confusion, multi-document YAML, TOML tables. They produce mostly-valid
 * input with a sprinkle of junk, so that the rules (not only the parsers) run.
 */
import { corpusDir } from '../helpers/corpus.ts';
import fc from 'fast-check';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceFile } from '../../server/src/model/source.ts';

// ---------------------------------------------------------------------------------------------
// Vocabulary

export const FLAGS = [
  'config', 'kubeconfig', 'bootstrap-kubeconfig', 'v', 'node-labels', 'kube-reserved', 'system-reserved', 'eviction-hard',
  'eviction-soft', 'eviction-soft-grace-period', 'cgroup-driver', 'container-runtime-endpoint', 'max-pods', 'pod-infra-container-image',
  'network-plugin', 'cni-bin-dir', 'allow-privileged', 'cadvisor-port', 'fail-swap-on', 'cgroups-per-qos', 'enforce-node-allocatable',
  'kube-reserved-cgroup', 'system-reserved-cgroup', 'reserved-cpus', 'cpu-manager-policy', 'cloud-provider', 'hostname-override',
  'register-node', 'rotate-certificates', 'experimental-allocatable-ignore-eviction', 'cgroup-root', 'runtime-cgroups',
  'kubelet-cgroups', 'feature-gates', 'node-ip', 'pods-per-core', 'cgroup-drver', 'kube-reservd', 'unknown-flag', 'memory-manager-policy',
  'reserved-memory', 'topology-manager-policy', 'eviction-minimum-reclaim', 'protect-kernel-defaults', 'resolv-conf',
];

export const CONFIG_FIELDS = [
  'cgroupDriver', 'cgroupsPerQOS', 'cgroupRoot', 'kubeReserved', 'systemReserved', 'evictionHard', 'evictionSoft',
  'evictionSoftGracePeriod', 'evictionMinimumReclaim', 'enforceNodeAllocatable', 'kubeReservedCgroup', 'systemReservedCgroup',
  'reservedSystemCPUs', 'maxPods', 'podsPerCore', 'cpuManagerPolicy', 'memoryManagerPolicy', 'reservedMemory', 'failSwapOn',
  'localStorageCapacityIsolation', 'containerRuntimeEndpoint', 'clusterDNS', 'clusterDomain', 'staticPodPath', 'rotateCertificates',
  'featureGates', 'resolverConfig', 'cgroupDrver', 'kubeReserverd', 'evictionPressureTransitionPeriod', 'authentication', 'address',
];

export const RESOURCE_KEYS = ['cpu', 'memory', 'ephemeral-storage', 'pid', 'hugepages-2Mi', 'memroy', 'gpu', 'storage'];
export const SIGNALS = ['memory.available', 'nodefs.available', 'nodefs.inodesFree', 'imagefs.available', 'imagefs.inodesFree', 'pid.available', 'memory.avaliable', 'nodefs.availble'];
const VAR_NAMES = ['KUBELET_EXTRA_ARGS', 'KUBELET_KUBEADM_ARGS', 'KUBELET_CONFIG_ARGS', 'KUBELET_KUBECONFIG_ARGS', 'KUBELET_EXTR_ARGS', 'FOO', 'X', 'KUBELET_ARGS'];
const JUNK_CHARS = ['\\', '"', "'", '$', '{', '}', '%', '#', ';', '=', ' ', '\t', '\r', '\u0000', '\ufeff', '\ud800', 'é', '😀', ':', '-', '[', ']', ',', '\n'];

/** A short word of mostly-plausible characters with some hostile ones. */
export const junkWord = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...'abcdefgKMGi0123456789._/-'.split('')) }, { weight: 1, arbitrary: fc.constantFrom(...JUNK_CHARS) }), { maxLength: 8 })
  .map((a) => a.join(''));

// ---------------------------------------------------------------------------------------------
// Quantities

const DEC_SUFFIXES = ['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E'];
const BIN_SUFFIXES = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/** Text that looks like a quantity: valid most of the time, with the odd corners of the grammar. */
export const quantityText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom('', '', '', '-', '+'), fc.stringMatching(/^[0-9]{1,6}$/), fc.option(fc.stringMatching(/^[0-9]{0,4}$/), { nil: undefined }), fc.constantFrom(...DEC_SUFFIXES, ...BIN_SUFFIXES, 'e3', 'E-2', 'e+6')).map(([s, i, f, x]) => `${s}${i}${f !== undefined ? '.' + f : ''}${x}`) },
  { weight: 1, arbitrary: fc.constantFrom('0', '-0', '.', '-', '+', 'Ki', '1.', '.5', '1e999999', '8Ei', '-9Ei', '1e4294967296', '0.9n', '1.5Gi', '1ki', '1 Gi', '1Gi ', '', '100%', '10%', '1,000', '0x10', '١٢') },
  { weight: 1, arbitrary: junkWord },
);

// ---------------------------------------------------------------------------------------------
// Kubelet flags and command lines

const flagValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('true', 'false', 'systemd', 'cgroupfs', 'cgroupfss', '/var/lib/kubelet/config.yaml', '2', 'static', 'none', 'pods,kube-reserved', 'pods,system-reserverd', '0-1', '110', 'unix:///run/containerd/containerd.sock'),
  fc.tuple(fc.constantFrom(...RESOURCE_KEYS), quantityText).map(([k, v]) => `${k}=${v}`),
  fc.array(fc.tuple(fc.constantFrom(...RESOURCE_KEYS, ...SIGNALS), quantityText), { minLength: 1, maxLength: 3 }).map((a) => a.map(([k, v]) => `${k}=${v}`).join(',')),
  fc.array(fc.tuple(fc.constantFrom(...SIGNALS), quantityText), { minLength: 1, maxLength: 3 }).map((a) => a.map(([k, v]) => `${k}<${v}`).join(',')),
  junkWord,
);

/** One word of a kubelet command line. */
export const argWord: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom('--', '--', '-'), fc.constantFrom(...FLAGS), fc.constantFrom('=', '=', ' '), flagValue).map(([d, f, sep, v]) => `${d}${f}${sep}${v}`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('--'), fc.constantFrom(...FLAGS)).map(([d, f]) => d + f) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('$', '${', '"$', "'$", '$$'), fc.constantFrom(...VAR_NAMES)).map(([p, v]) => (p === '${' ? `\${${v}}` : p === '"$' ? `"$${v}"` : p === "'$" ? `'$${v}'` : p + v)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...FLAGS), flagValue, fc.constantFrom('"', "'")).map(([f, v, q]) => `${q}--${f}=${v}${q}`) },
  { weight: 1, arbitrary: junkWord },
);

export const commandLine = fc.array(argWord, { maxLength: 8 });

// ---------------------------------------------------------------------------------------------
// systemd units and drop-ins

const blank = fc.constantFrom('', ' ', '\t', '  ');
const comment = fc.tuple(fc.constantFrom('#', ';', ' #', '# kubelet-lint: capacity cpu=16,memory=64Gi,ephemeral-storage=200Gi', '# kubelet-lint: kubernetes-version 1.30', '# kubelet-lint: capacity cpu=x', '# kubelet-lint-disable-next-line'), junkWord).map(([c, w]) => c + w);

/** ExecStart= with continuations: `\` at line ends (sometimes followed by blanks), comments between pieces. */
const execStart = fc
  .tuple(
    fc.constantFrom('ExecStart=', 'ExecStart=-', 'ExecStart=@', 'ExecStart=+', 'ExecStart='),
    fc.constantFrom('/usr/bin/kubelet', '/usr/local/bin/kubelet', 'kubelet', '/bin/sh -c "kubelet', '/usr/bin/kubelet'),
    fc.array(fc.tuple(argWord, fc.constantFrom(' ', ' ', ' \\\n  ', ' \\\n', ' \\ \n', '\\\n', ' \\\n# comment\n  ', ' \\\n\n', ' \\\nRestart=always ')), { maxLength: 8 }),
  )
  .map(([k, bin, words]) => k + bin + words.map(([w, sep]) => sep + w).join(''));

const envAssign = fc.tuple(fc.constantFrom(...VAR_NAMES), commandLine, fc.constantFrom('"', "'", '')).map(([v, args, q]) => (q ? `${q}${v}=${args.join(' ')}${q}` : `${v}=${args.join(' ').replace(/ /g, '\\x20')}`));

const directive: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: execStart },
  { weight: 1, arbitrary: fc.constant('ExecStart=') },
  { weight: 3, arbitrary: fc.array(envAssign, { minLength: 1, maxLength: 3 }).map((a) => `Environment=${a.join(' ')}`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('', '-'), fc.constantFrom('/etc/default/kubelet', '/var/lib/kubelet/kubeadm-flags.env', '/etc/sysconfig/kubelet', '/nonexistent')).map(([o, p]) => `EnvironmentFile=${o}${p}`) },
  { weight: 1, arbitrary: fc.constantFrom('Restart=always', 'RestartSec=10', 'Type=notify', 'Type=oneshot', 'Type=simple', 'Delegate=yes', 'Slice=kube.slice', 'CPUAccounting=true', 'MemoryAccounting=true', 'PassEnvironment=FOO KUBELET_EXTRA_ARGS', 'StartLimitInterval=0', 'WantedBy=multi-user.target', 'After=containerd.service') },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('ExecStartPre=', 'ExecStartPre=-'), fc.constantFrom('/bin/mkdir -p /sys/fs/cgroup/cpuset/kube.slice', '/sbin/swapoff -a', '/bin/true \\')).map(([a, b]) => a + b) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('ExecStart', 'Environment', 'Foo', 'execstart', ' ExecStart', 'ExecStart '), fc.constantFrom('=', ' = ', ''), junkWord).map(([k, e, v]) => k + e + v) },
);

const unitLine: fc.Arbitrary<string> = fc.oneof({ weight: 6, arbitrary: directive }, { weight: 1, arbitrary: comment }, { weight: 1, arbitrary: blank }, { weight: 1, arbitrary: fc.constantFrom('[Service]', '[Unit]', '[Install]', '[Service', '[service]', ' [Service] ') });

const trailing = fc.constantFrom('', '', '', ' ', '\\', ' \\ ');

export const unitText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('[Service]\n', '[Unit]\nDescription=kubelet\n\n[Service]\n', '', '[Service]\r\n'), fc.array(fc.tuple(unitLine, trailing), { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([head, lines, nl, final]) => head + lines.map(([l, t]) => l + t).join(nl) + (final ? nl : ''));

// ---------------------------------------------------------------------------------------------
// Env files (EnvironmentFile=): quotes, escapes, continuations, export, comments

const envValue = fc.oneof(
  commandLine.map((a) => a.join(' ')),
  commandLine.map((a) => `"${a.join(' ')}"`),
  commandLine.map((a) => `'${a.join(' ')}'`),
  commandLine.map((a) => `"${a.join(' \\\n')}"`),
  commandLine.map((a) => a.join(' \\\n')),
  junkWord,
);
const envLine = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom('', '', 'export ', ' '), fc.constantFrom(...VAR_NAMES, '1BAD', 'A-B', ''), fc.constantFrom('=', '=', ' = ', '= '), envValue).map(([e, k, eq, v]) => e + k + eq + v) },
  { weight: 1, arbitrary: comment },
  { weight: 1, arbitrary: blank },
);
export const envText: fc.Arbitrary<string> = fc.tuple(fc.array(envLine, { maxLength: 8 }), fc.constantFrom('\n', '\r\n'), fc.boolean()).map(([l, nl, f]) => l.join(nl) + (f ? nl : ''));

// ---------------------------------------------------------------------------------------------
// KubeletConfiguration as a value tree, rendered as YAML or JSON

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const scalar: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: quantityText },
  { weight: 1, arbitrary: fc.constantFrom<Json>(true, false, null, 0, 1, -1, 110, 1.5, 'systemd', 'cgroupfs', 'none', 'static', '5m', '1m30s', 'pods', 'kube-reserved', 'system-reserved', '/kube.slice', 'kube.slice', '/system.slice', '0-1', 'CGROUP_DRIVER', '${DRIVER}', '{{ .Driver }}') },
  { weight: 1, arbitrary: junkWord },
);

const resourceMap = fc.dictionary(fc.constantFrom(...RESOURCE_KEYS), quantityText, { maxKeys: 4 });
const signalMap = fc.dictionary(fc.constantFrom(...SIGNALS), fc.oneof(quantityText, fc.constantFrom('10%', '5%', '0%', '100%', '150%', '-1%', '10.5%', '%', '1.5Gi')), { maxKeys: 4 });

const fieldValue = (field: string): fc.Arbitrary<Json> => {
  switch (field) {
    case 'kubeReserved':
    case 'systemReserved':
      return fc.oneof({ weight: 4, arbitrary: resourceMap as fc.Arbitrary<Json> }, { weight: 1, arbitrary: scalar });
    case 'evictionHard':
    case 'evictionSoft':
    case 'evictionMinimumReclaim':
      return fc.oneof({ weight: 4, arbitrary: signalMap as fc.Arbitrary<Json> }, { weight: 1, arbitrary: scalar });
    case 'evictionSoftGracePeriod':
      return fc.dictionary(fc.constantFrom(...SIGNALS), fc.constantFrom('1m', '30s', '', 'x', '-1s', '1h2m'), { maxKeys: 3 }) as fc.Arbitrary<Json>;
    case 'enforceNodeAllocatable':
      return fc.oneof(fc.array(fc.constantFrom<Json>('pods', 'kube-reserved', 'system-reserved', 'none', 'pod', 'kube-reserved-compressible', 'system-reserved-compressible', 1), { maxLength: 4 }), scalar);
    case 'featureGates':
      return fc.dictionary(fc.constantFrom('KubeletCgroupDriverFromCRI', 'MemoryQoS', 'Foo'), fc.constantFrom<Json>(true, false, 'yes'), { maxKeys: 2 }) as fc.Arbitrary<Json>;
    case 'clusterDNS':
      return fc.oneof(fc.array(fc.constantFrom<Json>('10.96.0.10', '::1', 'x'), { maxLength: 2 }), scalar);
    case 'reservedMemory':
      return fc.array(fc.record({ numaNode: fc.constantFrom<Json>(0, 1, '0'), limits: resourceMap as fc.Arbitrary<Json> }), { maxLength: 2 }) as fc.Arbitrary<Json>;
    case 'authentication':
      return fc.record({ anonymous: fc.record({ enabled: fc.boolean() }), webhook: fc.record({ enabled: fc.boolean() }) }) as fc.Arbitrary<Json>;
    default:
      return scalar;
  }
};

export const kubeletConfigObject: fc.Arbitrary<Record<string, Json>> = fc
  .tuple(
    fc.constantFrom('kubelet.config.k8s.io/v1beta1', 'kubelet.config.k8s.io/v1beta1', 'kubelet.config.k8s.io/v1', 'kubeadm.k8s.io/v1beta3'),
    fc.uniqueArray(fc.constantFrom(...CONFIG_FIELDS), { maxLength: 10 }).chain((keys) => fc.tuple(...keys.map((k) => fieldValue(k).map((v) => [k, v] as const)))),
  )
  .map(([api, entries]) => ({ apiVersion: api, kind: 'KubeletConfiguration', ...Object.fromEntries(entries) }));

/** Quote a YAML scalar the way a person might (plain, single, double). */
function yamlScalar(v: Json, style: number): string {
  if (v === null) return ['null', '~', ''][style % 3]!;
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (typeof v !== 'string') return JSON.stringify(v);
  if (style % 3 === 1 && !v.includes("'") && !/[\n\r]/.test(v)) return `'${v}'`;
  if (style % 3 === 2 || /^$|[:#\n\r"'{}[\],&*!|>%@`\t\\]|^[ -?]|\s$|^\s/.test(v)) return JSON.stringify(v);
  return v;
}

/** Hand-rolled YAML: block maps and lists, flow style now and then, comments, odd indentation. */
export function toYaml(obj: Record<string, Json>, style: number[]): string {
  let k = 0;
  const st = () => style[k++ % Math.max(1, style.length)] ?? 0;
  const lines: string[] = [];
  const emit = (v: Json, indent: string, key: string | undefined, listItem: boolean): void => {
    const lead = indent + (listItem ? '- ' : '') + (key !== undefined ? `${key}:` : '');
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const e = Object.entries(v);
      if (e.length === 0 || st() % 5 === 0) {
        lines.push(`${lead} ${JSON.stringify(v)}`);
        return;
      }
      if (key === undefined && listItem) {
        // "- a: 1" then "  b: 2"
        e.forEach(([kk, vv], i) => emit(vv, i === 0 ? indent : indent + '  ', kk, i === 0));
        return;
      }
      lines.push(lead + (st() % 7 === 0 ? ' # comment' : ''));
      for (const [kk, vv] of e) emit(vv, indent + (st() % 11 === 0 ? '    ' : '  '), kk, false);
      return;
    }
    if (Array.isArray(v)) {
      if (v.length === 0 || st() % 4 === 0) {
        lines.push(`${lead} [${v.map((x) => yamlScalar(x, st())).join(', ')}]`);
        return;
      }
      lines.push(lead);
      for (const x of v) emit(x, indent + (st() % 2 ? '  ' : ''), undefined, true);
      return;
    }
    lines.push(`${lead}${key !== undefined || listItem ? ' ' : ''}${yamlScalar(v, st())}`);
  };
  for (const [key, v] of Object.entries(obj)) {
    if (st() % 13 === 0) lines.push('# ' + key);
    emit(v, '', key, false);
  }
  return lines.join('\n') + '\n';
}

export const kubeletConfigYaml = fc.tuple(kubeletConfigObject, fc.array(fc.nat(40), { minLength: 1, maxLength: 20 }), fc.option(comment, { nil: undefined })).map(([o, s, c]) => (c ? c + '\n' : '') + toYaml(o, s));
export const kubeletConfigJson = fc.tuple(kubeletConfigObject, fc.constantFrom(0, 2, '\t')).map(([o, ind]) => JSON.stringify(o, null, ind) + '\n');

// ---------------------------------------------------------------------------------------------
// kubeadm multi-document YAML

export const kubeadmYaml = fc
  .tuple(
    fc.constantFrom('kubeadm.k8s.io/v1beta3', 'kubeadm.k8s.io/v1beta4', 'kubeadm.k8s.io/v1beta2'),
    fc.array(
      fc.oneof(
        fc.record({ kind: fc.constantFrom('InitConfiguration', 'JoinConfiguration'), nodeRegistration: fc.record({ criSocket: fc.constantFrom('unix:///run/containerd/containerd.sock', 'x'), kubeletExtraArgs: fc.oneof(fc.dictionary(fc.constantFrom(...FLAGS), flagValue as fc.Arbitrary<Json>, { maxKeys: 3 }), fc.array(fc.record({ name: fc.constantFrom(...FLAGS), value: flagValue }), { maxLength: 3 })) }) }).map((d) => ['kubeadm', d] as const),
        fc.record({ kind: fc.constantFrom('ClusterConfiguration'), kubernetesVersion: fc.constantFrom('v1.30.0', '1.31', 'stable') }).map((d) => ['kubeadm', d] as const),
        kubeletConfigObject.map((d) => ['kubelet', d] as const),
      ),
      { minLength: 1, maxLength: 4 },
    ),
    fc.array(fc.nat(40), { minLength: 1, maxLength: 10 }),
    fc.constantFrom('---\n', '---\n', '--- \n', '---\n...\n---\n', '\n---\n# doc\n'),
  )
  .map(([api, docs, style, sep]) => docs.map(([k, d]) => toYaml((k === 'kubeadm' ? { apiVersion: api, ...d } : d) as Record<string, Json>, style)).join(sep));

// ---------------------------------------------------------------------------------------------
// containerd TOML, docker daemon.json

export const containerdToml = fc
  .tuple(
    fc.constantFrom('version = 2\n', 'version = 3\n', '', 'version = "2"\n'),
    fc.constantFrom('"io.containerd.grpc.v1.cri"', '"io.containerd.cri.v1.runtime"', '"io.containerd.grpc.v1.cri"'),
    fc.constantFrom('true', 'false', '"true"', 'yes', 'true # comment', ''),
    fc.constantFrom('runc', 'nvidia', 'kata'),
    fc.array(fc.constantFrom('sandbox_image = "registry.k8s.io/pause:3.10"', '[plugins."io.containerd.grpc.v1.cri".registry]', 'root = "/var/lib/containerd"', '[grpc]\naddress = "/run/containerd/containerd.sock"', '# comment', 'x = ', '[plugins', 'a.b.c = 1', '[[x]]', 'key = """multi\nline"""', "k = 'lit'"), { maxLength: 3 }),
  )
  .map(
    ([v, plugin, sys, rt, extra]) =>
      `${v}[plugins.${plugin}.containerd]\n  default_runtime_name = "${rt}"\n\n[plugins.${plugin}.containerd.runtimes.${rt}]\n  runtime_type = "io.containerd.runc.v2"\n\n[plugins.${plugin}.containerd.runtimes.${rt}.options]\n  SystemdCgroup = ${sys}\n` +
      extra.join('\n') +
      '\n',
  );

export const dockerJson = fc
  .record({
    'exec-opts': fc.oneof(fc.constant(['native.cgroupdriver=systemd']), fc.constant(['native.cgroupdriver=cgroupfs']), fc.constant(['native.cgroupdriver=systemdd']), fc.constant('native.cgroupdriver=systemd'), fc.constant([])),
    'log-driver': fc.constantFrom('json-file', 'journald'),
    'storage-driver': fc.constantFrom('overlay2', 1),
  }, { requiredKeys: [] })
  .chain((o) => fc.tuple(fc.constant(JSON.stringify(o, null, 2)), fc.constantFrom('', '', ',', '}', '{}', '\n// c')))
  .map(([j, tail]) => j + tail + '\n');

// ---------------------------------------------------------------------------------------------
// Workspaces

const KUBEADM_DROPIN_PATH = 'n/etc/systemd/system/kubelet.service.d/10-kubeadm.conf';

/** A node laid out the kubeadm way, with each file present or not. */
export const workspace: fc.Arbitrary<SourceFile[]> = fc
  .record(
    {
      unit: unitText.map((t) => ({ path: 'n/usr/lib/systemd/system/kubelet.service', text: t })),
      dropin: unitText.map((t) => ({ path: KUBEADM_DROPIN_PATH, text: t })),
      dropin2: unitText.map((t) => ({ path: 'n/etc/systemd/system/kubelet.service.d/20-extra.conf', text: t })),
      defaults: envText.map((t) => ({ path: 'n/etc/default/kubelet', text: t })),
      flagsEnv: envText.map((t) => ({ path: 'n/var/lib/kubelet/kubeadm-flags.env', text: t })),
      config: kubeletConfigYaml.map((t) => ({ path: 'n/var/lib/kubelet/config.yaml', text: t })),
      configJson: kubeletConfigJson.map((t) => ({ path: 'n/kubelet-config.json', text: t })),
      kubeadm: kubeadmYaml.map((t) => ({ path: 'n/kubeadm.yaml', text: t })),
      containerd: containerdToml.map((t) => ({ path: 'n/etc/containerd/config.toml', text: t })),
      docker: dockerJson.map((t) => ({ path: 'n/etc/docker/daemon.json', text: t })),
    },
    { requiredKeys: [] },
  )
  .map((r) => Object.values(r).filter((f): f is SourceFile => f !== undefined));

/** One file of one kind, alone (named so detection picks that kind). */
export const singleFile: fc.Arbitrary<SourceFile> = fc.oneof(
  unitText.map((text) => ({ path: 'kubelet.service', text })),
  unitText.map((text) => ({ path: 'etc/systemd/system/kubelet.service.d/10-kubeadm.conf', text })),
  envText.map((text) => ({ path: 'etc/default/kubelet', text })),
  kubeletConfigYaml.map((text) => ({ path: 'var/lib/kubelet/config.yaml', text })),
  kubeletConfigJson.map((text) => ({ path: 'kubelet-config.json', text })),
  kubeadmYaml.map((text) => ({ path: 'kubeadm.yaml', text })),
  containerdToml.map((text) => ({ path: 'etc/containerd/config.toml', text })),
  dockerJson.map((text) => ({ path: 'etc/docker/daemon.json', text })),
);

// ---------------------------------------------------------------------------------------------
// Corpus and mutator

// The nearest ancestor's shared/corpus (a git worktree sits deeper than the main checkout).
export const CORPUS_DIR = join(corpusDir('corpus') ?? join(__dirname, '../../../shared/corpus'), 'files');

export interface CorpusFile {
  name: string;
  bytes: Buffer;
  text: string;
}

export function loadCorpus(): CorpusFile[] {
  if (!existsSync(CORPUS_DIR)) return [];
  return readdirSync(CORPUS_DIR)
    .sort()
    .filter((n) => n !== 'MANIFEST.tsv')
    .map((name) => {
      const bytes = readFileSync(join(CORPUS_DIR, name));
      return { name, bytes, text: bytes.toString('utf8') };
    });
}

/** One edit to a byte buffer; positions are fractions of the length so they shrink well. */
export type Mutation =
  | { op: 'flip'; at: number; bit: number }
  | { op: 'deleteLine'; at: number }
  | { op: 'dupLine'; at: number }
  | { op: 'truncate'; at: number }
  | { op: 'insert'; at: number; what: string }
  | { op: 'bom' }
  | { op: 'crlf' }
  | { op: 'invalidUtf8'; at: number; bytes: readonly number[] }
  | { op: 'loneSurrogate'; at: number };

const INSERTS = ['\\', '\\\n', ' \\ ', '"', "'", '---\n', '\n---\n', '\t', '\r\n', '\r', '\u0000', '$', '${', '#', '=', '\n[Service]\n', '\nExecStart=\n', ':', ' ', '\n', '%', '{', '[', '--', '`'];

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ op: fc.constant('deleteLine' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ op: fc.constant('dupLine' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), what: fc.constantFrom(...INSERTS) }),
  fc.constant({ op: 'bom' as const }),
  fc.constant({ op: 'crlf' as const }),
  fc.record({ op: fc.constant('invalidUtf8' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), bytes: fc.constantFrom([0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80]) }),
  fc.record({ op: fc.constant('loneSurrogate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
);

function lineStarts(b: Buffer): number[] {
  const out = [0];
  for (let i = 0; i < b.length; i++) if (b[i] === 10) out.push(i + 1);
  return out;
}

/** Applies mutations to bytes; returns the bytes and, for lone surrogates (not expressible in UTF-8), string edits. */
export function mutate(bytes: Buffer, muts: readonly Mutation[]): string {
  let b = Buffer.from(bytes);
  const surrogates: number[] = [];
  const pos = (f: number, n: number) => Math.min(n, Math.floor(f * (n + 1)));
  for (const m of muts) {
    switch (m.op) {
      case 'flip':
        if (b.length) {
          const i = pos(m.at, b.length - 1);
          b[i] ^= 1 << m.bit;
        }
        break;
      case 'deleteLine':
      case 'dupLine': {
        const ls = lineStarts(b);
        const k = pos(m.at, ls.length - 1);
        const s = ls[k]!;
        const e = k + 1 < ls.length ? ls[k + 1]! : b.length;
        const line = b.subarray(s, e);
        b = m.op === 'deleteLine' ? Buffer.concat([b.subarray(0, s), b.subarray(e)]) : Buffer.concat([b.subarray(0, e), e === b.length && line.length && line[line.length - 1] !== 10 ? Buffer.from('\n') : Buffer.alloc(0), line, b.subarray(e)]);
        break;
      }
      case 'truncate':
        b = b.subarray(0, pos(m.at, b.length));
        break;
      case 'insert': {
        const i = pos(m.at, b.length);
        b = Buffer.concat([b.subarray(0, i), Buffer.from(m.what, 'utf8'), b.subarray(i)]);
        break;
      }
      case 'bom':
        b = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]);
        break;
      case 'crlf':
        b = Buffer.from(b.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
        break;
      case 'invalidUtf8': {
        const i = pos(m.at, b.length);
        b = Buffer.concat([b.subarray(0, i), Buffer.from(m.bytes), b.subarray(i)]);
        break;
      }
      case 'loneSurrogate':
        surrogates.push(m.at);
        break;
    }
  }
  // An editor hands over text decoded with replacement characters.
  let text = new TextDecoder('utf-8').decode(b);
  for (const at of surrogates) {
    const i = Math.min(text.length, Math.floor(at * (text.length + 1)));
    text = text.slice(0, i) + '\ud800' + text.slice(i);
  }
  return text;
}

export const mutations = fc.array(mutation, { minLength: 1, maxLength: 6 });
