/**
 * KubeletConfiguration / kubeadm YAML and JSON files -> ConfigFileParse.
 *
 * One parse per call: the YAML stream (or JSON text) is read once, converted
 * to ConfigNode trees (parse/yaml.ts, parse/json.ts), then documents are classified by
 * their apiVersion/kind.
 */
import { LineIndex } from '../model/range.ts';
import type { Position, Span } from '../model/range.ts';
import { finding } from '../model/finding.ts';
import type { Finding, TextEdit } from '../model/finding.ts';
import type { ConfigFileParse, ConfigNode, KubeadmDoc, KubeletConfigDoc, MapNode } from './types.ts';
import { parseJsonText } from './json.ts';
import { parseYamlStream } from './yaml.ts';
import { getEntry, type DuplicateKey } from './types.ts';
import { bareValueExpr, isTemplatePath, maskTemplates, scanTemplates, withoutTemplateExt, type Masked, type TemplateExpr } from './template.ts';
import { TemplateRestorer } from './config-template.ts';
import { minorOf } from '../model/version-mention.ts';

export const KUBELET_API_GROUP = 'kubelet.config.k8s.io';
/** The only version of KubeletConfiguration the kubelet serves. */
export const KUBELET_API_VERSION = 'kubelet.config.k8s.io/v1beta1';
export const KUBEADM_API_GROUP = 'kubeadm.k8s.io';
/**
 * kubeadm versions current kubeadm refuses ("your configuration file uses an
 * old API spec"), with the last kubeadm release that read them
 * (cmd/kubeadm/app/util/config/common.go validateSupportedVersion).
 */
const KUBEADM_OLD_VERSIONS: Record<string, string> = {
  'kubeadm.k8s.io/v1alpha1': 'v1.11',
  'kubeadm.k8s.io/v1alpha2': 'v1.12',
  'kubeadm.k8s.io/v1alpha3': 'v1.14',
  'kubeadm.k8s.io/v1beta1': 'v1.15',
  // kubernetes#114540 removed v1beta2 in 1.27 (its release note: kubeadm 1.26's "config migrate" converts it).
  'kubeadm.k8s.io/v1beta2': 'v1.26',
};

export interface ParseConfigOptions {
  /** The text's line index, when the caller has one (formats/types.ts ParseOptions.lines). */
  lines?: LineIndex;
  /**
   * The file is a `--config-dir` drop-in: a partial KubeletConfiguration.
   * A JSON/YAML object without apiVersion/kind is then still returned (apiVersion undefined).
   */
  fragment?: boolean;
  /**
   * The file is a template (a carrier says so); otherwise its name (`.tpl`, `.j2`, a `templates/` folder) or its
   * own template directives say it. In a template, placeholders are expected and get no config-placeholder warning.
   */
  template?: boolean;
}

/** Does this text look like JSON (first character after BOM and whitespace is `{`)? */
export function looksLikeJson(text: string): boolean {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    return c === 123; // {
  }
  return false;
}

function scalarString(n: ConfigNode | undefined): string | undefined {
  if (!n || n.kind !== 'scalar') return undefined;
  return n.value === null ? undefined : String(n.value);
}

function dupProblems(dups: DuplicateKey[], kubelet: boolean, format: 'yaml' | 'json'): Finding[] {
  return dups.map((d) =>
    finding(
      'config-field-duplicate',
      'warning',
      d.second,
      kubelet
        ? `Duplicate key "${d.key}". The kubelet's strict decoding fails on a duplicate field; it then falls back to lenient decoding, which keeps only this last value (the earlier one is silently dropped) and merely logs "Using lenient decoding as strict decoding failed". Remove one of them.`
        : `Duplicate key "${d.key}": only this last value counts (${format === 'json' ? 'Go\'s encoding/json' : 'go-yaml'} keeps the last one); the earlier one is ignored. Remove one of them.`,
      { related: [{ span: d.first, message: `earlier "${d.key}", overridden` }] },
    ),
  );
}

interface Classified {
  kind?: string;
  apiVersion?: string;
  kindSpan?: Span;
  apiVersionSpan?: Span;
  /** The apiVersion holds a template expression (`kubelet.config.k8s.io/{{ api }}`): the rendered text decides it. */
  apiVersionRendered?: boolean;
}

/**
 * kubeadm up to 1.10 decoded its --config file into a v1alpha1 MasterConfiguration whatever the file said
 * (cmd/kubeadm/app/cmd/init.go: runtime.DecodeInto, whose JSON serializer fills a missing apiVersion and kind from the
 * object decoded into), so files of that era often have neither. Such a file: no apiVersion or kind, a
 * kubernetesVersion of 1.10 or older, and keys only a MasterConfiguration has. kubeadm 1.11 and later require them.
 */
export const MASTER_ONLY_KEYS: readonly string[] = ['api', 'apiServerExtraArgs', 'authorizationModes', 'kubeletConfiguration', 'controllerManagerExtraArgs', 'schedulerExtraArgs'];
function legacyMasterConfiguration(root: MapNode): boolean {
  if (getEntry(root, 'apiVersion') || getEntry(root, 'kind')) return false;
  const v = getEntry(root, 'kubernetesVersion')?.value;
  const minor = v?.kind === 'scalar' && v.value !== null ? minorOf(String(v.value)) : undefined;
  return minor !== undefined && minorNumber(minor) <= 10 && MASTER_ONLY_KEYS.some((k) => getEntry(root, k));
}
const minorNumber = (minor: string): number => Number(minor.split('.')[1]);

function classify(root: MapNode): Classified {
  if (legacyMasterConfiguration(root)) return { kind: 'MasterConfiguration', apiVersion: 'kubeadm.k8s.io/v1alpha1' };
  const k = getEntry(root, 'kind');
  const a = getEntry(root, 'apiVersion');
  return {
    kind: scalarString(k?.value),
    apiVersion: scalarString(a?.value),
    kindSpan: k?.value.span,
    apiVersionSpan: a?.value.span,
    ...(a?.value.kind === 'scalar' && a.value.template !== undefined ? { apiVersionRendered: true } : {}),
  };
}

function checkKubeletApiVersion(c: Classified, root: MapNode, problems: Finding[], fragment: boolean, format: 'yaml' | 'json', lines: LineIndex) {
  const av = c.apiVersion;
  if (av === KUBELET_API_VERSION || c.apiVersionRendered) return;
  if (av === undefined) {
    if (fragment) return;
    problems.push(finding('config-kind-invalid', 'error', c.kindSpan ?? root.span,
      `apiVersion is missing: the kubelet cannot decode a KubeletConfiguration without "apiVersion: ${KUBELET_API_VERSION}".`));
    return;
  }
  const span = c.apiVersionSpan ?? root.span;
  const group = av.includes('/') ? av.slice(0, av.indexOf('/')) : '';
  if (group === KUBELET_API_GROUP) {
    problems.push(finding('config-kind-invalid', 'error', span,
      `KubeletConfiguration version "${av}" does not exist: the kubelet rejects the file. It only reads ${KUBELET_API_VERSION} (it fails with: no kind "KubeletConfiguration" is registered for version "${av}").`));
  } else {
    problems.push(finding('config-kind-invalid', 'error', span,
      `Wrong API group: apiVersion must be ${KUBELET_API_VERSION}. KubeletConfiguration belongs to ${KUBELET_API_GROUP}, not "${av}". ` +
      `With this apiVersion the document is not recognised as the kubelet's configuration (kubeadm does not pass it to the kubelet, and the kubelet rejects it: no kind "KubeletConfiguration" is registered for version "${av}"), so none of its settings apply.`,
      { fixes: [{ title: `Change apiVersion to ${KUBELET_API_VERSION}`, preferred: true, edits: [apiVersionEdit(span, av, format, lines)] }] }));
  }
}

/**
 * The Cluster API object a kubeadm document is cut from (formats/cluster-api.ts writes `# Cluster API <apiVersion>
 * <kind>` in its header): messages about its shape speak of the object the user wrote, not of the kubeadm API it
 * stands for.
 */
export const CAPI_MARK = '# Cluster API ';

function clusterApi(text: string): { apiVersion: string; kind: string } | undefined {
  if (!text.startsWith(CAPI_MARK)) return undefined;
  const [apiVersion, kind] = text.slice(CAPI_MARK.length, text.indexOf('\n')).split(' ');
  return apiVersion && kind ? { apiVersion, kind } : undefined;
}

function kubeadmDoc(path: string, root: MapNode, c: Classified, docSpan: Span, problems: Finding[], capi?: { apiVersion: string; kind: string }): KubeadmDoc {
  const apiVersion = c.apiVersion ?? '';
  const kind = c.kind ?? '';
  const out: KubeadmDoc = { path, apiVersion, kind, kubeletExtraArgs: [], span: docSpan };
  const old = KUBEADM_OLD_VERSIONS[apiVersion];
  // v1alpha1/v1alpha2 MasterConfiguration held the version that ClusterConfiguration holds since.
  const versionNode = kind === 'ClusterConfiguration' || kind === 'MasterConfiguration' ? getEntry(root, 'kubernetesVersion')?.value : undefined;
  const stated = versionNode?.kind === 'scalar' && versionNode.value !== null && !versionNode.template ? minorOf(String(versionNode.value)) : undefined;
  // A file that states a Kubernetes version whose kubeadm still read this API is right for that version.
  if (old && !(stated && minorNumber(stated) <= minorNumber(minorOf(old)!))) {
    problems.push(finding('config-kubeadm-api-version', 'error', c.apiVersionSpan ?? docSpan,
      `${apiVersion} is an old kubeadm API that current kubeadm refuses. It fails with "your configuration file uses an old API spec"; the last kubeadm to read it is ${old}. Convert the file with 'kubeadm config migrate' (run by a kubeadm that still reads it) and use kubeadm.k8s.io/v1beta4.`));
  }
  // A template expression in it (`v${k8s_version}.0`) states no version: the rendered file does.
  if (versionNode?.kind === 'scalar' && versionNode.value !== null && !versionNode.template) out.kubernetesVersion = { value: String(versionNode.value), span: versionNode.span };
  if (kind !== 'InitConfiguration' && kind !== 'JoinConfiguration') return out;
  const patches = getEntry(root, 'patches')?.value;
  const dir = patches?.kind === 'map' ? getEntry(patches, 'directory')?.value : undefined;
  if (dir?.kind === 'scalar' && typeof dir.value === 'string' && dir.value !== '') out.patchesDirectory = dir.value;
  const nr = getEntry(root, 'nodeRegistration');
  if (!nr || nr.value.kind !== 'map') return out;
  const kea = getEntry(nr.value, 'kubeletExtraArgs');
  if (!kea) return out;
  const v = kea.value;
  // v1beta3 and older: map[string]string; v1beta4 (and later): []Arg{Name, Value}.
  const isV1beta4 = !/^kubeadm\.k8s\.io\/v1(alpha\d+|beta[1-3])$/.test(apiVersion);
  out.kubeletExtraArgsNode = { keySpan: kea.keySpan, value: v, list: isV1beta4 };
  const valueOf = (n: ConfigNode, what: string): string => {
    if (n.kind !== 'scalar') {
      problems.push(finding('config-kubeadm-extra-args', 'error', n.span, `The value of ${what} must be a string, not a ${n.kind === 'map' ? 'mapping' : 'list'}; kubeadm cannot decode it.`));
      return '';
    }
    if (n.value !== null && typeof n.value !== 'string') {
      problems.push(finding('config-kubeadm-extra-args', 'error', n.span,
        `The value of ${what} must be a quoted string: kubeadm fails to decode the file. It is read as a ${typeof n.value}; quote it: "${n.source}".`,
        { fixes: [{ title: 'Quote the value', preferred: true, edits: [{ file: n.span.file, range: n.span.range, newText: JSON.stringify(n.source) }] }] }));
    }
    return n.value === null ? '' : typeof n.value === 'string' ? n.value : n.source;
  };
  if (v.kind === 'map') {
    if (isV1beta4 && capi) {
      // api/bootstrap/kubeadm/v1beta2/kubeadm_types.go NodeRegistrationOptions.KubeletExtraArgs []Arg.
      problems.push(finding('config-kubeadm-extra-args', 'error', kea.keySpan,
        `Cluster API ${capi.apiVersion.slice(capi.apiVersion.lastIndexOf('/') + 1)} takes kubeletExtraArgs as a list of {name, value} items, not a map: the API server refuses it. This ${capi.kind} is ${capi.apiVersion}. Write:\n  kubeletExtraArgs:\n  - name: <flag>\n    value: "<value>"\nor keep the map with apiVersion ${capi.apiVersion.replace(/v1beta2$/, 'v1beta1')}.`));
    } else if (isV1beta4) {
      problems.push(finding('config-kubeadm-extra-args', 'error', kea.keySpan,
        `kubeletExtraArgs must be a list of {name, value} items here, not a map. That is so in ${apiVersion || 'kubeadm.k8s.io/v1beta4'}; kubeadm fails to decode a map here. Write:\n  kubeletExtraArgs:\n  - name: <flag>\n    value: "<value>"`));
    }
    for (const e of v.entries) {
      out.kubeletExtraArgs.push({ name: e.key, value: valueOf(e.value, `kubeletExtraArgs "${e.key}"`), nameSpan: e.keySpan, valueSpan: e.value.span });
    }
  } else if (v.kind === 'seq') {
    if (!isV1beta4 && capi) {
      // api/bootstrap/kubeadm/v1beta1/kubeadm_types.go NodeRegistrationOptions.KubeletExtraArgs map[string]string.
      problems.push(finding('config-kubeadm-extra-args', 'error', kea.keySpan,
        `Cluster API ${capi.apiVersion.slice(capi.apiVersion.lastIndexOf('/') + 1)} takes kubeletExtraArgs as a map of flag to value, not a list: the API server refuses it. This ${capi.kind} is ${capi.apiVersion}; write "<flag>: <value>" entries, or use the {name, value} list with apiVersion ${capi.apiVersion.replace(/v1beta1$/, 'v1beta2')}.`));
    } else if (!isV1beta4) {
      problems.push(finding('config-kubeadm-extra-args', 'error', kea.keySpan,
        `In ${apiVersion || 'this kubeadm API version'} kubeletExtraArgs is a map of flag name to value (the {name, value} list form arrived in kubeadm.k8s.io/v1beta4); kubeadm fails to decode a list here. Write "<flag>: <value>" entries or use apiVersion kubeadm.k8s.io/v1beta4.`));
    }
    for (const it of v.items) {
      if (it.kind !== 'map') {
        problems.push(finding('config-kubeadm-extra-args', 'error', it.span, 'Each kubeletExtraArgs item must be a mapping with name and value.'));
        continue;
      }
      const n = getEntry(it, 'name');
      const val = getEntry(it, 'value');
      if (!n) {
        problems.push(finding('config-kubeadm-extra-args', 'error', it.span, 'This kubeletExtraArgs item has no name.'));
        continue;
      }
      const name = scalarString(n.value) ?? '';
      out.kubeletExtraArgs.push({
        name,
        value: val ? valueOf(val.value, `kubeletExtraArgs "${name}"`) : '',
        nameSpan: n.value.span,
        valueSpan: val ? val.value.span : n.value.span,
      });
    }
  } else if (!(v.kind === 'scalar' && v.value === null)) {
    problems.push(finding('config-kubeadm-extra-args', 'error', v.span, isV1beta4
      ? 'kubeletExtraArgs must be a list of {name, value} items.'
      : 'kubeletExtraArgs must be a map of flag name to value.'));
  }
  return out;
}

// `{{[^{}]*}}`: with `[^}]*` every `{` of a long run of them started a scan to the end (quadratic).
/**
 * Real values written in capitals with underscores, which look like placeholders: the Windows priority classes of
 * `--windows-priorityclass` (kubernetes cmd/kubelet/app/options/osflags_windows.go, the Win32 class names).
 */
const ALL_CAPS_VALUES = new Set(['IDLE_PRIORITY_CLASS', 'BELOW_NORMAL_PRIORITY_CLASS', 'NORMAL_PRIORITY_CLASS', 'ABOVE_NORMAL_PRIORITY_CLASS', 'HIGH_PRIORITY_CLASS', 'REALTIME_PRIORITY_CLASS']);

// (`<value>`, `<cluster-dns-ip>`: a slot a document leaves for the reader to fill in by hand.)
const PLACEHOLDER = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|\$\{[A-Za-z_][A-Za-z0-9_]*\}|\{\{[^{}]*\}\}|^<[A-Za-z][\w .-]*>$/;

/**
 * Values that look like template placeholders never substituted (sed
 * `CGROUP_DRIVER`, envsubst `${VAR}`, Jinja `{{ x }}`): the kubelet and kubeadm
 * read them literally. One walk over the converted tree; shared alias nodes
 * are visited once.
 */
function placeholderProblems(root: ConfigNode, problems: Finding[], template = false) {
  // Depth-first with parallel stacks of primitives and the path kept as keys, joined only for a finding: no
  // object or path string per node (a large config has tens of thousands; bench: scaling).
  const seen = new Set<ConfigNode>();
  const nodes: ConfigNode[] = [root];
  const keys: (string | number | undefined)[] = [undefined];
  const depths: number[] = [0];
  const path: (string | number)[] = [];
  while (nodes.length) {
    const n = nodes.pop()!;
    const key = keys.pop();
    const depth = depths.pop()!;
    path.length = Math.max(0, depth - 1);
    if (key !== undefined) path.push(key);
    if (n.kind === 'scalar') {
      // A template's own expressions are filled in when it is rendered; in any other file they stay as written.
      const text = n.template ? n.source : n.value;
      if (!(template && n.template) && typeof text === 'string' && PLACEHOLDER.test(text) && !text.startsWith('TLS_') && !ALL_CAPS_VALUES.has(text)) {
        const at = pathText(path);
        problems.push(finding('config-placeholder', 'warning', n.span,
          `"${text}" looks like a template placeholder that was never substituted. ${at ? `It is the value of ${at}; t` : 'T'}he kubelet and kubeadm read it literally. Replace it with the real value.`));
      }
      continue;
    }
    if (seen.has(n)) continue;
    seen.add(n);
    // `{KUBE_DNS_SVC_IP}`: a sed marker in braces, which YAML reads as a flow mapping of one key and no value.
    if (n.kind === 'map' && braceMarker(n)) {
      const at = pathText(path);
      const text = `{${n.entries[0].key}}`;
      problems.push(finding('config-placeholder', 'warning', n.span,
        `"${text}" looks like a template placeholder that was never substituted. ${at ? `It is the value of ${at}; YAML reads it as a mapping, and t` : 'YAML reads it as a mapping, and t'}he kubelet and kubeadm read it as written. Replace it with the real value.`));
      continue;
    }
    if (n.kind === 'map') {
      for (let i = 0; i < n.entries.length; i++) {
        nodes.push(n.entries[i].value);
        keys.push(n.entries[i].key);
        depths.push(depth + 1);
      }
    } else {
      for (let i = 0; i < n.items.length; i++) {
        nodes.push(n.items[i]);
        keys.push(i);
        depths.push(depth + 1);
      }
    }
  }
}

/** A one-key flow mapping `{WORD}` in capitals with no value, on one line: a placeholder in braces, not a mapping. */
function braceMarker(n: MapNode): boolean {
  if (n.entries.length !== 1) return false;
  const [e] = n.entries;
  const r = n.span.range;
  return e.value.kind === 'scalar' && e.value.value === null && /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/.test(e.key) && r.start.line === r.end.line && r.end.character - r.start.character === e.key.length + 2;
}

/** `a.b[2].c` from a path of keys and indexes. */
function pathText(path: readonly (string | number)[]): string {
  let out = '';
  for (const k of path) out += typeof k === 'number' ? `[${k}]` : out ? `.${k}` : k;
  return out;
}

/**
 * Read a KubeletConfiguration / kubeadm file (YAML stream or JSON).
 * Never throws. JSON is chosen when the path ends in `.json` or the text starts with `{`.
 */
export function parseConfigFile(path: string, text: string, opts?: ParseConfigOptions): ConfigFileParse {
  const fragment = !!opts?.fragment;
  const lines = opts?.lines ?? new LineIndex(text);
  const out: ConfigFileParse = { path, kubeletConfigs: [], kubeadm: [], problems: [] };
  const problems = out.problems;
  // Template expressions are masked with same-length stand-ins, so every position the readers give stays exact.
  const exprs = scanTemplates(text, { dollar: true });
  const name = path.slice(path.lastIndexOf('/') + 1);
  const jsonName = /\.json$/i.test(withoutTemplateExt(name) ?? name);
  const masked = exprs.length ? maskTemplates(text, exprs, jsonName || looksLikeJson(text)) : undefined;
  const src = masked ? masked.text : text;
  const inline = masked && !jsonName ? inlineControlLines(text, exprs, masked.structural, lines) : undefined;
  const restorer = masked && (masked.values.length || inline?.size) ? new TemplateRestorer(text, masked.values, lines, inline) : undefined;
  const structural = (masked?.structural.length ?? 0) > 0;
  const isJson = jsonName || looksLikeJson(src);
  const template = !!opts?.template || structural || isTemplatePath(path) || (!!masked && bareValueExpr(text, masked.values, isJson));
  if (isJson) {
    const r = parseJsonText(path, src, lines);
    for (const x of r.problems) problems.push(x);
    const root = r.root;
    if (root) restorer?.tree(root);
    if (root) {
      if (root.kind !== 'map') {
        problems.push(finding('config-syntax', 'error', root.span, 'The file must hold a JSON object ({ ... }).'));
      } else {
        const c = classify(root);
        const isKubelet = c.kind === 'KubeletConfiguration' || (fragment && c.kind === undefined);
        // In a template, a key written twice is usually one per branch of an `if`.
        if (!structural) for (const x of dupProblems(r.duplicates, isKubelet, 'json')) problems.push(x);
        if (isKubelet) {
          checkKubeletApiVersion(c, root, problems, fragment, 'json', lines);
          out.kubeletConfigs.push({ path, format: 'json', apiVersion: c.apiVersion, root, docIndex: 0, span: root.span });
          placeholderProblems(root, problems, template);
        } else if (c.kind === undefined && c.apiVersion === undefined) {
          problems.push(finding('config-kind-invalid', 'error', { file: path, range: lines.range(0, 0) },
            `No "kind" and "apiVersion": the kubelet cannot decode a --config file without them (Object 'Kind' is missing). Add "kind": "KubeletConfiguration" and "apiVersion": "${KUBELET_API_VERSION}" (only a --config-dir drop-in may leave them out).`));
          out.kubeletConfigs.push({ path, format: 'json', apiVersion: undefined, root, docIndex: 0, span: root.span });
        } else if (c.apiVersion?.startsWith(KUBEADM_API_GROUP + '/')) {
          out.kubeadm.push(kubeadmDoc(path, root, c, root.span, problems));
        }
      }
    }
    return templated(out, masked, restorer, lines, text);
  }

  const r = parseYamlStream(path, src, lines);
  const alternatives = masked && hasBranches(text, masked.structural);
  for (const x of masked ? r.problems.map((p) => (alternatives ? inBranches(p) : syntaxInTemplate(p, exprs, lines))) : r.problems) problems.push(x);
  const broken = r.problems.some((p) => p.severity === 'error');
  for (const d of r.docs) if (d.root) restorer?.tree(d.root);
  for (const d of r.docs) {
    const root = d.root;
    if (!root || root.kind !== 'map') {
      if (root && root.kind !== 'scalar' && fragment) {
        problems.push(finding('config-syntax', 'error', root.span, 'A KubeletConfiguration must be a mapping (key: value lines).'));
      }
      continue;
    }
    const c = classify(root);
    const isKubelet = c.kind === 'KubeletConfiguration' || (fragment && c.kind === undefined && c.apiVersion === undefined);
    const isKubeadm = !isKubelet && !!c.apiVersion && c.apiVersion.startsWith(KUBEADM_API_GROUP + '/');
    if ((isKubelet || isKubeadm) && !structural) for (const x of dupProblems(d.duplicates, isKubelet, 'yaml')) problems.push(x);
    if (isKubelet) {
      checkKubeletApiVersion(c, root, problems, fragment, 'yaml', lines);
      const doc: KubeletConfigDoc = { path, format: 'yaml', apiVersion: c.apiVersion, root, docIndex: d.index, span: d.span };
      if (broken) doc.syntaxErrors = true;
      out.kubeletConfigs.push(doc);
      placeholderProblems(root, problems, template);
    } else if (isKubeadm) {
      out.kubeadm.push(kubeadmDoc(path, root, c, d.span, problems, clusterApi(src)));
      placeholderProblems(root, problems, template);
    }
  }
  return templated(out, masked, restorer, lines, text);
}

const ELSE = /^\{[{%]-?\s*(?:else|elif|elsif)\b|^%\{~?\s*else\b/;

/** Do the file's directives choose between alternatives (an `else` or `elif` branch)? */
export function hasBranches(text: string, structural: readonly TemplateExpr[]): boolean {
  return structural.some((e) => e.control && ELSE.test(text.slice(e.start, Math.min(e.end, e.start + 16))));
}

/** What depends on two lines being rendered together: the file's syntax, its shape, a key given twice. */
const BRANCH_CODES: ReadonlySet<string> = new Set(['config-syntax', 'config-kubeadm-extra-args', 'config-field-duplicate', 'config-kind-invalid']);

/**
 * In a template whose directives choose between alternatives, the literal text holds every branch at once: a list in
 * one and a map in the other (kubeadm's v1beta3 and v1beta4 kubeletExtraArgs) is no YAML error of any rendered file.
 */
function inBranches(p: Finding): Finding {
  if (!BRANCH_CODES.has(p.code) || (p.severity !== 'error' && p.severity !== 'warning')) return p;
  return { ...p, severity: 'information', message: `Only if the template renders these lines together (its directives choose between branches). ${p.message}` };
}

/**
 * A YAML syntax error on a line that holds a template expression is the template's to decide: the expression may
 * render as more than one line, or as the blank a key needs (`clusterDNS:${dns}` rendered from a list written with
 * its own line break). Said as information, as a condition on what the template renders.
 */
function syntaxInTemplate(p: Finding, exprs: readonly TemplateExpr[], lines: LineIndex): Finding {
  if (p.code !== 'config-syntax' || p.severity !== 'error') return p;
  const line = p.range.start.line;
  const from = lines.starts[line] ?? 0;
  const to = lines.starts[line + 1] ?? Infinity;
  // Expressions are in order: the first that ends after the line starts decides.
  let lo = 0;
  let hi = exprs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (exprs[mid].end <= from) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= exprs.length || exprs[lo].start >= to) return p;
  return { ...p, severity: 'information', message: `Unless the template expression on this line renders valid YAML, the file cannot be read. ${p.message}` };
}

/** Lines where a control directive stands beside other text: their values are one branch of it, unknown which. */
function inlineControlLines(text: string, exprs: readonly TemplateExpr[], structural: readonly TemplateExpr[], lines: LineIndex): Set<number> | undefined {
  let out: Set<number> | undefined;
  let k = 0;
  for (const e of structural) {
    if (!e.control) continue;
    const line = lines.position(e.start).line;
    if (out?.has(line)) continue;
    const from = lines.starts[line] ?? 0;
    const to = lines.starts[line + 1] ?? text.length;
    // What the line holds besides its expressions (every expression of it, values included, is passed over).
    while (k < exprs.length && exprs[k].end <= from) k++;
    let rest = '';
    let at = from;
    for (let x = k; x < exprs.length && exprs[x].start < to; x++) {
      rest += text.slice(at, Math.max(at, exprs[x].start));
      at = Math.max(at, exprs[x].end);
    }
    if (at < to) rest += text.slice(at, to);
    if (/[^\s#-]/.test(rest)) (out ??= new Set()).add(line);
  }
  return out;
}

/**
 * Mark the documents of a file with template expressions, and say once per file what a template that decides the
 * document's structure leaves unchecked.
 */
function templated(out: ConfigFileParse, masked: Masked | undefined, restorer: TemplateRestorer | undefined, lines: LineIndex, text: string): ConfigFileParse {
  if (!masked) return out;
  const inserts = masked.structural.some((e) => !e.control);
  const spans = restorer?.spans ?? (inserts ? { unknown: [], partial: [] } : undefined);
  if (spans && inserts) spans.inserts = true;
  if (hasBranches(text, masked.structural)) {
    out.problems = out.problems.map(inBranches);
    if (spans) spans.branches = out.path;
  }
  if (spans) for (const d of [...out.kubeletConfigs, ...out.kubeadm]) d.template = spans;
  if (masked.structural.length && (out.kubeletConfigs.length || out.kubeadm.length)) out.problems.push(templateNote(out.path, lines, masked, 'file'));
  return out;
}

/** The one `config-template` finding of a file whose template directives decide its structure, at the first one. */
export function templateNote(path: string, lines: LineIndex, masked: Masked, what: 'file' | 'cloud-config' | 'Butane config'): Finding {
  const s = masked.structural;
  const first = s[0];
  const firstLine = lines.position(first.start).line + 1;
  return finding('config-template', 'information', { file: path, range: lines.range(first.start, first.end) },
    `Template directives decide which lines this ${what} has; it was checked as if they were absent.` +
    ` ${s.length === 1 ? 'One directive' : `${s.length} directives`} (the first on line ${firstLine}) add, repeat or drop lines when the template is rendered` +
    ` (\`{% if %}\`, \`{{ range }}\`, \`%{ for }\`, or an expression alone on its line that inserts a block, such as \`{{ toYaml .x | nindent 4 }}\`).` +
    ` What they produce is not checked, and neither are duplicate keys (each branch may set the key); values written as template expressions are unknown.`);
}

/**
 * The edit writing the served apiVersion over the value `written` (at `span`): inside the quotes when the text there
 * is exactly the value quoted; otherwise over the whole value, in JSON as a string literal. An unterminated `"v1` or
 * an escaped `"v\u0031"` in JSON must not become a bare word: that breaks the file (issue #18's fuzz run).
 */
function apiVersionEdit(span: Span, written: string, format: 'yaml' | 'json', lines: LineIndex): TextEdit {
  const r = span.range;
  const at = (p: Position) => (lines.starts[p.line] ?? lines.text.length) + p.character;
  const text = r.start.line === r.end.line ? lines.text.slice(at(r.start), at(r.end)) : '';
  const quoted = text === `"${written}"` || (format === 'yaml' && text === `'${written}'`);
  if (quoted) return { file: span.file, range: { start: { line: r.start.line, character: r.start.character + 1 }, end: { line: r.end.line, character: r.end.character - 1 } }, newText: KUBELET_API_VERSION };
  return { file: span.file, range: r, newText: format === 'json' ? JSON.stringify(KUBELET_API_VERSION) : KUBELET_API_VERSION };
}
