/**
 * Shell payloads (server/src/embed/shell.ts, formats/shell.ts): here-documents that write kubelet files, and the
 * kubelet flags handed to EKS's AL2 bootstrap.sh, read where the text is literal; what the shell computes at run
 * time is named as not checked (bash: a quoted here-document delimiter turns expansion off, an unquoted one
 * expands $ and backquotes; `<<-` strips leading tabs).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { applyEdits } from '../helpers/edits.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { carrierProperty, fixesMatchBare } from '../helpers/carrier-property.ts';
import { heredocFiles } from '../helpers/heredoc.ts';

const HOST = 'nodes/user-data.sh';
const D = 'EOF';

const where = (text: string, f: Finding) => text.split('\n')[f.range.start.line].slice(f.range.start.character, f.range.end.character);

const SCRIPT = [
  '#!/bin/bash',
  'set -euo pipefail',
  `cat > /etc/systemd/system/kubelet.service <<'${D}'`,
  '[Service]',
  'ExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml --cadvisor-port=0',
  D,
  `cat > /var/lib/kubelet/config.yaml <<'${D}'`,
  'apiVersion: kubelet.config.k8s.io/v1beta1',
  'kind: KubeletConfiguration',
  'kubeReserved:',
  '  memroy: 1Gi',
  D,
  'systemctl enable --now kubelet',
  '',
].join('\n');

test('recognised as a shell carrier only when it is a script that mentions the kubelet', () => {
  assert.equal(detectKind('user-data', SCRIPT), 'shell');
  assert.equal(detectKind('x/setup.sh', 'apt-get install -y kubelet\n'), 'shell');
  assert.equal(detectKind('x/setup.sh', '#!/bin/sh\necho hello\n'), undefined);
  assert.equal(detectKind('x/run', '#!/usr/bin/env python3\nprint("kubelet")\n'), undefined);
  assert.equal(detectKind('x/run', '#!/usr/bin/env bash\n/etc/eks/bootstrap.sh c\n'), 'shell');
});

test('quoted here-documents are the files they write: one node, findings at the script lines, fixes equal the bare fixes', () => {
  const a = analyze([{ path: HOST, text: SCRIPT }]);
  assert.equal(a.nodes.length, 1);
  assert.equal(a.nodes[0].node.files.length, 2);
  const got = a.findings.map((f) => `${f.range.start.line + 1} ${f.code} ${where(SCRIPT, f)}`);
  assert.ok(got.includes('5 flag-removed --cadvisor-port'), got.join('\n'));
  assert.ok(got.includes('11 reserved-resource-unknown memroy'), got.join('\n'));
  assert.ok(fixesMatchBare(HOST, SCRIPT, heredocFiles(SCRIPT), heredocFiles) >= 2);
});

test('an unquoted here-document: literal text is read; with $VAR or $(...) it is one information finding, never guessed', () => {
  const text = [
    '#!/bin/sh',
    `cat <<${D} >/etc/default/kubelet`,
    'KUBELET_EXTRA_ARGS=--cadvisor-port=0',
    D,
    `tee /var/lib/kubelet/config.yaml > /dev/null <<${D}`,
    'apiVersion: kubelet.config.k8s.io/v1beta1',
    'kind: KubeletConfiguration',
    'maxPods: $MAX_PODS',
    'clusterDNS: [$(ip route | head -1)]',
    D,
    `cat >> /etc/kubernetes/kubelet.env <<'${D}'`,
    'KUBELET_EXTRA_ARGS=--v=2',
    D,
    `cat > "$DIR/kubelet.conf" <<'${D}'`,
    '[Service]',
    D,
    '',
  ].join('\n');
  const f = analyze([{ path: HOST, text }]).findings;
  assert.deepEqual(f.map((x) => `${x.range.start.line + 1} ${x.code} ${x.severity}`), [
    '3 flag-removed information', // no file states the version: it holds for a kubelet 1.15 or newer
    '5 payload-not-checked information',
    '11 payload-not-checked information',
    '14 payload-not-checked information',
  ]);
  assert.match(f[1].message, /^\/var\/lib\/kubelet\/config\.yaml is not checked: its here-document is expanded by the shell/);
  assert.match(f[2].message, /appends/);
  assert.match(f[3].message, /path is computed/);
});

test('<<- strips leading tabs: findings at the text after the tabs, and a fix keeps them', () => {
  const text = `#!/bin/bash\nif true; then\n\tcat > /etc/default/kubelet <<-${D}\n\tKUBELET_EXTRA_ARGS=--max-pods=abc --cadvisor-port=0\n\t${D}\nfi\n`;
  const a = analyze([{ path: HOST, text }]);
  const f = a.findings.find((x) => x.code === 'flag-removed')!;
  assert.equal(where(text, f), '--cadvisor-port');
  for (const fix of f.fixes ?? []) {
    const after = applyEdits(text, fix.edits, HOST);
    assert.match(after, /\n\tKUBELET_EXTRA_ARGS=--max-pods=abc *\n\tEOF\n/);
  }
});

test('bootstrap.sh --kubelet-extra-args: literal flags are the kubelet\'s, at their places; computed ones are not guessed', () => {
  const text = [
    '#!/bin/bash',
    "/etc/eks/bootstrap.sh my-cluster --kubelet-extra-args '--node-labels=a=b --kube-reserved=cpu=100m,memroy=1Gi'",
    '/etc/eks/bootstrap.sh my-cluster \\',
    '  --kubelet-extra-args "$EXTRA_ARGS"',
    '',
  ].join('\n');
  const a = analyze([{ path: HOST, text }]);
  const got = a.findings.map((f) => `${f.range.start.line + 1} ${f.code} ${f.severity} ${where(text, f)}`);
  assert.ok(got.includes('2 reserved-resource-unknown error memroy'), got.join('\n'));
  assert.ok(got.some((g) => g.startsWith('4 payload-not-checked information')), got.join('\n'));
  assert.equal(a.nodes[0].node.flags.find((x) => x.name === 'node-labels')?.value, 'a=b');
  const f = a.findings.find((x) => x.code === 'reserved-resource-unknown')!;
  assert.ok(f.fixes?.length);
  const after = applyEdits(text, f.fixes![0].edits, HOST);
  assert.match(after.split('\n')[1], /--kubelet-extra-args '--node-labels=a=b --kube-reserved=cpu=100m,memory=1Gi'$/);
});

test('cloud-init runcmd entries are shell: their here-documents and bootstrap.sh flags are read in the cloud-config', () => {
  const text = [
    '#cloud-config',
    'runcmd:',
    '  - |',
    `    cat > /etc/default/kubelet <<'${D}'`,
    '    KUBELET_EXTRA_ARGS=--cadvisor-port=0',
    `    ${D}`,
    "  - /etc/eks/bootstrap.sh c --kubelet-extra-args '--kube-reserved=memroy=1Gi'",
    '  - [systemctl, restart, kubelet]',
    '',
  ].join('\n');
  const a = analyze([{ path: 'user-data', text }]);
  const got = a.findings.map((f) => `${f.range.start.line + 1} ${f.code} ${where(text, f)}`);
  assert.ok(got.includes('5 flag-removed --cadvisor-port'), got.join('\n'));
  assert.ok(got.includes('7 reserved-resource-unknown memroy'), got.join('\n'));
  for (const f of a.findings) for (const fix of f.fixes ?? []) {
    const after = parseDocument(applyEdits(text, fix.edits, 'user-data'));
    assert.deepEqual(after.errors, []);
  }
});

const embedded = corpusDir('corpus-embedded');
test('corpus-embedded 020 (AL2 user data, sed into bootstrap.sh): its flags are read, the eviction map replacement is found', { skip: !embedded && 'no ../shared/corpus-embedded' }, () => {
  const name = '020-al2-bootstrap-userdata-sed.sh';
  const text = readFileSync(join(embedded!, 'files', name), 'utf8');
  const a = analyze([{ path: name, text }]);
  // It is MIME user data (formats/mime.ts) whose one script part has no #! line: cloud-init cannot execute it
  // (Exec format error), so the sed never runs. That is the one warning, at the part's first line.
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => `${f.range.start.line + 1} ${f.code}`), ['7 userdata-script-no-shebang']);
  const got = a.findings.map((f) => `${f.range.start.line + 1} ${f.code} ${where(text, f)}`);
  // MANIFEST: --eviction-hard replaces the evictionHard map (nodefs/imagefs thresholds lost); all deprecated flags.
  assert.ok(got.includes('7 eviction-defaults-dropped --eviction-hard memory.available<1Gi'), got.join('\n'));
  for (const flag of ['--eviction-hard', '--kube-reserved', '--system-reserved', '--register-with-taints']) assert.ok(got.includes(`7 flag-deprecated ${flag}`), flag);
  assert.equal(a.nodes.length, 1);
  assert.equal(a.nodes[0].allocatable!.lines.memory.kubeReserved, 9000n * 1024n * 1024n);
});

const corpus = corpusDir('corpus');
test('every corpus node file written by a quoted here-document: the same findings, allocatable and quick fixes', { skip: !corpus && 'no ../shared/corpus' }, () => {
  const { files, fixes, left } = carrierProperty(corpus!, {
    host: HOST,
    wrap: (target, text) => `#!/bin/bash\nset -e\ncat > ${target} <<'${D}'\n${text}${D}\nsystemctl restart kubelet\n`,
    read: heredocFiles,
    // A here-document ends every line with a new line, and bash reads a CR as part of the delimiter line.
    cannot: (text) => !text.endsWith('\n') || text.includes('\r') || text.split('\n').includes(D),
  });
  assert.ok(files > 30 && fixes >= 10 && left < 15, `${files} files, ${fixes} fixes, ${left} left out`);
});

test('docs/formats/shell.md: the worked example gives the findings the page names, at its lines', () => {
  const page = readFileSync(join(__dirname, '../../docs/formats/shell.md'), 'utf8');
  const text = page.split('```sh\n')[1].split('```')[0];
  const a = analyze([{ path: 'user-data.sh', text }]);
  assert.deepEqual(a.findings.map((f) => `${f.range.start.line + 1} ${f.code}`), ['9 reservations-missing', '11 eviction-soft-without-grace', '13 payload-not-checked']);
  assert.equal(a.nodes.length, 1);
  assert.equal(a.nodes[0].node.files.length, 2);
});

test('a script written by a cloud-config or a Butane config is a carrier too: its files land at their lines in the outer file', () => {
  const script = [`#!/bin/bash`, `cat > /etc/default/kubelet <<'${D}'`, 'KUBELET_EXTRA_ARGS=--cadvisor-port=0', D, "/etc/eks/bootstrap.sh c --kubelet-extra-args '--kube-reserved=memroy=1Gi'", ''].join('\n');
  const indent = (t: string, n: number) => t.replace(/^(?=.)/gm, ' '.repeat(n));
  const cloud = `#cloud-config\nwrite_files:\n  - path: /usr/local/bin/join.sh\n    permissions: '0755'\n    content: |\n${indent(script, 6)}runcmd:\n  - /usr/local/bin/join.sh\n`;
  const butane = `variant: flatcar\nversion: 1.0.0\nstorage:\n  files:\n    - path: /opt/join.sh\n      contents:\n        inline: |\n${indent(script, 10)}`;
  for (const [path, text, first] of [['user-data', cloud, 5], ['join.bu', butane, 7]] as const) {
    const a = analyze([{ path, text }]);
    const got = a.findings.map((f) => `${f.range.start.line - first + 1} ${f.code} ${where(text, f)}`);
    assert.ok(got.includes('3 flag-removed --cadvisor-port'), `${path}: ${got.join('\n')}`);
    assert.ok(got.includes('5 reserved-resource-unknown memroy'), `${path}: ${got.join('\n')}`);
    for (const f of a.findings) {
      assert.equal(f.file, path);
      for (const fix of f.fixes ?? []) {
        const after = applyEdits(text, fix.edits, path);
        assert.deepEqual(parseDocument(after).errors, []);
        assert.doesNotMatch(after, f.code === 'flag-removed' ? /--cadvisor-port/ : /memroy/, fix.title);
      }
    }
  }
});

test('a here-string (<<<) is no here-document; a backslash-quoted delimiter (<< \\EOF) is a quoted one (bash: no expansion)', () => {
  const text = [
    '#!/bin/bash',
    'grep -q kubelet <<< "$(systemctl list-units)"',
    'cat > /etc/default/kubelet << \\EOF',
    'KUBELET_EXTRA_ARGS=--cadvisor-port=0 --node-ip=$NODE_IP',
    'EOF',
    '',
  ].join('\n');
  const f = analyze([{ path: HOST, text }]).findings;
  assert.deepEqual(f.map((x) => `${x.range.start.line + 1} ${x.code} ${where(text, x)}`), ['4 flag-removed --cadvisor-port']);
});

test('flags given to bootstrap.sh as one unquoted word: read, and fixed in place only with text the word can hold', () => {
  const text = '#!/bin/bash\n/etc/eks/bootstrap.sh c --kubelet-extra-args --kube-reserved=cpu=100m,memroy=1Gi\n';
  const a = analyze([{ path: HOST, text }]);
  const f = a.findings.find((x) => x.code === 'reserved-resource-unknown')!;
  assert.equal(where(text, f), 'memroy');
  assert.equal(applyEdits(text, f.fixes![0].edits, HOST).split('\n')[1], '/etc/eks/bootstrap.sh c --kubelet-extra-args --kube-reserved=cpu=100m,memory=1Gi');
  const payload = a.files.get(HOST)!.embedded![0];
  assert.equal(payload.map.encode('--v=2 --max-pods=10', 0), undefined); // a blank would split the word
  assert.equal(payload.map.encode('memory', 0), 'memory');
});

test('a Go-templated cloud-config: a runcmd here-document gets its template expressions back (an env value holding one is unknown)', () => {
  const text = ['#cloud-config', 'runcmd:', '  - |', `    cat > /etc/default/kubelet <<'${D}'`, '    KUBELET_EXTRA_ARGS=--node-labels={{ .Labels }} --cadvisor-port=0', `    ${D}`, ''].join('\n');
  const a = analyze([{ path: 'user-data', text }]);
  assert.match(a.files.get('user-data')!.embedded![0].text, /--node-labels=\{\{ \.Labels \}\} --cadvisor-port=0/);
  // The rendered value may split into other words (parse/template.ts systemdTemplateSpans): nothing is said about it.
  assert.deepEqual(a.findings.map((f) => `${f.range.start.line + 1} ${f.code} ${where(text, f)}`), []);
});

test('text whose first line is #! is a script, whatever document it holds: an EC2NodeClass userData that writes its NodeConfig with a here-document is no NodeConfig of its own (sixth first-sight batch)', () => {
  const nodeClass = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: custom
spec:
  amiSelectorTerms:
    - id: ami-0123456789abcdef0
  userData: |
    #!/bin/bash
    cat <<EOF > /etc/eks/nodeadm-config.yaml
    apiVersion: node.eks.aws/v1alpha1
    kind: NodeConfig
    spec:
      kubelet:
        config:
          maxPods: 110
    EOF
    nodeadm init -c file:///etc/eks/nodeadm-config.yaml
`;
  assert.equal(detectKind('user-data', '#!/bin/bash\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet: {}\n'), 'shell');
  const a = analyze([{ path: 'ec2nodeclass.yaml', text: nodeClass }]);
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => f.code), []);
  const node = a.nodes.find((n) => n.node.id.endsWith('/etc/eks/nodeadm-config.yaml'));
  assert.ok(node, a.nodes.map((n) => n.node.id).join(', '));
  const maxPods = node.node.settings.get('maxPods');
  assert.equal(maxPods?.kind === 'scalar' ? maxPods.value : undefined, 110);
});
