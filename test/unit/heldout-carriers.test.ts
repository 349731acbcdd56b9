/**
 * Held-out checks for issue #16, written apart from the carriers' own tests: one node (a unit, a drop-in, an env
 * file and a KubeletConfiguration, each with a real mistake) carried by every carrier, whole or split over files.
 * What systemd and the kubelet would see on the machine is the bare files, so the carrier must give the same
 * findings at the carrier's places, the same allocatable, and fixes that re-encode to the bare fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { parseDocument } from 'yaml';
import { analyze, type Analysis } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { parseCapacity } from '../../server/src/node/capacity.ts';
import { nodeJson } from '../../server/src/cli/report.ts';
import { formatText } from '../../server/src/cli/format-text.ts';
import { nodeAllocatable } from '../../server/src/features/allocatable-data.ts';
import { allocatableMarkdown } from '../../server/src/features/allocatable-view.ts';
import { heredocFiles } from '../helpers/heredoc.ts';
import { applyEdits, offsetAt } from '../helpers/edits.ts';

const UNIT = '/etc/systemd/system/kubelet.service';
const DROPIN = '/etc/systemd/system/kubelet.service.d/20-extra.conf';
const ENV = '/etc/sysconfig/kubelet';
const CONFIG = '/var/lib/kubelet/config.yaml';

/** Mistakes: the drop-in's ExecStart= is not reset, carries a removed flag and swallows Restart=; an env variable is unused; a bad quantity. */
const FILES: Record<string, string> = {
  [UNIT]: `[Unit]
Description=kubelet
After=containerd.service

[Service]
EnvironmentFile=${ENV}
ExecStart=/usr/bin/kubelet \\
    --config=${CONFIG} \\
    --container-runtime-endpoint=unix:///run/containerd/containerd.sock \\
    $KUBELET_ARGS
Restart=always
`,
  [DROPIN]: `[Service]
Environment="KUBELET_EXTRA=--node-labels=role=worker"
ExecStart=/usr/bin/kubelet --config=${CONFIG} --network-plugin=cni \\
    $KUBELET_EXTRA $KUBELET_ARGS \\
Restart=always
`,
  [ENV]: `KUBELET_ARGS=--v=2
KUBELET_UNUSED=--max-pods=50
`,
  [CONFIG]: `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: systemd
kubeReserved:
  cpu: 100m
  memory: 1Gx
systemReserved:
  memory: 500Mi
evictionHard:
  memory.available: 200Mi
`,
};
const ALL = Object.keys(FILES);
const parsed = parseCapacity('cpu=4,memory=16Gi,ephemeral-storage=100Gi,pods=110');
assert.ok(parsed.ok);
const CAPACITY = parsed.capacity;
const indent = (t: string, n: number) => t.replace(/\n$/, '').replace(/^(?=.)/gm, ' '.repeat(n));

const cloudConfig = (paths: string[]) =>
  '#cloud-config\nwrite_files:\n' + paths.map((p) => `  - path: ${p}\n    permissions: '0644'\n    content: |\n${indent(FILES[p], 6)}\n`).join('') + 'runcmd:\n  - systemctl enable --now kubelet\n';
/** The env file and the config base64-encoded (`encoding: b64`, one line and a block of lines), the units literal. */
const cloudConfigB64 = () => {
  const b64 = Buffer.from(FILES[CONFIG]).toString('base64');
  return (
    '#cloud-config\nwrite_files:\n' +
    [UNIT, DROPIN].map((p) => `  - path: ${p}\n    content: |\n${indent(FILES[p], 6)}\n`).join('') +
    `  - path: ${ENV}\n    encoding: b64\n    content: ${Buffer.from(FILES[ENV]).toString('base64')}\n` +
    `  - path: ${CONFIG}\n    encoding: base64\n    content: |\n${indent(b64.match(/.{1,40}/g)!.join('\n'), 6)}\n`
  );
};
const writeFiles = (text: string, at: (js: any) => any[] = (js) => js.write_files): Record<string, string> => {
  const doc = parseDocument(text);
  assert.deepEqual(doc.errors, []);
  const out: Record<string, string> = {};
  for (const f of at(doc.toJS()) ?? []) {
    const enc = f.encoding ?? '';
    out[f.path] = /b64|base64/.test(enc) ? (/gz/.test(enc) ? gunzipSync(Buffer.from(f.content, 'base64')) : Buffer.from(f.content, 'base64')).toString() : f.content;
  }
  return out;
};

const butane = `variant: flatcar
version: 1.1.0
systemd:
  units:
    - name: kubelet.service
      contents: |
${indent(FILES[UNIT], 8)}
      dropins:
        - name: 20-extra.conf
          contents: |
${indent(FILES[DROPIN], 12)}
storage:
  files:
    - path: ${ENV}
      mode: 0644
      contents:
        inline: |
${indent(FILES[ENV], 10)}
    - path: ${CONFIG}
      mode: 0644
      contents:
        inline: |
${indent(FILES[CONFIG], 10)}
`;
function butaneRead(text: string): Record<string, string> {
  const doc = parseDocument(text);
  assert.deepEqual(doc.errors, []);
  const js = doc.toJS();
  const out: Record<string, string> = {};
  for (const u of js.systemd.units) {
    out[`/etc/systemd/system/${u.name}`] = u.contents;
    for (const d of u.dropins ?? []) out[`/etc/systemd/system/${u.name}.d/${d.name}`] = d.contents;
  }
  for (const f of js.storage.files) out[f.path] = f.contents.inline ?? dataUrl(f.contents.source);
  return out;
}

/** RFC 2397 as Ignition decodes it (vincent-petithory/dataurl): base64, or percent-encoded. */
function dataUrl(url: string): string {
  const comma = url.indexOf(',');
  const head = url.slice(5, comma);
  const data = url.slice(comma + 1);
  return head.endsWith(';base64') ? Buffer.from(data, 'base64').toString() : decodeURIComponent(data);
}
const pct = (s: string) => 'data:,' + encodeURIComponent(s);
const b64 = (s: string) => 'data:;base64,' + Buffer.from(s).toString('base64');
const ignition = (enc: { env: (s: string) => string; config: (s: string) => string }) =>
  JSON.stringify(
    {
      ignition: { version: '3.4.0' },
      systemd: { units: [{ name: 'kubelet.service', enabled: true, contents: FILES[UNIT], dropins: [{ name: '20-extra.conf', contents: FILES[DROPIN] }] }] },
      storage: {
        files: [
          { path: ENV, mode: 420, contents: { source: enc.env(FILES[ENV]) } },
          { path: CONFIG, mode: 420, contents: { source: enc.config(FILES[CONFIG]) } },
        ],
      },
    },
    null,
    2,
  ) + '\n';
function ignitionRead(text: string): Record<string, string> {
  const js = JSON.parse(text);
  const out: Record<string, string> = {};
  for (const u of js.systemd.units) {
    out[`/etc/systemd/system/${u.name}`] = u.contents;
    for (const d of u.dropins ?? []) out[`/etc/systemd/system/${u.name}.d/${d.name}`] = d.contents;
  }
  for (const f of js.storage.files) out[f.path] = dataUrl(f.contents.source);
  return out;
}

const script = (paths: string[]) =>
  '#!/bin/bash\nset -euo pipefail\nmkdir -p /etc/systemd/system/kubelet.service.d /var/lib/kubelet\n' +
  paths.map((p) => `cat > ${p} <<'EOF'\n${FILES[p]}EOF\n`).join('') +
  'systemctl daemon-reload\nsystemctl enable --now kubelet\n';

const BOUNDARY = '==BOUNDARY==';
const mime = `MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="${BOUNDARY}"

--${BOUNDARY}
Content-Type: text/cloud-config; charset="us-ascii"

${cloudConfig([ENV, CONFIG])}
--${BOUNDARY}
Content-Type: text/x-shellscript; charset="us-ascii"

${script([UNIT, DROPIN])}
--${BOUNDARY}--
`;
function mimeRead(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(`--${BOUNDARY}`).slice(1, -1)) {
    const body = part.slice(part.indexOf('\n\n') + 2);
    Object.assign(out, body.startsWith('#cloud-config') ? writeFiles(body) : heredocFiles(body));
  }
  return out;
}

const capi =
  'apiVersion: bootstrap.cluster.x-k8s.io/v1beta1\nkind: KubeadmConfigTemplate\nmetadata:\n  name: workers\nspec:\n  template:\n    spec:\n      files:\n' +
  ALL.map((p) => `        - path: ${p}\n          owner: root:root\n          permissions: '0644'\n          content: |\n${indent(FILES[p], 12)}\n`).join('');

interface Case {
  name: string;
  files: Record<string, string>;
  /** Per carrier file, what the machine gets from it (asserts the carrier is still valid). */
  read: Record<string, (text: string) => Record<string, string>>;
  /** Whether a finding's range covers the same text as in the bare file (not so in an encoded data: URL). */
  literal: boolean;
}
const CASES: Case[] = [
  { name: 'cloud-init write_files', files: { 'user-data': cloudConfig(ALL) }, read: { 'user-data': (t) => writeFiles(t) }, literal: true },
  { name: 'cloud-init write_files with b64 entries', files: { 'user-data': cloudConfigB64() }, read: { 'user-data': (t) => writeFiles(t) }, literal: false },
  { name: 'Butane units, drop-ins and inline files', files: { 'worker.bu': butane }, read: { 'worker.bu': butaneRead }, literal: true },
  { name: 'Ignition, percent-encoded env file and base64 config', files: { 'worker.ign': ignition({ env: pct, config: b64 }) }, read: { 'worker.ign': ignitionRead }, literal: false },
  { name: 'Ignition, base64 env file and percent-encoded config', files: { 'worker.ign': ignition({ env: b64, config: pct }) }, read: { 'worker.ign': ignitionRead }, literal: false },
  { name: 'shell here-documents', files: { 'bootstrap.sh': script(ALL) }, read: { 'bootstrap.sh': heredocFiles }, literal: true },
  { name: 'MIME user data: a cloud-config part and a script part', files: { 'user-data.mime': mime }, read: { 'user-data.mime': mimeRead }, literal: true },
  { name: 'Cluster API KubeadmConfigTemplate files[]', files: { 'workers.yaml': capi }, read: { 'workers.yaml': (t) => writeFiles(t, (js) => js.spec.template.spec.files) }, literal: true },
];

const bare = analyze(
  ALL.map((p) => ({ path: 'disk' + p, text: FILES[p] })),
  { capacity: CAPACITY },
);
/** A message with the places it cites left out: they differ between the bare files and the carrier. */
const placeless = (m: string) => withoutGuess(m).replace(/\S+ line \d+/g, '<file> line N').replace(/line \d+/g, 'line N');
/** A message without the condition a link by name alone puts first (node/guesses.ts). */
const withoutGuess = (m: string) => m.replace(/^Only if .*?, which (?:it matches|they match) by name alone\. /, '');
const underRange = (text: string, r: { start: { line: number; character: number }; end: { line: number; character: number } }) => text.slice(offsetAt(text, r.start), offsetAt(text, r.end));

function summary(a: Analysis, texts: Record<string, string>, literal: boolean): string[] {
  return a.findings.map((f) => `${f.code} ${literal ? JSON.stringify(underRange(texts[f.file], f.range)) : ''} ${placeless(f.message)}`).sort();
}

test('held-out: the bare node has the five mistakes it was written with', () => {
  const codes = bare.findings.map((f) => f.code).sort();
  for (const c of ['flag-removed', 'quantity-invalid', 'unit-continuation-swallows-directive', 'unit-execstart-not-reset', 'unit-variable-unused']) assert.ok(codes.includes(c), c);
  assert.equal(bare.nodes.length, 1);
});

for (const c of CASES) {
  test(`held-out carrier: ${c.name} gives the bare files' findings, at the carrier's places, and their allocatable`, () => {
    const texts = Object.fromEntries(ALL.map((p) => ['disk' + p, FILES[p]]));
    const a = analyze(
      Object.entries(c.files).map(([path, text]) => ({ path, text })),
      { capacity: CAPACITY },
    );
    assert.equal(a.nodes.length, bare.nodes.length, a.nodes.map((n) => n.node.id).join(', '));
    assert.deepEqual(
      a.nodes.map((n) => n.allocatable),
      bare.nodes.map((n) => n.allocatable),
    );
    assert.deepEqual(summary(a, c.files, c.literal), summary(bare, texts, c.literal));
    assert.deepEqual(a.findings.filter((f) => f.message !== withoutGuess(f.message)), [], 'within one carrier every link is by identity');
    // Every line a message cites in the carrier holds what the bare message's line holds there.
    for (const f of a.findings) {
      const b = bare.findings.find((x) => x.code === f.code && placeless(x.message) === placeless(f.message))!;
      const cited = (m: string) => [...m.matchAll(/line (\d+)/g)].map((x) => Number(x[1]));
      const lineText = (text: string, n: number) => text.split('\n')[n - 1].trim();
      if (!c.literal) continue;
      const got = cited(f.message).map((n) => lineText(c.files[f.file], n));
      const want = cited(b.message).map((n, i) => {
        // A path before the citation names the file; else it is the finding's own file.
        const at = [...b.message.matchAll(/(\S+) line (\d+)/g)][i];
        const file = at && at[1].startsWith('disk/') ? at[1] : b.file;
        return lineText(texts[file] ?? texts[b.file], n);
      });
      assert.deepEqual(got, want, `${f.code}: ${f.message}`);
    }
  });

  test(`held-out carrier: ${c.name}: every quick fix re-encodes to the bare file's fix and leaves a valid carrier`, () => {
    const a = analyze(Object.entries(c.files).map(([path, text]) => ({ path, text })), { capacity: CAPACITY });
    let n = 0;
    for (const f of a.findings.filter((x) => x.fixes?.length)) {
      const b = bare.findings.find((x) => x.code === f.code && placeless(x.message) === placeless(f.message));
      assert.ok(b?.fixes, f.message);
      assert.equal(f.fixes!.length, b.fixes.length, f.message);
      for (const [i, fix] of f.fixes!.entries()) {
        n++;
        assert.equal(placeless(fix.title), placeless(b.fixes[i].title));
        const written: Record<string, string> = {};
        for (const [host, text] of Object.entries(c.files)) Object.assign(written, c.read[host](applyEdits(text, fix.edits, host)));
        for (const p of ALL) assert.equal(written[p], applyEdits(FILES[p], b.fixes[i].edits, 'disk' + p), `${fix.title} on ${p}`);
        // The fixed carrier no longer has the finding the fix was for.
        const after = analyze(Object.entries(c.files).map(([path, text]) => ({ path, text: applyEdits(text, fix.edits, path) })), { capacity: CAPACITY });
        const left = (x: Analysis) => x.findings.filter((y) => y.code === f.code).length;
        assert.ok(left(after) < left(a), `${fix.title}: ${f.code} is still there`);
      }
    }
    assert.ok(n >= 4, `only ${n} fixes`);
  });
}

/** Files of a repository that mention the kubelet, its flags and its paths without being its configuration. */
const MENTIONS: Record<string, string> = {
  ".github/workflows/kubelet.yml": "name: kubelet e2e\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: configure kubelet\n        run: |\n          cat <<EOF | sudo tee /etc/default/kubelet\n          KUBELET_EXTRA_ARGS=--cgroup-driver=cgroupfs --network-plugin=cni\n          EOF\n          sudo systemctl restart kubelet\n      - name: kubelet flags\n        env:\n          KUBELET_EXTRA_ARGS: --max-pods=50 --allow-privileged=true\n        run: echo \"$KUBELET_EXTRA_ARGS\"\n",
  "Dockerfile": "FROM debian:bookworm\nRUN apt-get update && apt-get install -y kubelet kubeadm\nCOPY kubelet.service /etc/systemd/system/kubelet.service\nRUN mkdir -p /etc/systemd/system/kubelet.service.d && \\\n    echo '[Service]\\nExecStart=\\nExecStart=/usr/bin/kubelet --network-plugin=cni' > /etc/systemd/system/kubelet.service.d/10.conf\nENV KUBELET_EXTRA_ARGS=\"--max-pods=110 --network-plugin=cni\"\nCMD [\"/usr/bin/kubelet\", \"--config=/var/lib/kubelet/config.yaml\", \"--cadvisor-port=0\"]\n",
  "ansible/roles/k8s/defaults.yml": "kubelet_config:\n  apiVersion: kubelet.config.k8s.io/v1beta1\n  kind: KubeletConfiguration\n  maxPods: \"{{ max_pods }}\"\nkubelet_extra_args: \"--network-plugin=cni\"\n",
  "ansible/roles/k8s/tasks/main.yml": "---\n- name: Write kubelet config\n  template:\n    src: kubelet-config.yaml.j2\n    dest: /var/lib/kubelet/config.yaml\n  notify: restart kubelet\n\n- name: Set kubelet extra args\n  lineinfile:\n    path: /etc/sysconfig/kubelet\n    regexp: '^KUBELET_EXTRA_ARGS='\n    line: \"KUBELET_EXTRA_ARGS=--node-ip={{ ansible_default_ipv4.address }} --max-pods={{ max_pods }}\"\n\n- name: Restart kubelet\n  systemd:\n    name: kubelet\n    state: restarted\n    daemon_reload: true\n\n- name: copy drop-in\n  copy:\n    dest: /etc/systemd/system/kubelet.service.d/20-extra.conf\n    content: |\n      [Service]\n      Environment=\"KUBELET_EXTRA_ARGS=--cgroup-driver=systemd\"\n",
  "charts/kubelet-mon/templates/servicemonitor.yaml": "{{- if .Values.kubelet.enabled }}\napiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata:\n  name: {{ template \"kube-prometheus-stack.fullname\" . }}-kubelet\n  namespace: {{ .Values.kubelet.namespace }}\nspec:\n  endpoints:\n  - port: https-metrics\n    scheme: https\n    path: /metrics/cadvisor\n    bearerTokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token\n  selector:\n    matchLabels:\n      k8s-app: kubelet\n{{- end }}\n",
  "charts/kubelet-mon/values.yaml": "kubelet:\n  enabled: true\n  serviceMonitor:\n    https: true\n    cAdvisor: true\n    resource: false\n  namespace: kube-system\nkubeReserved:\n  memory: 1Gi\n",
  "docs/README.md": "# kubelet\nRun `kubelet --config=/var/lib/kubelet/config.yaml --network-plugin=cni`.\n```ini\n[Service]\nExecStart=/usr/bin/kubelet --allow-privileged\n```\n",
  "docs/kubelet-notes.yaml": "# Notes on kubelet configuration\ntitle: Kubelet tuning\nsections:\n  - name: reservations\n    text: |\n      Set kubeReserved and systemReserved in /var/lib/kubelet/config.yaml.\n      Example: --kube-reserved=cpu=100m,memory=1Gi --max-pods=110\n      [Service]\n      ExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n  - name: eviction\n    text: evictionHard memory.available<100Mi\n",
  "prom/kubelet-rules.yaml": "apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata:\n  name: kubelet\nspec:\n  groups:\n  - name: kubernetes-system-kubelet\n    rules:\n    - alert: KubeletTooManyPods\n      expr: count by(node) (kubelet_running_pods{job=\"kubelet\", metrics_path=\"/metrics\"}) / on(node) kube_node_status_capacity{resource=\"pods\"} > 0.95\n      for: 15m\n      labels:\n        severity: info\n    - alert: KubeletDown\n      expr: absent(up{job=\"kubelet\"} == 1)\n      annotations:\n        description: Kubelet has disappeared. evictionHard kubeReserved --max-pods\n",
  "tf/main.tf": "module \"eks\" {\n  source = \"terraform-aws-modules/eks/aws\"\n  eks_managed_node_groups = {\n    default = {\n      bootstrap_extra_args = \"--kubelet-extra-args '--max-pods=110 --network-plugin=cni'\"\n      pre_bootstrap_user_data = <<-EOT\n        cat <<EOF > /etc/systemd/system/kubelet.service.d/90-x.conf\n        [Service]\n        Environment=\"KUBELET_EXTRA_ARGS=--network-plugin=cni\"\n        EOF\n      EOT\n    }\n  }\n}\n",
  "tf/variables.tf": "variable \"kubelet_extra_args\" {\n  description = \"Extra args for the kubelet, e.g. --max-pods=110 --kube-reserved=cpu=100m\"\n  type        = string\n  default     = \"--node-labels=role=worker --network-plugin=cni\"\n}\nresource \"aws_launch_template\" \"this\" {\n  user_data = base64encode(<<-EOT\n    #!/bin/bash\n    /etc/eks/bootstrap.sh ${var.cluster_name} --kubelet-extra-args '${var.kubelet_extra_args}'\n  EOT\n  )\n}\n",
  "conf/kubelet.conf": "# nginx upstream for the kubelet metrics proxy\nupstream kubelet {\n  server 127.0.0.1:10250;\n}\n",
  "deploy/app.env": "KUBELET_HOST=10.0.0.1\nKUBELET_PORT=10250\n",
  "deploy/docker-compose.yml": "services:\n  kubelet:\n    image: registry.k8s.io/kubelet:v1.30.0\n    command: [\"kubelet\", \"--network-plugin=cni\", \"--max-pods=50\"]\n    environment:\n      KUBELET_EXTRA_ARGS: \"--allow-privileged\"\n",
  "deploy/eks-notes.toml": "[settings.kubernetes]\nnote = \"kubelet max-pods is computed\"\n",
  "deploy/fluentbit.conf": "[INPUT]\n    Name            systemd\n    Tag             host.*\n    Systemd_Filter  _SYSTEMD_UNIT=kubelet.service\n[OUTPUT]\n    Name  es\n",
  "deploy/kubelet.service.md": "ExecStart=/usr/bin/kubelet --network-plugin=cni\n",
  "deploy/kustomization.yaml": "resources:\n  - kubelet-rbac.yaml\npatches:\n  - target: {kind: ClusterRole, name: system:kubelet-api-admin}\n",
  "deploy/logrotate.conf": "/var/log/kubelet.log {\n    rotate 5\n    daily\n}\n",
  "deploy/node-exporter.yaml": "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: node-exporter\nspec:\n  template:\n    spec:\n      containers:\n      - name: exporter\n        args: [\"--collector.systemd.unit-include=kubelet.service\", \"--path.rootfs=/host\"]\n        volumeMounts:\n        - name: kubelet\n          mountPath: /var/lib/kubelet\n      volumes:\n      - name: kubelet\n        hostPath:\n          path: /var/lib/kubelet\n",
  "deploy/settings.json": "{\"kubelet\": {\"maxPods\": \"abc\", \"evictionHard\": {\"memory.available\": \"lots\"}}, \"kubeletExtraArgs\": \"--network-plugin=cni\"}\n",
  "helm/templates/kubelet-configmap.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-kubelet-dashboards\ndata:\n  kubelet.json: |-\n    {\"title\": \"Kubelet\", \"panels\": [{\"expr\": \"kubelet_running_pods\"}]}\n",
  "scripts/check-kubelet.sh": "#!/bin/sh\n# Prints the kubelet's flags; no file is written\ncat /etc/systemd/system/kubelet.service\ncat /var/lib/kubelet/config.yaml | grep maxPods\ngrep -r -- --max-pods /etc/systemd/system/kubelet.service.d/\n",
  "scripts/restart-kubelet.sh": "#!/bin/bash\n# restart the kubelet after an upgrade\nset -e\nsystemctl stop kubelet\necho \"KUBELET_EXTRA_ARGS=--network-plugin=cni\" >> /tmp/notes.txt\njournalctl -u kubelet --since \"10 min ago\" | grep -i \"evictionHard\"\nkubelet --version\nps aux | grep \"/usr/bin/kubelet --config\"\nsystemctl start kubelet\n",
};

test('held-out: files that merely mention kubelet words get no finding and no node, alone or together', () => {
  const check = (files: { path: string; text: string }[]) => {
    const a = analyze(files);
    assert.deepEqual(a.findings.map((f) => `${f.file}:${f.range.start.line + 1} ${f.code}`), []);
    assert.deepEqual(a.nodes.map((n) => n.node.id), []);
  };
  const all = Object.entries(MENTIONS).map(([path, text]) => ({ path, text }));
  for (const f of all) check([f]);
  check(all);
});

test('held-out template: a reservation or threshold that is a template expression shows as unknown, never as its stand-in number', () => {
  const text = [
    'apiVersion: kubelet.config.k8s.io/v1beta1',
    'kind: KubeletConfiguration',
    'kubeReserved:',
    '  memory: "{{ .Values.mem }}Ti"',
    'systemReserved:',
    '  memory: 500Mi',
    'evictionHard:',
    '  memory.available: "{{ .Values.evict }}"',
    '',
  ].join('\n');
  const a = analyze([{ path: 'chart/templates/kubelet-config.yaml', text }], { capacity: CAPACITY });
  const node = a.nodes[0];
  const mem = node.allocatable.lines.memory;
  assert.equal(mem.allocatable, undefined);
  assert.equal(mem.eviction, undefined);
  assert.deepEqual(mem.unknownParts?.sort(), ['eviction', 'kubeReserved']);
  const json = nodeJson(node);
  assert.equal(json.reserved.memory, undefined);
  assert.deepEqual(json.breakdown.memory, { systemReserved: 500 * 2 ** 20, evictionThreshold: '{{ .Values.evict }}' });
  const parts = nodeAllocatable(node).resources.find((r) => r.resource === 'memory')!.parts;
  assert.deepEqual(
    parts.map((p) => `${p.kind} ${p.text}`),
    ['kube-reserved ?', 'system-reserved 500 MiB', 'eviction-hard ?', 'allocatable ?'],
  );
  const table = formatText(a, false);
  assert.match(table, /memory +16 GiB +\? +500 MiB +\? \(\{\{ \.Values\.evict \}\}\) +\?/);
  assert.doesNotMatch(allocatableMarkdown(node), /1 TiB/);
});

test('held-out template: a cloud-config written for Terraform templatefile (%{ if } at column 0) parses; its literal mistakes are found', () => {
  const text = [
    '#cloud-config',
    'write_files:',
    '  - path: /var/lib/kubelet/config.yaml',
    '    content: |',
    '      apiVersion: kubelet.config.k8s.io/v1beta1',
    '      kind: KubeletConfiguration',
    '      maxPods: ${max_pods}',
    '      kubeReserved:',
    '        memory: ${kube_mem}Mi',
    '        pid: "1000x"',
    '%{ if enable_swap ~}',
    '      failSwapOn: false',
    '%{ endif ~}',
    '',
  ].join('\n');
  const a = analyze([{ path: 'tf/user-data.yaml.tftpl', text }]);
  assert.deepEqual(
    a.findings.map((f) => `${f.range.start.line + 1}:${f.range.start.character + 1} ${f.code}`),
    ['10:14 quantity-invalid', '11:1 config-template'],
  );
  assert.equal(a.nodes.length, 1);
});

test('held-out nodeadm: a kubelet.service drop-in written beside a NodeConfig joins nodeadm\'s node (the AMI\'s kubelet.service runs it)', () => {
  // amazon-eks-ami templates/al2023/runtime/rootfs/etc/systemd/system/kubelet.service: ExecStart=/usr/bin/kubelet
  // $NODEADM_KUBELET_ARGS, the flags nodeadm writes from the NodeConfig; a drop-in changes that same service.
  const script = [
    '--B',
    'Content-Type: text/x-shellscript; charset="us-ascii"',
    '',
    '#!/bin/bash',
    'mkdir -p /etc/systemd/system/kubelet.service.d',
    "cat > /etc/systemd/system/kubelet.service.d/90-pre.conf <<'EOF'",
    '[Service]',
    'ExecStartPre=/usr/bin/ctr --namespace=k8s.io image import /etc/eks/pause.tar',
    'EOF',
    '',
  ];
  const nodeConfig = [
    '--B',
    'Content-Type: application/node.eks.aws',
    '',
    'apiVersion: node.eks.aws/v1alpha1',
    'kind: NodeConfig',
    'spec:',
    '  cluster:',
    '    name: demo',
    '    apiServerEndpoint: https://example.com',
    '    certificateAuthority: Y2E=',
    '    cidr: 10.100.0.0/16',
    '  kubelet:',
    '    config:',
    '      maxPods: 58',
    '      kubeReserved:',
    '        memory: 1Gx',
    '',
    '--B--',
    '',
  ];
  const head = ['MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="B"', ''];
  const text = [...head, ...script, ...nodeConfig].join('\n');
  const a = analyze([{ path: 'user-data.mime', text }], { capacity: CAPACITY });
  assert.equal(a.nodes.length, 1, a.nodes.map((n) => n.node.id).join(', '));
  const node = a.nodes[0];
  assert.ok(node.node.files.some((f) => f.endsWith('kubelet.service.d/90-pre.conf')));
  assert.equal(node.node.platform?.tool, 'nodeadm');
  assert.equal(node.allocatable.pods, 58n);
  assert.deepEqual(a.findings.map((f) => `${f.range.start.line + 1} ${f.code}`), [`${head.length + script.length + 16} quantity-invalid`]);
  // Without the drop-in the NodeConfig gives the same allocatable.
  const alone = analyze([{ path: 'user-data.mime', text: [...head, ...nodeConfig].join('\n') }], { capacity: CAPACITY });
  assert.equal(alone.nodes.length, 1);
  assert.deepEqual(alone.nodes[0].allocatable, node.allocatable);
});

test('held-out env files: a *.env is the kubelet\'s by its name or by variables that hold kubelet arguments, not by a KUBELET_ word', () => {
  assert.equal(detectKind('deploy/app.env', 'KUBELET_HOST=10.0.0.1\nKUBELET_PORT=10250\n'), undefined);
  assert.equal(detectKind('deploy/node.env', 'KUBELET_ROLE=worker\nNODE_LABELS=a=b\n'), undefined);
  assert.equal(detectKind('run/kubeadm-flags.env', 'FOO=bar\n'), 'envfile');
  assert.equal(detectKind('run/x.env', 'KUBELET_EXTRA_ARGS=\n'), 'envfile');
  assert.equal(detectKind('run/x.env', 'export KUBELET_OPTS="--v=2"\n'), 'envfile');
  assert.equal(detectKind('run/x.env', 'ARGS="--max-pods=50"\n'), 'envfile');
});

const TF_UNIT = [
  '[Service]',
  'ExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet.yaml --node-labels=${node_labels} \\',
  '  --cluster-dns=${cluster_dns_service_ip} \\',
  '  %{~ for taint in node_taints ~}',
  '  --register-with-taints=${taint} \\',
  '  %{~ endfor ~}',
  '  --network-plugin=cni',
  '',
].join('\n');

test('held-out template: a directive line inside a continued ExecStart= is no line: the flags after it are still read', () => {
  // conf-parser.c: a blank line would end the continuation there; a line that is not in the rendered file cannot.
  const a = analyze([{ path: 'n/etc/systemd/system/kubelet.service', text: TF_UNIT }]);
  const at = (code: string) => a.findings.filter((f) => f.code === code).map((f) => `${f.range.start.line + 1}:${f.range.start.character + 1}`);
  assert.deepEqual(at('flag-removed'), ['7:3']);
  assert.deepEqual(at('config-template'), ['4:3']);
  const flags = a.nodes[0].node.flags.map((f) => f.name);
  assert.ok(flags.includes('network-plugin') && flags.includes('register-with-taints'), flags.join(' '));
});

test('held-out template: ${name} in a unit of a Terraform template (a %{ } directive or $${) is a placeholder, not a systemd variable', () => {
  // (A unit named *.service.tftpl is such a template by its name: test/unit/systemd-templates.test.ts.)
  const butaneTf = [
    'variant: flatcar',
    'version: 1.0.0',
    'systemd:',
    '  units:',
    '    - name: kubelet.service',
    '      contents: |',
    indent(TF_UNIT, 8),
    'storage:',
    '  files:',
    '    - path: /etc/kubernetes/kubelet.yaml',
    '      contents:',
    '        inline: |',
    '          apiVersion: kubelet.config.k8s.io/v1beta1',
    '          kind: KubeletConfiguration',
    '          clusterDNS: [${cluster_dns_service_ip}]',
    '          kubeReserved:',
    '            memory: 1Gi',
    '',
  ].join('\n');
  for (const [path, text, removedAt] of [
    ['worker.bu', butaneTf, '13:11'],
    ['n/etc/systemd/system/kubelet.service', TF_UNIT, '7:3'],
  ]) {
    const a = analyze([{ path, text }]);
    const codes = a.findings.map((f) => `${f.range.start.line + 1}:${f.range.start.character + 1} ${f.code}`);
    assert.ok(!codes.some((c) => /unit-variable-undefined|flag-overrides-config/.test(c)), `${path}: ${codes.join(', ')}`);
    assert.ok(codes.includes(`${removedAt} flag-removed`), `${path}: ${codes.join(', ')}`);
  }
  // Without Terraform syntax ${VAR} stays systemd's: an unset one is said.
  const plain = analyze([{ path: 'n/etc/systemd/system/kubelet.service', text: '[Service]\nExecStart=/usr/bin/kubelet --node-labels=${node_labels}\n' }]);
  assert.ok(plain.findings.some((f) => f.code === 'unit-variable-undefined'));
});

test('two cloud-configs are two machines (issue #37): a unit in one never reads the env file or config the other writes', () => {
  const a = analyze([
    { path: 'units.yaml', text: cloudConfig([UNIT, DROPIN]) },
    { path: 'config.yaml', text: cloudConfig([ENV, CONFIG]) },
  ], { capacity: CAPACITY });
  const unit = a.nodes.find((n) => n.node.service)!.node;
  assert.ok(unit.files.every((f) => f.startsWith('units.yaml')), unit.files.join(', '));
  assert.equal(unit.links, undefined);
});
