/**
 * Files that merely mention kubelet words are no kubelet files (issue #16): a README-like YAML, a Helm values file
 * with `kubelet:` keys, scripts that read the kubelet's logs or config, and each carrier holding only such text. None
 * gets a finding or a node, whatever it is recognised as.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';

const nothing = (path: string, text: string, kind?: string) => {
  assert.equal(detectKind(path, text), kind, `${path} recognised as`);
  const a = analyze([{ path, text }]);
  assert.deepEqual(a.findings.map((f) => `${f.range.start.line + 1} ${f.code} ${f.message}`), [], path);
  assert.equal(a.nodes.length, 0, path);
};

test('YAML that talks about the kubelet (a README-like file, Helm values with kubelet: keys) is not read', () => {
  nothing('docs/notes.yaml', '# How we tune the kubelet\ntitle: kubelet settings\nsteps:\n  - edit /var/lib/kubelet/config.yaml\n  - set kind: KubeletConfiguration fields\n  - systemctl restart kubelet\n');
  nothing('charts/node/values.yaml', 'kubelet:\n  maxPods: 110\n  extraArgs:\n    node-labels: role=worker\n  config:\n    apiVersion: kubelet.config.k8s.io/v1beta1\n    kind: KubeletConfiguration\n    evictionHard:\n      memory.available: 100Mi\n');
  nothing('group_vars/all.yml', 'kubelet_max_pods: 110\nkube_reserved: true\nkubelet_config_extra_args:\n  evictionSoft:\n    memory.available: 500Mi\n');
});

test('a shell script that greps the kubelet\'s logs or reads its config writes nothing: no finding, no node', () => {
  const script = [
    '#!/bin/bash',
    'journalctl -u kubelet --since "1 hour ago" | grep -i "eviction" > /tmp/kubelet-evictions.log',
    'grep -E "maxPods|kubeReserved" /var/lib/kubelet/config.yaml || true',
    'cat /etc/systemd/system/kubelet.service.d/*.conf',
    'cat > /etc/motd <<EOF',
    'This node runs the kubelet on $(hostname)',
    'EOF',
    'systemctl status kubelet',
    '',
  ].join('\n');
  nothing('debug/kubelet-logs.sh', script, 'shell');
});

test('carriers whose files and commands only mention the kubelet: no finding, no node', () => {
  nothing('user-data', '#cloud-config\npackages: [kubelet, kubeadm, kubectl]\nwrite_files:\n  - path: /etc/motd\n    content: |\n      kubelet node, managed by kubeadm\nruncmd:\n  - systemctl enable --now kubelet\n  - journalctl -u kubelet | tail\n', 'cloud-init');
  nothing('worker.bu', 'variant: fcos\nversion: 1.5.0\nstorage:\n  files:\n    - path: /etc/motd\n      contents:\n        inline: kubelet node\n    - path: /usr/local/bin/kubelet-logs\n      mode: 0755\n      contents:\n        inline: |\n          #!/bin/sh\n          journalctl -u kubelet\n', 'butane');
  nothing('worker.ign', JSON.stringify({ ignition: { version: '3.4.0' }, storage: { files: [{ path: '/etc/motd', contents: { source: 'data:,kubelet%20node%0A' } }] } }), 'ignition');
  const mime = 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="//"\n\n--//\nContent-Type: text/x-shellscript\n\n#!/bin/bash\njournalctl -u kubelet > /tmp/kubelet.log\n--//--\n';
  nothing('user-data.txt', mime, 'mime');
});
