/**
 * MIME multi-part user data (server/src/parse/mime.ts, formats/mime.ts): parts split at their delimiter lines as
 * RFC 2046 and cloud-init (cloudinit/user_data.py, Python's email.feedparser) split them, read by Content-Type;
 * base64 parts decoded with a place per character.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { readMime } from '../../server/src/parse/mime.ts';
import { hoverAt } from '../../server/src/features/embedded.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { applyEdits } from '../helpers/edits.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { carrierProperty } from '../helpers/carrier-property.ts';
import { heredocFiles } from '../helpers/heredoc.ts';

const mime = (...parts: string[]) => ['MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="==B=="', '', ...parts.flatMap((p) => ['--==B==', p]), '--==B==--', ''].join('\n');
const part = (type: string, body: string, headers = '') => `Content-Type: ${type}\n${headers}\n${body}`;
const at = (f: Finding) => `${f.range.start.line + 1} ${f.code}`;
const word = (text: string, f: Finding) => text.split('\n')[f.range.start.line].slice(f.range.start.character, f.range.end.character);

const SCRIPT = "#!/bin/bash\ncat > /etc/default/kubelet <<'EOF'\nKUBELET_EXTRA_ARGS=--cadvisor-port=0 --max-pod=20\nEOF\n";

test('recognised by its MIME-Version and multipart Content-Type at column 0, whatever the name; not by indented or quoted headers', () => {
  const text = mime(part('text/x-shellscript', SCRIPT));
  for (const name of ['user-data', 'userdata.txt', 'init.sh', 'al2023.tpl', 'x.mime', 'x.yaml']) assert.equal(detectKind(name, text), 'mime', name);
  assert.equal(detectKind('README.md', text), undefined);
  // headers indented (a YAML block holding user data) belong to the carrier around them
  assert.equal(detectKind('x.yaml', 'userData: |\n' + text.replace(/^/gm, '  ')), undefined);
  // a script that writes a MIME file is a script
  assert.equal(detectKind('make.sh', '#!/bin/bash\n' + text + 'kubelet\n'), 'shell');
  // nodeadm reads a message without MIME-Version (net/mail, mime.ParseMediaType); cloud-init would not
  const noVersion = 'Content-Type: multipart/mixed; boundary="//"\n\n--//\nContent-Type: application/node.eks.aws\n\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\n--//--\n';
  assert.equal(detectKind('user-data', noVersion), 'mime');
  assert.notEqual(detectKind('user-data', noVersion.replace('application/node.eks.aws', 'text/x-shellscript')), 'mime');
  // no multipart Content-Type: not a message of parts
  assert.equal(detectKind('user-data', 'MIME-Version: 1.0\nContent-Type: text/plain\n\nhello\n'), undefined);
});

test('parts: a body ends before the line break of the next delimiter; "--B--" ends the message; "--BX" is text', () => {
  const text = 'MIME-Version: 1.0\nContent-Type: multipart/mixed;\n boundary=B\n\npreamble\n--B\nContent-Type: text/plain\n\none\n--BX\n\n--B  \n\n#!/bin/sh\ntwo\n--B--\nepilogue\n--B\nX: y\n\nthree\n';
  const m = readMime(text);
  assert.ok(m.ok);
  assert.deepEqual(m.parts.map((p) => [p.type, text.slice(p.bodyStart, p.bodyEnd)]), [
    ['text/plain', 'one\n--BX\n'],
    // no Content-Type: text/plain (RFC 2046 5.1.3)
    ['text/plain', '#!/bin/sh\ntwo'],
  ]);
});

test('parts: headers end at a blank line, or at the first line that is no header (the body starts there); CRLF lines', () => {
  const text = 'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="a b"\r\n\r\n--a b\r\nContent-Type: text/x-shellscript\r\n#!/bin/bash\r\necho\r\n--a b--\r\n';
  const m = readMime(text);
  assert.ok(m.ok);
  assert.deepEqual(m.parts.map((p) => [p.type, text.slice(p.bodyStart, p.bodyEnd)]), [['text/x-shellscript', '#!/bin/bash\r\necho']]);
  assert.deepEqual(readMime('MIME-Version: 1.0\nContent-Type: multipart/mixed\n\n--x\n'), { ok: false, why: 'its Content-Type names no boundary, so its parts cannot be told apart', at: 18 });
});

test('a message without a boundary is an error at its Content-Type; it never throws', () => {
  const a = analyze([{ path: 'user-data', text: 'MIME-Version: 1.0\nContent-Type: multipart/mixed\n\n--x\n#!/bin/sh\n' }]);
  assert.deepEqual(a.findings.map(at), ['2 config-syntax']);
  assert.equal(a.nodes.length, 0);
});

test('a shell part: its here-document is the file, findings at the part\'s lines, and a fix edits the part in place', () => {
  const text = mime(part('text/x-shellscript; charset="us-ascii"', SCRIPT));
  const a = analyze([{ path: 'user-data', text }]);
  assert.deepEqual(a.findings.map((f) => `${at(f)} ${word(text, f)}`), ['9 flag-removed --cadvisor-port', '9 flag-unknown --max-pod']);
  const fix = a.findings.find((f) => f.code === 'flag-unknown')!.fixes![0];
  assert.equal(applyEdits(text, fix.edits, 'user-data'), text.replace('--max-pod=20', '--max-pods=20'));
  // hover works in a payload of a payload (a unit the script writes, in the MIME part)
  const unit = mime(part('text/x-shellscript', "#!/bin/bash\ncat > /etc/systemd/system/kubelet.service <<'EOF'\n[Service]\nExecStart=/usr/bin/kubelet --max-pods=20\nEOF\n"));
  const h = hoverAt(analyze([{ path: 'user-data', text: unit }]), 'user-data', { line: 9, character: 32 });
  assert.match(JSON.stringify(h?.contents), /maxPods|max-pods/);
  assert.equal(h?.range?.start.line, 9);
});

test('cloud-init decides text/plain and text/x-shellscript parts by their first line: #cloud-config is a cloud-config, #! a script', () => {
  const cloud = "#cloud-config\nwrite_files:\n  - path: /etc/default/kubelet\n    content: |\n      KUBELET_EXTRA_ARGS=--cadvisor-port=0\n";
  for (const type of ['text/x-shellscript', 'text/plain', 'text/cloud-config']) {
    const a = analyze([{ path: 'user-data', text: mime(part(type, cloud)) }]);
    assert.deepEqual(a.findings.map(at), ['11 flag-removed'], type);
  }
  assert.deepEqual(analyze([{ path: 'user-data', text: mime(part('text/plain', SCRIPT)) }]).findings.map(at), ['9 flag-removed', '9 flag-unknown']);
  // a text/plain part that is neither is not run by cloud-init; other types are not the kubelet's
  assert.deepEqual(analyze([{ path: 'user-data', text: mime(part('text/plain', SCRIPT.replace('#!/bin/bash\n', ''))) }]).findings, []);
  assert.deepEqual(analyze([{ path: 'user-data', text: mime(part('text/x-include-url', SCRIPT)) }]).findings, []);
});

test('a script part without #! cannot be run by cloud-init (Exec format error): warned at its first line, fixed by inserting one', () => {
  const text = mime(part('text/x-shellscript', SCRIPT.replace('#!/bin/bash\n', '')));
  const a = analyze([{ path: 'user-data', text }]);
  const w = a.findings.filter((f) => f.code === 'userdata-script-no-shebang');
  assert.deepEqual(w.map((f) => `${at(f)} ${f.severity} ${word(text, f)}`), ["7 userdata-script-no-shebang warning cat > /etc/default/kubelet <<'EOF'"]);
  const fixed = applyEdits(text, w[0].fixes![0].edits, 'user-data');
  assert.equal(fixed, mime(part('text/x-shellscript', SCRIPT)));
  assert.deepEqual(analyze([{ path: 'user-data', text: fixed }]).findings.filter((f) => f.code === 'userdata-script-no-shebang'), []);
  // a Jinja script part is checked past its template line; a cloud-config part needs no #!
  assert.equal(analyze([{ path: 'user-data', text: mime(part('text/x-shellscript', '## template: jinja\n' + SCRIPT)) }]).findings.filter((f) => f.code === 'userdata-script-no-shebang').length, 0);
  assert.equal(analyze([{ path: 'user-data', text: mime(part('text/cloud-config', 'packages: [jq]\n')) }]).findings.length, 0);
});

test('a cloud-config part that is no YAML is said at its line in the MIME file', () => {
  const a = analyze([{ path: 'user-data', text: mime(part('text/cloud-config', '#cloud-config\nwrite_files: [\n')) }]);
  assert.deepEqual(a.findings.map((f) => `${at(f)} ${f.severity}`), ['9 config-syntax error']);
});

test('a nested multipart part is read part by part; a fix must not write a delimiter of any enclosing message', () => {
  const inner = 'Content-Type: multipart/alternative; boundary=in\n\n--in\nContent-Type: text/x-shellscript\n\n' + SCRIPT + '--in--\n';
  const text = mime(inner);
  const a = analyze([{ path: 'user-data', text }]);
  assert.deepEqual(a.findings.map(at), ['12 flag-removed', '12 flag-unknown']);
  const payload = a.payloads!.get('user-data//etc/default/kubelet')!.payload;
  assert.equal(payload.map.encode('--in\n', payload.map.offsets[0]), undefined);
  assert.equal(payload.map.encode('--==B==--\n', payload.map.offsets[0]), undefined);
  assert.equal(payload.map.encode('KEY=1\n', payload.map.offsets[0]), 'KEY=1\n');
});

test('a base64 part is decoded; each finding is on the encoded line that holds it', () => {
  const body = Buffer.from(SCRIPT).toString('base64').match(/.{1,20}/g)!.join('\n');
  const text = mime(part('text/x-shellscript', body + '\n', 'Content-Transfer-Encoding: base64\n'));
  const a = analyze([{ path: 'user-data', text }]);
  assert.deepEqual(a.findings.map((f) => f.code).sort(), ['flag-removed', 'flag-unknown']);
  // The encoded line that holds byte k of the script: 20 base64 characters (15 bytes) per line.
  const lineOfByte = (k: number) => 7 + Math.floor(Math.floor(k / 3) * 4 / 20);
  const f = a.findings.find((x) => x.code === 'flag-unknown')!;
  assert.equal(f.range.start.line, lineOfByte(SCRIPT.indexOf('--max-pod')));
  // a script in base64 is not edited piecemeal
  assert.equal(f.fixes, undefined);
  const bad = analyze([{ path: 'user-data', text: mime(part('application/node.eks.aws', 'not base64!\n', 'Content-Transfer-Encoding: base64\n')) }]);
  assert.deepEqual(bad.findings.map((x) => `${at(x)} ${x.message}`), ['4 payload-not-checked /etc/eks/nodeadm/nodeconfig.yaml is not checked: its base64 content is not valid base64.']);
});

const NODECONFIG = 'apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    flags:\n      - --max-pod=20\n';

test('one base64 NodeConfig part: a quick fix re-encodes the whole part, which decodes to the fixed NodeConfig', () => {
  const body = Buffer.from(NODECONFIG).toString('base64').match(/.{1,76}/g)!.join('\n');
  const text = mime(part('application/node.eks.aws', body + '\n', 'Content-Transfer-Encoding: base64\n'));
  const a = analyze([{ path: 'user-data', text }]);
  const f = a.findings.find((x) => x.code === 'flag-unknown')!;
  assert.ok(f.fixes?.length);
  const after = applyEdits(text, f.fixes![0].edits, 'user-data');
  const m = readMime(after);
  assert.ok(m.ok);
  const p = m.parts[0];
  assert.equal(Buffer.from(after.slice(p.bodyStart, p.bodyEnd), 'base64').toString(), NODECONFIG.replace('--max-pod=', '--max-pods='));
});

test('NodeConfig parts with scripts between them are one node, merged in order; a script\'s drop-in is read too', () => {
  const dropin = "#!/bin/bash\ncat > /etc/systemd/system/kubelet.service.d/90-x.conf <<'EOF'\n[Service]\nEnvironment=A=1\nEOF\n";
  const second = 'apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 30\n';
  const text = mime(part('application/node.eks.aws', NODECONFIG), part('text/x-shellscript', dropin), part('application/node.eks.aws', second));
  const a = analyze([{ path: 'user-data', text }]);
  const nodeadm = a.nodes.find((n) => n.node.id.endsWith('nodeconfig.yaml'))!;
  const maxPods = nodeadm.node.settings.get('maxPods');
  assert.ok(maxPods?.kind === 'scalar' && maxPods.text === '30');
  assert.deepEqual(a.findings.filter((f) => f.code === 'flag-unknown').map(at), ['12 flag-unknown']);
});

test('MIME user data in a Karpenter EC2NodeClass: the same reader, each node class a node of its own', () => {
  const cls = (name: string, flag: string) => [
    'apiVersion: karpenter.k8s.aws/v1',
    'kind: EC2NodeClass',
    `metadata:\n  name: ${name}`,
    'spec:',
    '  amiSelectorTerms:\n    - alias: al2023@latest',
    '  userData: |',
    ...mime(part('application/node.eks.aws', NODECONFIG.replace('--max-pod=20', flag))).split('\n').map((l) => (l ? '    ' + l : l)),
  ].join('\n');
  const text = cls('a', '--max-pod=20') + '---\n' + cls('b', '--max-pods=20');
  const a = analyze([{ path: 'nodeclass.yaml', text }]);
  assert.equal(a.nodes.length, 2);
  const f = a.findings.filter((x) => x.code === 'flag-unknown');
  assert.deepEqual(f.map((x) => word(text, x)), ['max-pod']);
  assert.equal(applyEdits(text, f[0].fixes![0].edits, 'nodeclass.yaml'), text.replace('--max-pod=20', '--max-pods=20'));
});

test('MIME user data that merely runs commands, or mentions the kubelet, gives no finding and no node', () => {
  const texts = [
    mime(part('text/x-shellscript', '#!/bin/bash\nyum install -y iptables-services\njournalctl -u kubelet | grep -i error > /tmp/kubelet.log\n')),
    mime(part('text/cloud-config', '#cloud-config\npackages: [kubelet, kubeadm]\nruncmd:\n  - systemctl restart kubelet\n')),
    mime(part('text/x-shellscript', '#!/bin/bash\ncat > /etc/motd <<EOF\nThis node runs the kubelet $HOSTNAME\nEOF\n')),
  ];
  for (const text of texts) {
    const a = analyze([{ path: 'user-data', text }]);
    assert.deepEqual(a.findings, []);
    assert.equal(a.nodes.length, 0);
  }
});

test('docs/formats/mime.md: the worked example gives the findings the page names, at its lines', () => {
  const page = readFileSync(join(__dirname, '../../docs/formats/mime.md'), 'utf8');
  const text = page.split('```text\n')[1].split('```')[0];
  const a = analyze([{ path: 'user-data', text }]);
  assert.deepEqual(a.findings.map(at), ['12 flag-unknown', '20 reservations-missing', '22 eviction-soft-without-grace', '31 flag-removed']);
  assert.equal(a.nodes.length, 2);
  const typo = a.findings.find((f) => f.code === 'flag-unknown')!;
  assert.equal(applyEdits(text, typo.fixes![0].edits, 'user-data'), text.replace('--max-pod=50', '--max-pods=50'));
});

/** The files of the first text/x-shellscript part's quoted here-documents (a reader independent of the carrier's). */
const partFiles = (text: string) => heredocFiles((text.split('Content-Type: text/x-shellscript\n\n')[1] ?? '').split('\n\n--==B==\n')[0]);

const corpus = corpusDir('corpus');
test('every corpus node file in a MIME script part: the same findings at the mapped lines, allocatable and quick fixes', { skip: !corpus && 'no ../shared/corpus' }, () => {
  const { files, fixes, left } = carrierProperty(corpus!, {
    host: 'nodes/user-data',
    wrap: (target, t) => mime(part('text/x-shellscript', `#!/bin/bash\ncat > ${target} <<'EOF'\n${t}EOF\n`), part('text/cloud-config', '#cloud-config\npackages: [jq]\n')),
    read: partFiles,
    // A here-document ends every line with a new line; a line that starts with the boundary would end the part.
    cannot: (t) => !t.endsWith('\n') || t.includes('\r') || t.split('\n').some((l) => l === 'EOF' || l.startsWith('--==B==')),
  });
  assert.ok(files > 30 && fixes >= 10 && left < 15, `${files} files, ${fixes} fixes, ${left} left out`);
});

// Issue #28 point 8: cloud-init reads multipart parts at any depth (Python's email parser walks the whole tree); below
// the depth this reader goes, the parts are said to be not checked, never dropped silently. Generated depths.
test('MIME nested deeper than the reader goes: payload-not-checked at the deepest container read, not a silent drop', () => {
  const nest = (depth: number, inner: string): string => {
    let body = inner;
    for (let d = depth; d >= 1; d--) body = `Content-Type: multipart/mixed; boundary="L${d}"\n\n--L${d}\n${body}\n--L${d}--\n`;
    return `MIME-Version: 1.0\n${body}`;
  };
  const script = part('text/x-shellscript', SCRIPT);
  for (let depth = 1; depth <= 9; depth++) {
    const a = analyze([{ path: 'user-data', text: nest(depth, script) }]);
    const read = a.findings.some((f) => f.code === 'flag-unknown');
    const said = a.findings.filter((f) => f.code === 'payload-not-checked');
    assert.ok(read !== (said.length === 1), `depth ${depth}: read ${read}, payload-not-checked ${said.length}`);
    if (depth <= 5) assert.ok(read, `depth ${depth} is read`);
  }
  // a deep container that holds nothing for a kubelet is not mentioned
  const quiet = analyze([{ path: 'user-data', text: nest(8, part('text/plain', 'hello\n')) }]);
  assert.deepEqual(quiet.findings.filter((f) => f.code === 'payload-not-checked'), []);
});
