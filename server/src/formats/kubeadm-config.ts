/** A kubeadm configuration (apiVersion kubeadm.k8s.io/*), whose kubelet parts are read. */
import { MASTER_ONLY_KEYS, parseConfigFile } from '../parse/config.ts';
import { defineFormat, type Candidate } from './types.ts';

/** At column 0: an indented apiVersion belongs to a document embedded in another one (a kind config's patches). */
const KUBEADM_API = /^["']?apiVersion["']?[ \t]*:[ \t]*["']?kubeadm\.k8s\.io\//m;

const EXTS = new Set(['yaml', 'yml', 'conf', 'config', 'cfg']);

/**
 * A kubeadm 1.10-or-older config named kubeadm* that states neither apiVersion nor kind, which kubeadm then read as a
 * v1alpha1 MasterConfiguration (parse/config.ts legacyMasterConfiguration decides; this only lets it be read).
 */
const ANY_API = /^["']?apiVersion["']?[ \t]*:/m;
const LEGACY_VERSION = /^kubernetesVersion[ \t]*:[ \t]*["']?v?1\.(?:[0-9]|10)(?:\.\d+)?["']?[ \t]*$/m;
const LEGACY_KEY = new RegExp(`^(?:${MASTER_ONLY_KEYS.join('|')})[ \\t]*:`, 'm');
const legacy = (c: Candidate) => c.lower.includes('kubeadm') && !ANY_API.test(c.head) && LEGACY_VERSION.test(c.head) && LEGACY_KEY.test(c.head);

export default defineFormat({
  kind: 'kubeadm-config',
  rank: 140,
  templateNames: true,
  label: 'kubeadm configuration',
  // kubeadm reads its --config file whatever it is called; `kubeadm.config` and `kubeadm.cfg` are names seen in use.
  byContent: (c) => EXTS.has(c.ext) && (KUBEADM_API.test(c.head) || legacy(c)),
  parse(path, text, opts) {
    const config = parseConfigFile(path, text, opts);
    return { config, problems: config.problems };
  },
  comments: (p) => ((p.config?.kubeletConfigs[0]?.format ?? (p.path.endsWith('.json') ? 'json' : 'yaml')) === 'json' ? 'none' : 'trailing'),
  join: { kind: 'standalone', order: 1 },
  watch: ['**/*.yaml', '**/*.yml', '**/*.{yaml,yml,json}.{j2,jinja,jinja2,tpl,tmpl,gotmpl,template,tftpl}', '**/*.tpl'],
  selector: ['**/*.yaml', '**/*.yml', '**/*.{yaml,yml,json}.{j2,jinja,jinja2,tpl,tmpl,gotmpl,template,tftpl}', '**/*.tpl'],
  activation: ['**/kubeadm*.{yaml,yml}'],
});
