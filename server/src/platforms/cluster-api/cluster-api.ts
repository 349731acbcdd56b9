/**
 * Cluster API's kubeadm bootstrap and control plane objects (kubernetes-sigs/cluster-api v1.11, API v1beta1 and
 * v1beta2): `KubeadmConfig` (spec), `KubeadmConfigTemplate` (spec.template.spec), `KubeadmControlPlane`
 * (spec.kubeadmConfigSpec) and `KubeadmControlPlaneTemplate` (spec.template.spec.kubeadmConfigSpec). A carrier:
 * - `initConfiguration` / `joinConfiguration` that set `nodeRegistration.kubeletExtraArgs` become kubeadm
 *   documents (the engine's kubeadm reader, parse/config.ts): CAPI renders them into the kubeadm config of the node
 *   it bootstraps. v1beta1 writes kubeletExtraArgs as a map (api/bootstrap/kubeadm/v1beta1/kubeadm_types.go), v1beta2
 *   as a list of {name, value} (api/bootstrap/kubeadm/v1beta2/kubeadm_types.go), as kubeadm's v1beta3 and v1beta4 do,
 *   so the document is read as that kubeadm version;
 * - `files[]` entries (path + content, api/bootstrap/kubeadm/v1beta2/kubeadmconfig_types.go File) are the files
 *   they write, like cloud-init write_files. One written into the `patches.directory` of the init or join
 *   configuration and named `kubeletconfiguration[suffix][+strategic|+merge].yaml` is a kubeadm patch of the
 *   kubelet's configuration (kubernetes cmd/kubeadm/app/util/patches/patches.go, kubeadm 1.31; the
 *   kubeletconfiguration target exists since kubeadm 1.25): it is read as a KubeletConfiguration, with the apiVersion and kind a patch may leave out.
 * Each object is a node of its own (a control plane, a worker template): payload paths start with the object's name.
 * Recognised by apiVersion at column 0, anywhere in a multi-document stream (a Cluster often comes first).
 */
import { isMap, isScalar, parseDocument, type YAMLMap, type Node, type Scalar } from 'yaml';
import { finding, type Finding } from '../../model/finding.ts';
import { LineIndex, loneCrToLf } from '../../model/range.ts';
import { unreadPayload } from '../../embed/yaml-carrier.ts';
import type { Payload } from '../../embed/payload.ts';
import { finish, itemsOf, nodeAt, readCarrier, stringPayload, subtreePayload, versionAt, withHeader, type Carrier, type ObjectDoc } from '../../embed/yaml-docs.ts';
import { allMask, hasMask, maskTemplates, maskYamlTemplates, restoreAt, scanTemplates, type TemplateExpr } from '../../parse/template.ts';
import { CAPI_MARK } from '../../parse/config.ts';
import { defineFormat } from '../../formats/types.ts';
import { eitherPattern, sedPlaceholders } from '../../embed/sed.ts';
import { isKubeletPatch } from '../../parse/kubeadm-patch.ts';
import { withoutTrailingSlashes } from '../../model/paths.ts';

const CAPI_API = /^["']?apiVersion["']?[ \t]*:[ \t]*["']?(?:bootstrap|controlplane)\.cluster\.x-k8s\.io\//m;

/** Where each kind holds its KubeadmConfigSpec. */
const SPEC_PATH: Record<string, readonly string[]> = {
  KubeadmConfig: ['spec'],
  KubeadmConfigTemplate: ['spec', 'template', 'spec'],
  KubeadmControlPlane: ['spec', 'kubeadmConfigSpec'],
  KubeadmControlPlaneTemplate: ['spec', 'template', 'spec', 'kubeadmConfigSpec'],
};

/** File.encoding values other than plain text (kubeadmconfig_types.go: base64, gzip, gzip+base64). */
const ENCODED = new Set(['base64', 'gzip', 'gzip+base64']);

function isCapi(d: ObjectDoc): boolean {
  return /^(?:bootstrap|controlplane)\.cluster\.x-k8s\.io\/v1/.test(d.apiVersion) && d.kind in SPEC_PATH;
}

/**
 * v1beta2 kubeletExtraArgs names must be unique: the API server refuses the object otherwise (CEL "kubeletExtraArgs
 * name must be unique", api/bootstrap/kubeadm/v1beta2/kubeadm_types.go NodeRegistrationOptions), although kubeadm
 * itself would take a repeated flag.
 */
function uniqueNames(path: string, c: Carrier, args: unknown, where: string): void {
  const seen = new Set<string>();
  for (const item of itemsOf(args)) {
    const name = isMap(item) ? (item.get('name', true) as Node | undefined) : undefined;
    if (!isScalar(name) || typeof name.value !== 'string' || !name.range) continue;
    if (seen.has(name.value)) {
      c.problems.push(finding('capi-extra-args-duplicate', 'error', { file: path, range: c.lines.range(name.range[0], name.range[1]) },
        `Cluster API refuses kubeletExtraArgs that name ${name.value} twice. Names must be unique in ${where}; merge the values into one item.`));
    }
    seen.add(name.value);
  }
}

/** Cluster API's core objects (Machine, MachineDeployment, MachineSet, MachinePool), at column 0. */
const CORE_API = /^["']?apiVersion["']?[ \t]*:[ \t]*["']?cluster\.x-k8s\.io\//m;

/**
 * The Kubernetes version of the machines each bootstrap config serves, by config name: a Machine's spec.version, or
 * spec.template.spec.version of a MachineDeployment, MachineSet or MachinePool, for the config its
 * bootstrap.configRef names (api/core/v1beta2/machine_types.go MachineSpec.Version, Bootstrap.ConfigRef).
 */
function versionsByConfig(docs: readonly ObjectDoc[]): Map<string, { node: Scalar; what: string }> {
  const out = new Map<string, { node: Scalar; what: string }>();
  for (const d of docs) {
    if (!/^cluster\.x-k8s\.io\//.test(d.apiVersion)) continue;
    const spec = d.kind === 'Machine' ? nodeAt(d.doc.contents, ['spec']) : nodeAt(d.doc.contents, ['spec', 'template', 'spec']);
    const name = nodeAt(spec, ['bootstrap', 'configRef', 'name']);
    const version = nodeAt(spec, ['version']);
    const what = `${d.kind} ${d.name} ${d.kind === 'Machine' ? 'spec' : 'spec.template.spec'}.version`;
    if (isScalar(name) && typeof name.value === 'string' && isScalar(version) && typeof version.value === 'string') out.set(name.value, { node: version, what });
  }
  return out;
}

/**
 * Placeholders the machine fills in before kubeadm reads the object's files:
 * - cloud-config bootstrap data (the default format) starts with `## template: jinja` (cluster-api
 *   bootstrap/kubeadm/pkg/cloudinit/cloudinit.go cloudConfigHeader, since 2019; v1.14.0), so cloud-init renders every
 *   `{{ ... }}` at boot: `name: '{{ ds.meta_data.local_hostname }}'` is each machine's own name;
 * - Ignition data (`format: ignition`) has no Jinja; the providers' Flatcar templates fill `${COREOS_*}` with envsubst
 *   and `@@HOSTNAME@@` with sed in preKubeadmCommands, so those count only when such a command is there;
 * - a clusterctl template (`cluster-template*.yaml`) has its `${VAR}`s substituted by `clusterctl generate cluster`;
 * - `$${VAR}` is the escape of a renderer (clusterctl's drone/envsubst, Terraform's templatefile) that leaves `${VAR}`;
 *   nobody writes it for kubectl, so where the machine runs envsubst it is filled in any file of the template's
 *   sources (a kustomize patch such as linode/cluster-api-provider-linode templates/flavors/kubeadm/flatcar/
 *   patch-flatcar.yaml, built into cluster-template-flatcar.yaml);
 * - an infrastructure provider may rewrite the bootstrap data before the machine gets it: Tinkerbell replaces
 *   PROVIDER_ID (cluster-api-provider-tinkerbell controller/machine/hardware.go, strings.ReplaceAll with
 *   providerIDPlaceholder), so any other placeholder is at most a condition (node/placeholders.ts);
 * - Cluster API for Equinix Metal renders the bootstrap data as a Go template before it becomes the device's user data
 *   (kubernetes-sigs/cluster-api-provider-packet pkg/cloud/packet/client.go NewDevice, text/template), so its
 *   templates write the Jinja expression as a Go raw string: `{{ `{{ v1.instance_id }}` }}` reaches cloud-init as
 *   `{{ v1.instance_id }}`.
 */
function filledOnMachine(path: string, spec: YAMLMap): RegExp | undefined {
  // clusterctl first turns `${ VAR }`, `${ VAR}` and `${VAR }` into `${VAR}` (cmd/clusterctl/client/yamlprocessor/
  // simple_processor.go convertLegacyVars, cluster-api 0c16d0ad), so blanks inside the braces are its variables too.
  const VAR = '\\$\\{[ \\t]*[A-Za-z_][A-Za-z0-9_]*[ \\t]*\\}';
  const alternatives: string[] = [];
  const format = spec.get('format');
  let shellVars = false;
  if (format !== 'ignition') alternatives.push('\\{\\{[^{}]*\\}\\}', '\\{\\{-?[ \\t]*`\\{\\{[^{}`]*\\}\\}`[ \\t]*-?\\}\\}');
  else {
    const commands = JSON.stringify(spec.get('preKubeadmCommands') ?? []);
    shellVars = commands.includes('envsubst');
    if (shellVars) alternatives.push(VAR);
    if (/\bsed\b/.test(commands)) alternatives.push('@@[A-Z_]+@@');
  }
  // The renderer leaves `$${X}` as `${X}` for the machine: filled when the machine fills `${X}`.
  if (shellVars) alternatives.push(`\\$${VAR}`);
  if (/(?:^|\/)cluster-template[^/]*\.ya?ml$/.test(path)) alternatives.push(VAR);
  const own = alternatives.length ? new RegExp(`^(?:[^{}$@]*(?:${alternatives.join('|')}))+[^{}$@]*$`) : undefined;
  // A word its own commands replace with sed before kubeadm runs (hivelocity's `sed -i "s#DEVICE_ID_PREKUBEADM#...#g"`
  // on the kubeadm config in preKubeadmCommands), in either data format.
  return eitherPattern(own, sedPlaceholders(JSON.stringify([spec.get('preKubeadmCommands') ?? [], spec.get('bootCommands') ?? []])));
}

export function capiPayloads(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  const relevant = (src: string) => (CAPI_API.test(src) && /kubeletExtraArgs|files:/.test(src)) || (CORE_API.test(src) && /configRef/.test(src));
  const c = readCarrier(path, text, 'Cluster API file', relevant, maskYamlTemplates);
  const versions = versionsByConfig(c.docs);
  for (const d of c.docs) {
    if (!isCapi(d)) continue;
    const spec = nodeAt(d.doc.contents, SPEC_PATH[d.kind]);
    if (!isMap(spec)) continue;
    // A control plane names its version itself; a config (template) gets the version of the machines that use it
    // (a templated one, `${KUBERNETES_VERSION}`, states none).
    const own = d.kind.startsWith('KubeadmControlPlane');
    const version = own ? nodeAt(d.doc.contents, ['spec', 'version']) : versions.get(d.name)?.node;
    const stated = versionAt(path, text, c.lines, version, own ? `${d.kind} ${d.name} spec.version` : versions.get(d.name)?.what ?? '', false);
    const first = c.embedded.length;
    // CAPI v1beta1 holds kubeadm's v1beta3 shapes (kubeletExtraArgs a map), v1beta2 kubeadm's v1beta4 ({name, value}
    // list); the older v1alpha3 and v1alpha4 had maps too (their kubeadm_types.go: KubeletExtraArgs map[string]string).
    const kubeadmApi = /\/v1(?:alpha\d+|beta1)$/.test(d.apiVersion) ? 'kubeadm.k8s.io/v1beta3' : 'kubeadm.k8s.io/v1beta4';
    for (const [key, kind] of [['initConfiguration', 'InitConfiguration'], ['joinConfiguration', 'JoinConfiguration']] as const) {
      const cfg = nodeAt(spec, [key]);
      const args = nodeAt(cfg, ['nodeRegistration', 'kubeletExtraArgs']);
      if (!args) continue;
      if (kubeadmApi.endsWith('v1beta4')) uniqueNames(path, c, args, `${d.kind} ${key}`);
      // The mark names the object the user wrote, for messages about its shape (parse/config.ts clusterApi).
      const p = subtreePayload(c, cfg, `/${d.name}/run/kubeadm/${key}.yaml`, 'kubeadm-config', `${CAPI_MARK}${d.apiVersion} ${d.kind}\napiVersion: ${kubeadmApi}\nkind: ${kind}\n`);
      if (!p) continue;
      c.embedded.push(p);
    }
    const patchDirs = new Set<string>();
    for (const key of ['initConfiguration', 'joinConfiguration']) {
      const dir = nodeAt(spec, [key, 'patches', 'directory']);
      if (isScalar(dir) && typeof dir.value === 'string') patchDirs.add(withoutTrailingSlashes(dir.value));
    }
    for (const item of itemsOf(nodeAt(spec, ['files']))) {
      if (!isMap(item)) continue;
      const target = item.get('path');
      if (typeof target !== 'string' || !target.startsWith('/')) continue;
      let p = stringPayload(c, item.get('content', true) as never, `/${d.name}${target}`);
      if (!p) continue;
      // kubeadm walks the directory and its sub-directories (filepath.Walk).
      const slash = target.lastIndexOf('/');
      const inPatchDir = [...patchDirs].some((d) => target.startsWith(d + '/'));
      if (inPatchDir && isKubeletPatch(target.slice(slash + 1))) {
        const header = (/^apiVersion:/m.test(p.text) ? '' : 'apiVersion: kubelet.config.k8s.io/v1beta1\n') + (/^kind:/m.test(p.text) ? '' : 'kind: KubeletConfiguration\n');
        p = withHeader(p, header);
        p.kind = 'kubelet-config';
      }
      const encoding = item.get('encoding');
      if (typeof encoding === 'string' && ENCODED.has(encoding)) p.unchecked = `its content is encoded (${encoding})`;
      else if (item.get('append') === true) p.unchecked = 'it is appended to a file this object does not hold whole (append: true)';
      c.embedded.push(p);
    }
    if (stated) for (let i = first; i < c.embedded.length; i++) c.embedded[i] = { ...c.embedded[i], versions: [stated] };
    const filled = filledOnMachine(path, spec);
    if (filled) for (let i = first; i < c.embedded.length; i++) c.embedded[i] = { ...c.embedded[i], filledOnMachine: filled };
  }
  // kubectl (and clusterctl, which applies through the same client) sends JSON made with sigs.k8s.io/yaml, which keeps
  // a key's last value (kubernetes/kubernetes#125885).
  return finish(path, c, { tool: 'Cluster API', refuses: false, why: 'kubectl converts the YAML to JSON before sending it, and that keeps only the last value of a key' });
}

/**
 * A Helm chart's helper template that `define`s the `files:` entries of its KubeadmConfigs (giantswarm/cluster
 * helm/cluster/templates/clusterapi/_helpers_files.tpl, 8657d00a: `{{- define "cluster.internal.kubeadm.files.kubelet" }}`
 * followed by `- path: ...` entries, `include`d into the chart's KubeadmConfigTemplate and KubeadmControlPlane). With
 * its template lines blanked (define, if, end, comments) the blocks read as one YAML sequence of File entries, each a
 * file the nodes get: read as a files[] entry is, its expressions unknown (Helm fills them when the chart is rendered).
 */
const HELM_DEFINE = /^\{\{-?[ \t]*define[ \t]/m;
const FILE_ENTRY = /^-[ \t]+path:[ \t]*["']?\//m;

function helmFilesPayloads(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  text = loneCrToLf(text);
  const lines = new LineIndex(text);
  const exprs = scanTemplates(text, { dollar: false });
  const masked = maskTemplates(text, exprs, false);
  const c: Carrier = { text, lines, crlf: /\r\n/.test(text.slice(0, 200)), docs: [], problems: [], embedded: [], errors: [] };
  // The reader's text: a payload's map is made from the text its value was read from (same offsets as the file's).
  c.text = otherBlocksBlanked(text, masked.text, exprs);
  const doc = parseDocument(c.text, { uniqueKeys: false });
  if (doc.errors.length) {
    const at = doc.errors[0].pos?.[0] ?? 0;
    c.problems.push(finding('payload-not-checked', 'information', { file: path, range: lines.range(at, at) },
      'These Helm define blocks do not read as a list of files once their template lines are left out, so their files are not checked.'));
    return { embedded: [], problems: c.problems };
  }
  for (const item of itemsOf(doc.contents)) {
    if (!isMap(item)) continue;
    const target = item.get('path');
    if (typeof target !== 'string' || !target.startsWith('/') || hasMask(target)) continue;
    const content = item.get('content', true) as Node | undefined;
    const from = item.get('contentFrom', true) as Node | undefined;
    let p: Payload | undefined;
    if (isScalar(content) && typeof content.value === 'string' && allMask(content.value)) p = unreadPayload(lines, content, target, 'its content is a template expression, filled when the chart is rendered');
    else if (content) p = stringPayload(c, content, target);
    else if (from) p = unreadPayload(lines, from, target, 'its content comes from a Secret (contentFrom)');
    if (!p) continue;
    if (hasMask(p.text)) {
      const restored = restoreAt(p.text, text, masked.values, (content as Scalar).range![0]);
      if (restored.length === p.text.length) p = { ...p, text: restored, lines: new LineIndex(restored) };
      else p.unchecked = 'template expressions in it are folded across lines';
    }
    p.template = true;
    const encoding = item.get('encoding');
    if (!p.unchecked && typeof encoding === 'string' && ENCODED.has(encoding)) p.unchecked = `its content is encoded (${encoding})`;
    c.embedded.push(p);
  }
  return { embedded: c.embedded, problems: c.problems };
}

/** Go template actions that open a block `{{ end }}` closes (text/template/parse). */
const OPENS = new Set(['if', 'range', 'with', 'define', 'block']);

/**
 * The masked text with every define block that holds no file entry blanked (a helper that renders a TOML file or
 * a name), line ends kept, so the file lists of the other blocks read as one YAML sequence.
 */
function otherBlocksBlanked(text: string, masked: string, exprs: readonly TemplateExpr[]): string {
  const parts: string[] = [];
  let at = 0;
  let depth = 0;
  let start = -1;
  for (const e of exprs) {
    if (e.open !== '{{') continue;
    const word = /^\{\{-?\s*([a-z]+)/.exec(text.slice(e.start, Math.min(e.end, e.start + 16)))?.[1] ?? '';
    if (OPENS.has(word)) {
      if (depth === 0 && (word === 'define' || word === 'block')) start = e.end;
      depth++;
    } else if (word === 'end' && depth > 0 && --depth === 0 && start >= 0) {
      if (!FILE_ENTRY.test(text.slice(start, e.start))) {
        parts.push(masked.slice(at, start), masked.slice(start, e.start).replace(/[^\r\n]/g, ' '));
        at = e.start;
      }
      start = -1;
    }
  }
  parts.push(masked.slice(at));
  return parts.join('');
}

/** A Cluster API object stream, or a Helm helper of its files (helmFilesPayloads). */
function clusterApiParse(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  return isHelmFiles(path, text) ? helmFilesPayloads(path, text) : capiPayloads(path, text);
}

/** A File's content and one of its other fields (kubeadmconfig_types.go File): no ingress `- path: /` helper. */
const FILE_CONTENT = /^[ \t]+(?:content|contentFrom):/m;
const FILE_FIELD = /^[ \t]+(?:permissions|owner|encoding):/m;
const isHelmFiles = (path: string, head: string) =>
  /\.tpl$/i.test(path) && !CAPI_API.test(head) && HELM_DEFINE.test(head) && FILE_ENTRY.test(head) && FILE_CONTENT.test(head) && FILE_FIELD.test(head);

export default defineFormat({
  kind: 'cluster-api',
  rank: 110,
  label: 'Cluster API kubeadm bootstrap',
  byContent: (c) => ((c.ext === 'yaml' || c.ext === 'yml') && CAPI_API.test(c.head)) || isHelmFiles(c.name, c.head),
  parse: clusterApiParse,
  comments: () => 'trailing',
  join: { kind: 'carrier' },
  watch: ['**/*.yaml', '**/*.yml', '**/_*.tpl'],
  selector: ['**/*.yaml', '**/*.yml', '**/_*.tpl'],
  activation: ['**/cluster-template*.{yaml,yml}'],
});
