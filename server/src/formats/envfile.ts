/** An environment file (/etc/default/kubelet, /etc/sysconfig/kubelet, kubeadm-flags.env, EnvironmentFile= targets). */
import { parseEnvFile } from '../parse/systemd/envfile.ts';
import { systemdTemplateSpans } from '../parse/template.ts';
import { withoutDirectives } from './_systemd-template.ts';
import { defineFormat } from './types.ts';
import { SYSTEMD_TEMPLATE_GLOB as T } from '../parse/template.ts';

/**
 * A variable that holds kubelet arguments: one named KUBELET_*ARGS / *OPTS / *FLAGS (`KUBELET_EXTRA_ARGS=`, empty
 * or not), or one whose value starts with a flag (`ARGS="--v=2"`). Other variables that merely name the kubelet
 * (`KUBELET_HOST=10.0.0.1`, `KUBELET_PORT=10250` of an app's settings) make no kubelet of a file.
 */
const ASSIGNMENT = /^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=["']?[ \t]*(--?[A-Za-z])?/gm;
function holdsKubeletArgs(head: string): boolean {
  for (const m of head.matchAll(ASSIGNMENT)) {
    if (m[2]) return true;
    const name = m[1];
    if (name.includes('KUBELET') && (name.includes('ARGS') || name.includes('OPTS') || name.includes('FLAGS'))) return true;
  }
  return false;
}
const ENV_LINE = /^[ \t]*(?:export[ \t]+)?[A-Za-z_][A-Za-z0-9_]*=/m;

/** Files named by EnvironmentFile= are env files whatever their name: does this text have an assignment? */
export function looksLikeEnvFile(text: string): boolean {
  return ENV_LINE.test(text.length > 65536 ? text.slice(0, 65536) : text);
}

export default defineFormat({
  kind: 'envfile',
  rank: 260,
  label: 'environment file',
  byPath: (c) => c.name === 'kubelet' && (c.dir === 'default' || c.dir === 'sysconfig'),
  // Any *.env file may be an EnvironmentFile= of some unit (k3s.service.env, rke2-server.env): unreferenced, it is
  // the kubelet's only if its name says so (kubeadm-flags.env, kubelet.env) or its variables hold kubelet arguments. (A file an EnvironmentFile= of a kubelet unit names is
  // read as an env file whatever this says.)
  byContent: (c) => c.ext === 'env' && (c.lower.includes('kube') || holdsKubeletArgs(c.head)),
  parse(path, text) {
    const bare = withoutDirectives(path, text, false);
    const env = parseEnvFile(path, bare.text);
    const template = systemdTemplateSpans(path, text, env);
    if (template) env.template = bare.note ? { ...template, structureIn: path, ...(bare.branches && { branches: path }) } : template;
    if (bare.note) env.problems.push(bare.note);
    return { env, problems: env.problems };
  },
  comments: (p) => (p.path.endsWith('.json') ? 'none' : 'line'),
  join: { kind: 'standalone', order: 0 },
  systemdLineEnds: false,
  // Templates (`kubelet.env.j2`, Kubespray's `kubelet.env.v1beta1.j2`) are read as the env file they render.
  watch: ['**/*.env', '**/default/kubelet', '**/sysconfig/kubelet', `**/*.env*.${T}`, `**/default/kubelet.${T}`, `**/sysconfig/kubelet.${T}`],
  selector: ['**/default/kubelet', '**/sysconfig/kubelet', '**/*.env', '**/kubeadm-flags.env', `**/*.env*.${T}`, `**/default/kubelet.${T}`, `**/sysconfig/kubelet.${T}`],
  activation: ['**/default/kubelet', '**/sysconfig/kubelet', '**/kubeadm-flags.env'],
});
