/**
 * Template expressions (Helm/Go `{{ }}`, Jinja2 `{{ }}` `{% %}` `{# #}`, Terraform `${ }` `%{ }`) in config files:
 * the scanner's ranges, masking that keeps every position, values that are placeholders treated as unknown, and
 * systemd files left alone (`${VAR}` there is systemd's).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { isTemplatePath, maskTemplates, scanTemplates, withoutTemplateExt } from '../../server/src/parse/template.ts';
import { parseConfigFile } from '../../server/src/parse/config.ts';
import { parseYamlStream } from '../../server/src/parse/yaml.ts';
import { HANG_MS } from '../helpers/hang.ts';
import { allocatableSummary, allocatableMarkdown } from '../../server/src/features/allocatable-view.ts';
import { nodeAllocatable } from '../../server/src/features/allocatable-data.ts';
import { hover } from '../../server/src/features/hover.ts';

const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

const exprs = (text: string, dollar = true) => scanTemplates(text, { dollar }).map((e) => text.slice(e.start, e.end));

function run(path: string, text: string) {
  const a = analyze([{ path, text }], { capacity: { cpu: 4000n, memory: 16n * 2n ** 30n, 'ephemeral-storage': 100n * 2n ** 30n, hugepages: new Map() } });
  const list = a.findings.map((f) => `${f.severity} ${f.code} ${f.range.start.line + 1}:${f.range.start.character + 1}`);
  return { a, list, errors: a.findings.filter((f) => f.severity === 'error') };
}

test('scanner: each syntax with its exact range, trim markers and nesting included', () => {
  assert.deepEqual(exprs('a: {{ .x }}\nb: {{- toYaml .y | nindent 4 -}}\n'), ['{{ .x }}', '{{- toYaml .y | nindent 4 -}}']);
  assert.deepEqual(exprs('{% if a %}x{% endif %} {# note #}'), ['{% if a %}', '{% endif %}', '{# note #}']);
  assert.deepEqual(exprs('v: ${format("%#v", split(",", x))} %{ for a in b ~}'), ['${format("%#v", split(",", x))}', '%{ for a in b ~}']);
  assert.deepEqual(exprs('v: ${ {a = 1}["a"] }'), ['${ {a = 1}["a"] }']);
});

test('scanner: `$${` is Terraform\'s escape for a literal `${`; unclosed openers are not expressions', () => {
  assert.deepEqual(exprs('sed "$${SOCI_CONFIG_FILE}" ${x}'), ['${x}']);
  assert.deepEqual(exprs('a: {{ never closed\nb: ${ also\n}'), []);
});

test('scanner: with dollar off (units, drop-ins, env files) `${VAR}` and `%{` are not templates', () => {
  assert.deepEqual(exprs('ExecStart=/usr/bin/kubelet ${KUBELET_ARGS} {{ extra }}', false), ['{{ extra }}']);
});

test('scanner: Go actions that print nothing are control (if, range, end, comments, assignments)', () => {
  const t = '{{ if .a }}{{ .b }}{{- end }}{{/* c */}}{{ $x := 1 }}{{ $x }}';
  assert.deepEqual(scanTemplates(t, { dollar: true }).map((e) => e.control), [true, false, true, true, true, false]);
});

test('scanner and masking stay fast on hostile input (unclosed openers, long lines)', () => {
  const inputs = ['{{'.repeat(50_000), '${'.repeat(50_000), '${"'.repeat(30_000), ('a: {{ x }}\n{% if %}\n').repeat(10_000), '{#'.repeat(50_000) + '%{'.repeat(50_000)];
  const t0 = Date.now();
  for (const t of inputs) {
    const m = maskTemplates(t, scanTemplates(t, { dollar: true }), false);
    assert.equal(m.text.length, t.length);
  }
  assert.ok(Date.now() - t0 < HANG_MS, 'hang');
});

test('the closer searches share a budget that real files never reach: every interpolation of a long Terraform file is found', () => {
  // The budget bounds a line of unclosed `${` openers (each search reads up to 4096 characters: 2.5 s for 100 KB before).
  const line = (i: number) => `  v${i}: "\${jsonencode({a = "}", b = [${i}, var.x${i}]})}-\${var.y${i}}"\n`;
  const text = Array.from({ length: 5_000 }, (_, i) => line(i)).join('');
  assert.equal(exprs(text).length, 10_000);
  const onOneLine = '${'.repeat(20_000) + ' ${x}';
  assert.ok(exprs(onOneLine).length <= 1, 'past the budget a `${` is literal text, never a wrong range');
});

test('masking keeps the length and every line end; directive lines are blanked', () => {
  const t = 'a: 1\n{{- if .x }}\nb: "{{ .y }}"\r\n{% endif %}\nc: {{ .z }}Gi\n';
  const m = maskTemplates(t, scanTemplates(t, { dollar: true }), false);
  assert.equal(m.text.length, t.length);
  assert.deepEqual([...m.text].map((c, i) => (c === '\n' || c === '\r' ? i : -1)).filter((i) => i >= 0), [...t].map((c, i) => (c === '\n' || c === '\r' ? i : -1)).filter((i) => i >= 0));
  assert.equal(m.structural.length, 2);
  assert.equal(m.values.length, 2);
  assert.ok(m.text.includes('\n            \n'), 'the {{- if }} line is spaces');
});

test('template names: .tpl, .j2, .gotmpl, .template and Helm templates/ folders', () => {
  assert.equal(withoutTemplateExt('kubelet-config.yaml.j2'), 'kubelet-config.yaml');
  assert.equal(withoutTemplateExt('config.yaml'), undefined);
  assert.ok(isTemplatePath('chart/templates/kubelet.yaml'));
  assert.ok(isTemplatePath('worker.yaml.tpl'));
  assert.ok(!isTemplatePath('etc/kubernetes/kubelet.yaml'));
  assert.equal(detectKind('roles/node/templates/kubelet-config.v1beta1.yaml.j2', HEAD), 'kubelet-config');
  assert.equal(detectKind('kubeadm.yaml.tpl', 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\n'), 'kubeadm-config');
  assert.equal(detectKind('notes.txt.j2', HEAD), undefined);
  assert.equal(detectKind('etc/containerd/config.toml.tmpl', 'version = 2\n[plugins]\n'), 'containerd');
  assert.equal(detectKind('etc/systemd/system/kubelet.service.j2', '[Service]\nExecStart=/usr/bin/kubelet\n'), 'unit', 'a unit template is the unit it renders (test/unit/systemd-templates.test.ts)');
});

test('a reservation that is a placeholder gets no quantity error, and allocatable says it is unknown (not 0)', () => {
  const { a, errors } = run('templates/kubelet.yaml', HEAD + 'kubeReserved: {memory: "{{ .mem }}", cpu: 500m}\n');
  assert.deepEqual(errors, []);
  const line = a.nodes[0].allocatable.lines.memory;
  assert.deepEqual(line.unknown, ['kubeReserved.memory']);
  assert.equal(line.allocatable, undefined);
  assert.equal(a.nodes[0].allocatable.lines.cpu.allocatable, 3500n, 'the literal cpu reservation still counts');
});

test('allocatable views: unknown amounts are `?` with the settings that make them so, never a number', () => {
  const { a } = run('templates/kubelet.yaml', HEAD + 'kubeReserved:\n  memory: "{{ .mem }}"\nmaxPods: {{ .maxPods }}\n');
  const r = a.nodes[0];
  assert.equal(allocatableSummary(r), 'allocatable: 4 CPU · ? memory · 90 GiB · ? pods');
  assert.match(allocatableMarkdown(r), /not counted as 0\): kubeReserved\.memory \(memory\), maxPods \(pods\)/);
  const data = nodeAllocatable(r);
  const byName = new Map(data.resources.map((x) => [x.resource, x]));
  assert.equal(byName.get('memory')?.allocatable, undefined);
  assert.match(byName.get('memory')?.missing ?? '', /kubeReserved\.memory is a template expression/);
  assert.equal(byName.get('pods')?.allocatableText, '?');
});

test('hover on a placeholder says it is unknown, or partly checked', () => {
  const { a } = run('templates/kubelet.yaml', HEAD + 'maxPods: {{ .maxPods }}\nkubeReserved:\n  memory: {{ .mem }}Gi\n');
  const text = (line: number, character: number) => JSON.stringify(hover(a, 'templates/kubelet.yaml', { line, character })?.contents ?? null);
  assert.match(text(2, 12), /A template expression: its value is unknown/);
  assert.match(text(4, 12), /Partly a template expression/);
});

test('a partly literal quantity is checked: `{{ .mem }}Gi` passes, `{{ .mem }}Gx` fails at the value', () => {
  assert.deepEqual(run('templates/kubelet.yaml', HEAD + 'kubeReserved:\n  memory: {{ .mem }}Gi\n').errors, []);
  const { errors } = run('templates/kubelet.yaml', HEAD + 'kubeReserved:\n  memory: {{ .mem }}Gx\n');
  assert.deepEqual(errors.map((f) => `${f.code} ${f.range.start.line + 1}:${f.range.start.character + 1}`), ['quantity-invalid 4:11']);
  assert.match(errors[0].message, /\{\{ \.mem \}\}Gx/, 'the message shows the value as written');
});

test('placeholders as values and keys: no type, enum, range or unknown-field finding; the rest is still checked', () => {
  const text = HEAD + 'maxPods: {{ .maxPods }}\ncgroupDriver: {{ .driver }}\ncpuManagerPolicy: "{{ .policy }}"\n{{ .extraKey }}: 3\nevictionHard: {{ toYaml .eviction }}\nmaxpods: 3\n';
  const { list } = run('templates/kubelet.yaml', text);
  assert.deepEqual(list.filter((l) => !l.startsWith('hint')), ['warning config-field-unknown 8:1'], 'only the real misspelling');
});

test('static CPU manager with a templated cpu reservation: unknown, not missing', () => {
  const text = HEAD + 'cpuManagerPolicy: static\nkubeReserved:\n  cpu: "{{ .cpu }}"\n';
  assert.deepEqual(run('templates/kubelet.yaml', text).errors, []);
  assert.deepEqual(run('kubelet.yaml', HEAD + 'cpuManagerPolicy: static\n').errors.map((f) => f.code), ['cpu-manager-static-needs-reservation']);
});

test('a structural template gets exactly one information finding, and the literal lines are still checked', () => {
  const text = HEAD + '{% if systemd %}\ncgroupDriver: systemd\n{% else %}\ncgroupDriver: cgroupfs\n{% endif %}\nevictionHard:\n{% for k, v in ev.items() %}\n  {{ k }}: {{ v }}\n{% endfor %}\ntopologyManagerPolicy: best-efort\nkubeReserved: {cpu: 500m}\n';
  const { a, list } = run('kubelet-config.yaml.j2', text);
  assert.deepEqual(list.filter((l) => l.startsWith('information')), ['information config-template 3:1']);
  assert.deepEqual(list.filter((l) => l.startsWith('error') || l.startsWith('warning')), ['error config-value-invalid 12:24'], 'no duplicate-key warning for the two branches');
  assert.deepEqual(a.nodes[0].allocatable.lines.memory.unknown, ['evictionHard.{{ k }}']);
});

test('Helm block insertion alone on its line is structural; inline it is an unknown value', () => {
  // The inserted block may hold the cpu reservation the static CPU manager needs: a missing setting is not reported.
  const block = run('templates/kubelet.yaml', HEAD + 'kubeReserved:\n{{ toYaml .Values.kubeReserved | indent 2 }}\nmaxPods: 110\ncpuManagerPolicy: static\n');
  assert.deepEqual(block.list.filter((l) => !l.startsWith('hint')), ['information config-template 4:1']);
  const inline = run('templates/kubelet.yaml', HEAD + 'kubeReserved: {{- toYaml .Values.kubeReserved | nindent 2 }}\nmaxPods: 110\n');
  assert.deepEqual(inline.list.filter((l) => !l.startsWith('hint')), []);
});

test('Terraform templatefile: `${var}` values and `%{ if }` lines in a .yaml.tpl', () => {
  const text = HEAD + 'clusterDNS:\n%{ for ip in dns ~}\n  - ${ip}\n%{ endfor ~}\nmaxPods: ${max_pods}\nkubeReserved:\n  memory: ${mem}Mi\n';
  const { list } = run('kubelet.yaml.tpl', text);
  assert.deepEqual(list.filter((l) => !l.startsWith('hint')), ['information config-template 4:1']);
});

test('JSON: a placeholder outside a string still parses, and keeps its position', () => {
  const text = '{\n  "apiVersion": "kubelet.config.k8s.io/v1beta1",\n  "kind": "KubeletConfiguration",\n  "maxPods": {{ .maxPods }},\n  "kubeReserved": {"memory": "{{ .mem }}Gx"}\n}\n';
  const { list } = run('kubelet-config.json.tpl', text);
  assert.deepEqual(list.filter((l) => !l.startsWith('hint')), ['error quantity-invalid 5:30']);
});

test('config-placeholder: a warning in a file a unit reads as written; a condition in a file alone; silent in a template', () => {
  const text = HEAD + 'providerID: "{{ provider_id }}"\nkubeReserved:\n  memory: "{{ mem }}"\n';
  // Alone, nothing says the file is used as it is: something may fill it (node/placeholders.ts).
  const plain = run('kubelet.yaml', text);
  assert.deepEqual(plain.list.filter((l) => l.includes('config-placeholder')), ['information config-placeholder 3:13', 'information config-placeholder 5:11']);
  assert.match(plain.a.findings.find((f) => f.code === 'config-placeholder')!.message, /^If nothing fills in "\{\{ provider_id \}\}" before this file is used, it is read as written\. /);
  // Named by a unit's --config at its path under the node's root: read as written, so a forgotten placeholder.
  const unit = '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n';
  const read = analyze([{ path: 'n/etc/systemd/system/kubelet.service', text: unit }, { path: 'n/var/lib/kubelet/config.yaml', text }]);
  assert.deepEqual(read.findings.filter((f) => f.code === 'config-placeholder').map((f) => f.severity), ['warning', 'warning']);
  assert.deepEqual(run('kubelet.yaml.j2', text).list.filter((l) => !l.startsWith('hint')), []);
  // sed-style placeholders are no template syntax: still said in a template (as a condition, the file being alone)
  assert.deepEqual(run('kubelet.yaml.j2', HEAD + 'clusterDomain: CLUSTER_DOMAIN_NAME\n').list.filter((l) => !l.startsWith('hint') && !l.includes('reservations-missing')), ['information config-placeholder 3:16']);
});

test('the parse keeps the expression text and marks whole and partial values', () => {
  const r = parseConfigFile('templates/k.yaml', HEAD + 'a: {{ .x }}\nb: "{{ .y }}Mi"\n{{ .k }}: 1\n');
  const root = r.kubeletConfigs[0].root;
  const [a, b, k] = root.entries.slice(2);
  assert.deepEqual([a.value.kind === 'scalar' && a.value.template, a.value.kind === 'scalar' && a.value.source], ['whole', '{{ .x }}']);
  assert.deepEqual([b.value.kind === 'scalar' && b.value.template, b.value.kind === 'scalar' && b.value.value], ['partial', '1Mi']);
  assert.deepEqual([k.key, k.keyTemplate], ['{{ .k }}', true]);
  assert.deepEqual(r.kubeletConfigs[0].template?.unknown.map((s) => s.range.start).sort((x, y) => x.line - y.line), [{ line: 2, character: 3 }, { line: 4, character: 0 }]);
});

test('systemd files keep their behaviour: `${VAR}` in ExecStart is expanded by systemd, not a template', () => {
  // systemd.service(5): `$VAR` splits into words, `${VAR}` is one word; both are expanded, neither is a template.
  const unit = '[Service]\nEnvironment="KUBELET_ARGS=--max-pods=50 --cgroup-driver=systemdd" "DRIVER=sytemd"\nExecStart=/usr/bin/kubelet $KUBELET_ARGS --cgroup-driver=${DRIVER}\n';
  const { a, errors } = run('kubelet.service', unit);
  const maxPods = a.nodes[0].node.settings.get('maxPods');
  assert.equal(maxPods?.kind === 'scalar' ? maxPods.value : undefined, '50');
  assert.deepEqual(errors.map((f) => `${f.code} ${f.range.start.line + 1}`), ['cgroup-driver-invalid 2'], 'the value that came through ${DRIVER} is still checked, at the variable\'s value');
});

test('units and env files: a Go/Jinja expression is read literally but nothing is reported about it; literal mistakes still are', () => {
  const unit = '[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet --max-pods={{ max_pods }} --node-ip {{ ip }} --cgroup-driver=systemdd $KUBELET_EXTRA_ARGS\n';
  const env = 'KUBELET_EXTRA_ARGS=--v=2 --register-node={{ register }} --eviction-hard=memory.available<1Gx\n';
  const a = analyze([{ path: 'etc/systemd/system/kubelet.service', text: unit }, { path: 'etc/default/kubelet', text: env }]);
  const errors = a.findings.filter((f) => f.severity === 'error').map((f) => `${f.file} ${f.code} ${f.range.start.line + 1}:${f.range.start.character + 1}`);
  // The env value holding an expression is unknown as a whole (its mistake too); the unit's literal mistake stays.
  assert.deepEqual(errors, ['etc/systemd/system/kubelet.service cgroup-driver-invalid 3:89']);
});

test('a flag whose value is a placeholder is unknown too: `--max-pods={{ max_pods }}` is `?` pods, never the default 110', () => {
  // Before, the unit's placeholders only silenced findings: the table showed 110 pods and 0 B of kube-reserved memory.
  const unit = '[Service]\nExecStart=/usr/bin/kubelet --max-pods={{ max_pods }} --kube-reserved=cpu=500m,memory={{ kr_mem }}Mi --system-reserved=memory=1Gi\n';
  const { a } = run('etc/systemd/system/kubelet.service', unit);
  const { lines, podsUnknown } = a.nodes[0].allocatable;
  assert.deepEqual(lines.memory.unknown, ['kubeReserved.memory']);
  assert.equal(lines.memory.allocatable, undefined);
  assert.equal(lines.cpu.allocatable, 3500n, 'the literal cpu=500m still counts');
  assert.equal(podsUnknown, 'maxPods');
  assert.equal(allocatableSummary(a.nodes[0]), 'allocatable: 3.5 CPU · ? memory · 90 GiB · ? pods');
});

test('a placeholder that writes a whole map flag (`--kube-reserved={{ kr }}`) leaves every reservation of it unknown, not 0', () => {
  const { a, errors } = run('etc/systemd/system/kubelet.service', '[Service]\nExecStart=/usr/bin/kubelet --kube-reserved={{ kube_reserved }} --eviction-hard={{ eviction }}\n');
  assert.deepEqual(errors, [], 'no "missing =" at a placeholder');
  const { lines } = a.nodes[0].allocatable;
  for (const r of ['cpu', 'memory', 'ephemeral-storage'] as const) assert.ok(lines[r].unknown?.includes('kubeReserved'), r);
  assert.ok(lines.memory.unknown?.includes('evictionHard'));
  assert.equal(lines.memory.eviction, undefined, 'the unknown threshold is not the default 100Mi');
});

test('kubeletExtraArgs and env-file values written as placeholders are unknown in the allocatable', () => {
  const kubeadm = 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: JoinConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n    max-pods: "{{ .maxPods }}"\n    system-reserved: "cpu=1,memory={{ .sysMem }}"\n';
  const k = run('kubeadm/join.yaml', kubeadm).a.nodes[0].allocatable;
  assert.equal(k.podsUnknown, 'maxPods');
  assert.deepEqual(k.lines.memory.unknown, ['systemReserved.memory']);
  // A quoted YAML value places its words only approximately: cpu=1 beside the expression may be its text, so `?`.
  assert.deepEqual(k.lines.cpu.unknown, ['systemReserved.cpu']);
  assert.equal(k.lines['ephemeral-storage'].unknown, undefined, 'no key is a placeholder');
  const plain = run('kubeadm/join.yaml', kubeadm.replace('"cpu=1,memory={{ .sysMem }}"', 'cpu=1,memory={{ .sysMem }}')).a.nodes[0].allocatable;
  assert.deepEqual(plain.lines.memory.unknown, ['systemReserved.memory']);
  const unit = '[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS\n';
  const env = 'KUBELET_EXTRA_ARGS=--max-pods={{ max_pods }} --kube-reserved=cpu=250m\n';
  const e = analyze([{ path: 'etc/systemd/system/kubelet.service', text: unit }, { path: 'etc/default/kubelet', text: env }], {
    capacity: { cpu: 4000n, memory: 16n * 2n ** 30n, 'ephemeral-storage': 100n * 2n ** 30n, hugepages: new Map() },
  }).nodes[0].allocatable;
  assert.equal(e.podsUnknown, 'maxPods');
  // An env value holding an expression is unknown as a whole (the expression may hold spaces): so is the cpu there.
  assert.equal(e.lines.cpu.allocatable, undefined);
});

test('Terraform: `--max-pods=${max_pods}` in a templatefile unit is unknown, while systemd\'s `$X` is still a variable', () => {
  const unit = '[Service]\nEnvironment=KUBELET_ARGS=--kube-reserved=cpu=500m\nExecStart=/usr/bin/kubelet --max-pods=${max_pods} $KUBELET_ARGS --system-reserved=memory=${sys_mem}\n%{ if gpu ~}\n# gpu\n%{ endif ~}\n';
  const { a } = run('etc/systemd/system/kubelet.service', unit);
  const { lines, podsUnknown } = a.nodes[0].allocatable;
  assert.equal(podsUnknown, 'maxPods', 'not the default 110');
  // systemd would expand the unset ${sys_mem} to nothing; Terraform fills it in first, so it is unknown, not 0.
  assert.deepEqual(lines.memory.unknown, ['systemReserved.memory']);
  assert.equal(lines.cpu.allocatable, 3500n, 'cpu=500m came through systemd\'s $KUBELET_ARGS (Terraform leaves `$X` alone)');
});

test('units, drop-ins and env files whose template directives decide lines: the directive lines are no lines of the file, one note says so', () => {
  // Kubespray/Ansible Jinja2 around ExecStart= lines: two branches, of which the rendered unit keeps one.
  const unit = '[Service]\n{% if kubelet_config %}\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n{% else %}\nExecStart=/usr/bin/kubelet --max-pod=10\n{%- endif %}\n';
  const dropin = '[Service]\n{{- range .Args }}\nEnvironment="A={{ . }}"\n{{- end }}\nEnvironment="KUBELET_EXTRA_ARGS=--cadvisor-port=0"\n';
  const env = '{% if extra %}\nKUBELET_EXTRA_ARGS=--cadvisor-port=0\n{% endif %}\n';
  const show = (path: string, text: string) => analyze([{ path, text }]).findings.map((f) => `${f.range.start.line + 1} ${f.code}`).sort();
  // Read as literal lines these gave envfile-syntax at the env file's directive lines and unit-execstart-not-reset
  // for the unit's two branches.
  assert.deepEqual(show('etc/systemd/system/kubelet.service', unit), ['2 config-template', '5 flag-unknown', '5 reservations-missing']);
  assert.deepEqual(show('etc/systemd/system/kubelet.service.d/10-x.conf', dropin), ['2 config-template']);
  assert.deepEqual(show('etc/default/kubelet', env), ['1 config-template', '2 flag-removed']);
  // the note names the first directive and how many there are
  const note = analyze([{ path: 'etc/systemd/system/kubelet.service', text: unit }]).findings.find((f) => f.code === 'config-template')!;
  assert.equal(note.severity, 'information');
  assert.match(note.message, /^Template directives decide which lines this file has; .* 3 directives \(the first on line 2\)/);
  // a value that is an expression is no directive: no note
  assert.deepEqual(show('etc/default/kubelet', 'KUBELET_EXTRA_ARGS={{ args }}\n'), []);
  // `${VAR}` is systemd's: no note, no directive
  assert.deepEqual(show('etc/systemd/system/kubelet.service', '[Service]\nEnvironment=A=--v=2\nExecStart=/usr/bin/kubelet ${A}\n'), ['3 reservations-missing']);
});

test('runtime configs: a templated containerd or Docker config parses; a driver written as an expression is unknown, not the default', () => {
  const toml = 'version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\n  SystemdCgroup = {{ .systemd }}\n{{ if .mirror }}\n[plugins."io.containerd.grpc.v1.cri".registry.mirrors."docker.io"]\n  endpoint = ["${mirror}"]\n{{ end }}\n';
  const kubelet = HEAD + 'cgroupDriver: systemd\n';
  const a = analyze([{ path: 'etc/containerd/config.toml', text: toml }, { path: 'var/lib/kubelet/config.yaml', text: kubelet }]);
  const seen = a.findings.filter((f) => f.severity !== 'hint' && f.code !== 'reservations-missing'); // (true: it reserves nothing)
  assert.deepEqual(seen.map((f) => `${f.code} ${f.file}`), ['config-template etc/containerd/config.toml'], 'no syntax error, no driver mismatch');
  const json = '{\n  "exec-opts": ["native.cgroupdriver=cgroupfs"],\n  "log-opts": {{ toJson .logOpts }}\n}\n';
  const b = analyze([{ path: 'etc/docker/daemon.json', text: json }, { path: 'var/lib/kubelet/config.yaml', text: kubelet }]);
  assert.ok(b.findings.some((f) => f.code === 'cgroup-driver-mismatch'), 'the literal driver is still read');
  assert.ok(!b.findings.some((f) => f.code === 'runtime-config-invalid'));
});

test('a block scalar that starts with directive lines still parses (cloud-init write_files of a Go template)', () => {
  const text = 'write_files:\n  - path: /etc/x.conf\n    content: |\n      {{- range $i, $c := .list }}\n      {{- $kv := split $c "=" }}\n      {{index $kv 0}} = {{index $kv 1}}\n      {{- end}}\n{{- end}}\n  - path: /etc/y\n';
  const m = maskTemplates(text, scanTemplates(text, { dollar: true }), false);
  assert.deepEqual(parseYamlStream('c.yaml', m.text).problems, []);
});
