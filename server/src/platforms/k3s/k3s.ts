/**
 * k3s / RKE2 configuration file. Recognised by its place (`rancher/k3s/config.yaml`, `rancher/rke2/config.yaml` and
 * their `config.yaml.d/*.yaml`), or by k3s's own top-level keys at column 0 in a YAML file without apiVersion:
 * `kubelet-arg`, or two of the keys only k3s and RKE2 use. A generic YAML file is never one.
 */
import { parseK3s } from './parse-k3s.ts';
import { defineFormat } from '../../formats/types.ts';
import { platformParse } from '../../formats/_platform.ts';

// config.yaml.d takes *.yaml and *.yml in any case (k3s pkg/configfilearg/parser.go dotDFiles, util.HasSuffixI).
import { k3sNode } from './k3s-files.ts';
const PLACE = /(?:^|\/)rancher\/(?:k3s|rke2)\/config\.yaml(?:\.d\/[^/]+\.[yY][aA]?[mM][lL])?$/;
const KUBELET_ARG = /^kubelet-arg:/m;
const K3S_KEY = /^(tls-san|write-kubeconfig-mode|cluster-init|flannel-backend|kube-apiserver-arg|kube-controller-manager-arg|kube-proxy-arg|kube-scheduler-arg|node-taint|node-label|disable-network-policy|secrets-encryption|etcd-expose-metrics|embedded-registry|servicelb-namespace|agent-token|write-kubeconfig):/gm;
const API_VERSION = /^apiVersion:/m;
const EXTS = new Set(['yaml', 'yml']);

/**
 * Two of k3s's own keys, or one in a `config.yaml` whose folder is named after the tool (`k3s/config.yaml`, a copy of
 * /etc/rancher/k3s/config.yaml kept in a repository, as corybuecker/k8s keeps one with only kube-apiserver-arg).
 */
function byK3sKeys(head: string, named: boolean): boolean {
  if (API_VERSION.test(head)) return false;
  if (KUBELET_ARG.test(head)) return true;
  const seen = new Set<string>();
  for (const m of head.matchAll(K3S_KEY)) seen.add(m[1]);
  return seen.size >= (named ? 1 : 2);
}

const TOOL_DIR = new Set(['k3s', 'rke2']);

export default defineFormat({
  kind: 'k3s',
  rank: 240,
  // Its reader masks template expressions (parse/platform.ts), so `config.yaml.tpl` is read as the file it renders.
  templateNames: true,
  label: 'k3s / RKE2 config',
  byPath: (c) => PLACE.test(c.path),
  byContent: (c) => EXTS.has(c.ext) && byK3sKeys(c.head, TOOL_DIR.has(c.dir) && (c.lower === 'config.yaml' || c.lower === 'config.yml')),
  parse: platformParse(parseK3s),
  comments: () => 'trailing',
  node: k3sNode,
  join: { kind: 'standalone', order: 3 },
  watch: ['**/rancher/k3s/config.yaml', '**/rancher/rke2/config.yaml', '**/rancher/*/config.yaml.d/*.yaml', '**/rancher/*/config.yaml.d/*.yml'],
  selector: ['**/rancher/k3s/config.yaml', '**/rancher/rke2/config.yaml', '**/rancher/*/config.yaml.d/*.yaml', '**/rancher/*/config.yaml.d/*.yml', '**/*.yaml', '**/*.yml'],
  activation: ['**/rancher/k3s/config.yaml', '**/rancher/rke2/config.yaml'],
});
