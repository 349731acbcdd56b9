/**
 * The kubelet part of a kops InstanceGroup (formats/kops.ts cuts it out): documents of kops's KubeletConfigSpec
 * (kubernetes/kops pkg/apis/kops/v1alpha2/componentconfig.go, read at commit 0009ec97), merged in order as kops's
 * reflectutils.JSONMergeStruct does: a JSON object decoded over the previous one, so maps keep the keys they had and
 * every other field is replaced.
 *
 * Fields whose kops name and shape are the KubeletConfiguration field's become a KubeletConfiguration fragment (each
 * document a --config-dir drop-in: the same merge). Fields kops writes as flag strings (`evictionHard:
 * memory.available<100Mi,...`, `enforceNodeAllocatable: pods,system-reserved`, `clusterDNS`) and kops-only names
 * (`logLevel`, `podManifestPath`) become the kubelet flags of their `flag:` tags, as kops passes them: the last
 * document's value only, as JSON decoding replaces a string. Other kops fields are not read.
 */
import { LineIndex } from '../../model/range.ts';
import type { Finding } from '../../model/finding.ts';
import type { ConfigFileParse, KubeletConfigDoc, MapEntry, MapNode, PlatformKeys } from '../../parse/types.ts';
import { parseYamlStream } from '../../parse/yaml.ts';
import { mapOf, hasPlaceholder, type ExtraArg } from '../../parse/platform.ts';

/** kops fields that are KubeletConfiguration fields of the same name and type. */
export const CONFIG_FIELDS: ReadonlySet<string> = new Set([
  'kubeReserved', 'systemReserved', 'kubeReservedCgroup', 'systemReservedCgroup', 'maxPods', 'cgroupDriver', 'cgroupRoot',
  'kubeletCgroups', 'systemCgroups', 'hairpinMode', 'clusterDomain', 'readOnlyPort', 'serializeImagePulls', 'registryPullQPS',
  'registryBurst', 'eventBurst', 'cpuCFSQuota', 'cpuCFSQuotaPeriod', 'cpuManagerPolicy', 'topologyManagerPolicy',
  'rotateCertificates', 'protectKernelDefaults', 'failSwapOn', 'containerLogMaxSize', 'containerLogMaxFiles', 'podPidsLimit',
  'shutdownGracePeriod', 'shutdownGracePeriodCriticalPods', 'imageGCHighThresholdPercent', 'imageGCLowThresholdPercent',
  'evictionPressureTransitionPeriod', 'evictionMaxPodGracePeriod', 'streamingConnectionIdleTimeout', 'runtimeRequestTimeout',
  'volumeStatsAggPeriod', 'nodeStatusUpdateFrequency', 'allowedUnsafeSysctls', 'tlsCipherSuites', 'tlsMinVersion',
  'enableDebuggingHandlers', 'registerNode', 'resolvConf', 'kernelMemcgNotification',
]);

/** kops fields passed as flags whose form differs from the KubeletConfiguration field (their `flag:` tags). */
export const FLAG_FIELDS: Readonly<Record<string, string>> = Object.freeze({
  evictionHard: 'eviction-hard',
  evictionSoft: 'eviction-soft',
  evictionSoftGracePeriod: 'eviction-soft-grace-period',
  evictionMinimumReclaim: 'eviction-minimum-reclaim',
  enforceNodeAllocatable: 'enforce-node-allocatable',
  clusterDNS: 'cluster-dns',
  anonymousAuth: 'anonymous-auth',
  authorizationMode: 'authorization-mode',
  clientCaFile: 'client-ca-file',
  logLevel: 'v',
  podManifestPath: 'pod-manifest-path',
  hostnameOverride: 'hostname-override',
  kubeconfigPath: 'kubeconfig',
  bootstrapKubeconfig: 'bootstrap-kubeconfig',
  runtimeCgroups: 'runtime-cgroups',
  volumePluginDirectory: 'volume-plugin-dir',
  rootDir: 'root-dir',
  eventQPS: 'event-qps',
  featureGates: 'feature-gates',
  nodeLabels: 'node-labels',
  taints: 'register-with-taints',
});
/** Map-valued flag fields: one `key=value` per entry, merged by key like the maps above. */
const MAP_FLAGS = new Set(['featureGates', 'nodeLabels']);

/**
 * What completion offers in a kops kubelet block: the names kops reads. Those of CONFIG_FIELDS, and featureGates (a
 * map of gates in both), take the KubeletConfiguration field's shape; the other flag fields are kops's own strings
 * (`evictionHard: memory.available<100Mi,nodefs.available<10%`), never the kubelet's map.
 */
const KOPS_KEYS: PlatformKeys = Object.freeze({
  fields: Object.freeze([...CONFIG_FIELDS, ...Object.keys(FLAG_FIELDS)]),
  kubeletShaped: Object.freeze([...CONFIG_FIELDS, 'featureGates']),
  flags: FLAG_FIELDS,
});

export function parseKopsKubelet(path: string, text: string, lines = new LineIndex(text)): ConfigFileParse {
  const r = parseYamlStream(path, text, lines);
  const problems: Finding[] = [...r.problems];
  const out: ConfigFileParse = { path, kubeletConfigs: [], kubeadm: [], problems };
  const last = new Map<string, ExtraArg>();
  const mapArgs: ExtraArg[] = [];
  let first: MapEntry | undefined;
  const blocks: KubeletConfigDoc[] = [];
  for (const d of r.docs) {
    const root = mapOf(d.root);
    if (!root) continue;
    blocks.push({ path, format: 'yaml', root, docIndex: d.index, span: root.span });
    const config: MapEntry[] = [];
    for (const e of root.entries) {
      first ??= e;
      if (e.value.kind === 'scalar' && typeof e.value.value === 'string' && hasPlaceholder(e.value.source)) continue;
      if (CONFIG_FIELDS.has(e.key)) config.push(e);
      const flag = FLAG_FIELDS[e.key];
      if (!flag) continue;
      const v = e.value;
      if (MAP_FLAGS.has(e.key) && v.kind === 'map') {
        for (const x of v.entries) if (x.value.kind === 'scalar') mapArgs.push({ name: flag, value: `${x.key}=${x.value.source}`, nameSpan: x.keySpan, valueSpan: x.value.span });
      } else if (v.kind === 'scalar' && v.value !== null) {
        last.set(flag, { name: flag, value: v.source, nameSpan: e.keySpan, valueSpan: v.span });
      } else if (v.kind === 'seq') {
        const items = v.items.flatMap((i) => (i.kind === 'scalar' && i.value !== null ? [i.source] : []));
        last.set(flag, { name: flag, value: items.join(','), nameSpan: e.keySpan, valueSpan: v.span });
      }
    }
    if (config.length) {
      const fragment: MapNode = { kind: 'map', entries: config, span: root.span };
      out.kubeletConfigs.push({ path, format: 'yaml', root: fragment, docIndex: d.index, span: root.span });
    }
  }
  if (!first) return out;
  // A nodeup config's KubeletConfig is kops's rendered result: its defaults are already in it.
  out.platform = { tool: 'kops', span: first.keySpan, gates: [], keys: KOPS_KEYS, ...(path.includes('//kops/nodeup/') ? { facts: { rendered: true } } : {}) };
  out.blocks = blocks;
  out.kubeadm.push({ path, apiVersion: 'kops.k8s.io/v1alpha2', kind: 'kops kubelet', argsLabel: 'kops kubelet', kubeletExtraArgs: [...last.values(), ...mapArgs], span: first.keySpan });
  return out;
}
