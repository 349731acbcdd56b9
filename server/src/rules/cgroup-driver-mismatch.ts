/**
 * The kubelet and the container runtime must drive cgroups the same way.
 * Before 1.31 a mismatch leaves pods failing to start (or, with dockershim,
 * the kubelet refusing to start). KubeletCgroupDriverFromCRI (beta, on by
 * default in 1.31, GA 1.34) makes the kubelet ask the runtime and use its
 * answer, but runtimes too old to answer leave the kubelet on its own value.
 */
import { finding, type Finding } from '../model/finding.ts';
import { compareVersions } from '../catalog/flags.ts';
import { cgroupDriver, stringSetting } from '../node/read.ts';
import type { NodeModel } from '../node/model.ts';
import { describe } from '../node/provenance.ts';
import type { Rule } from './types.ts';
import { oneFix, replaceWord } from './lib/edit.ts';

export const cgroupDriverMismatch: Rule = {
  id: 'cgroup-driver-mismatch',
  summary: "the kubelet's cgroup driver differs from the container runtime's",
  severity: ['error', 'warning'],
  fix: true,
  fixDoes: 'sets the kubelet\'s `cgroupDriver` to the runtime\'s driver, or (on the runtime\'s finding) the runtime\'s setting to the kubelet\'s',
  area: 'cgroup-driver',
  run({ node }) {
    const out: Finding[] = [];
    const kubelet = cgroupDriver(node);
    if (kubelet.value !== 'systemd' && kubelet.value !== 'cgroupfs') return out; // cgroup-driver-invalid's job
    const fromCri = compareVersions(node.kubernetesVersion, '1.31') >= 0;
    const severity = fromCri ? 'warning' : 'error';
    const kubeletWhere = kubelet.setting ? describe(kubelet.setting.from) : kubelet.unset ?? 'the default (cgroupfs)';
    for (const rt of relevantRuntimes(node)) {
      if (rt.driver === kubelet.value) continue;
      const consequence = fromCri
        ? `From 1.31 the kubelet asks the runtime for its driver and follows it, so this only bites with a runtime that does not answer that call (containerd before 2.0, for example), where the kubelet keeps "${kubelet.value}" and pods fail to start. Make them agree anyway.`
        : `With Kubernetes ${node.kubernetesVersion} the kubelet does not ask the runtime: pod sandboxes fail to start, or the node runs two cgroup managers fighting over the same hierarchy.`;
      const rtWhere = `${rt.runtime} (${rt.detail}${rt.explicit ? '' : ', its default'})`;
      const kubeletSpan = kubelet.setting?.kind === 'scalar' ? kubelet.setting.span : undefined;
      if (kubeletSpan) {
        out.push(
          finding(
            'cgroup-driver-mismatch',
            severity,
            kubeletSpan,
            `The kubelet's cgroup driver "${kubelet.value}" differs from ${rt.runtime}'s "${rt.driver}". The kubelet has it from ${kubeletWhere}; ${rtWhere} uses "${rt.driver}". ${consequence}`,
            {
              related: [{ span: rt.span, message: `${rt.runtime} uses "${rt.driver}" here` }],
              // On a host systemd runs, both should use systemd (kubernetes.io "Configuring a cgroup driver": cgroupfs
              // there means two cgroup managers): the fix that moves the kubelet to cgroupfs is not offered.
              ...(rt.driver === 'cgroupfs' && systemdHost(node) ? {} : oneFix(`Set the kubelet's cgroup driver to "${rt.driver}"`, replaceWord(kubeletSpan, kubelet.value, rt.driver))),
            },
          ),
        );
      }
      out.push(
        finding(
          'cgroup-driver-mismatch',
          severity,
          rt.span,
          `${rt.runtime}'s cgroup driver "${rt.driver}" differs from the kubelet's "${kubelet.value}". ${rt.runtime} uses "${rt.driver}"${rt.explicit ? '' : ' (its default: nothing here sets it)'}, the kubelet of ${node.id} uses "${kubelet.value}" (${kubeletWhere}). ${consequence}`,
          {
            related: kubeletSpan ? [{ span: kubeletSpan, message: `the kubelet's cgroup driver is set here` }] : undefined,
            // The other way round: align the runtime with the kubelet, in the runtime's own syntax.
            fixes: rt.value ? [{ title: `Set ${rt.runtime}'s cgroup driver to "${kubelet.value}"`, edits: [{ file: rt.value.span.file, range: rt.value.span.range, newText: runtimeValue(rt.value.form, kubelet.value) }] }] : undefined,
          },
        ),
      );
    }
    return out;
  },
};

/** Whether systemd manages the host's cgroups: the node runs from a systemd unit, or its platform's cgroups are slices. */
function systemdHost(node: NodeModel): boolean {
  return node.service !== undefined || node.platformSpec?.cgroups.kind === 'systemd';
}

/** With a runtime endpoint set, only the runtime it names matters. */
function relevantRuntimes(node: NodeModel): NodeModel['runtimes'] {
  const endpoint = stringSetting(node, 'containerRuntimeEndpoint');
  if (!endpoint) return node.runtimes;
  const wants = (r: string) =>
    r === 'docker' ? /docker/.test(endpoint) : r === 'crio' ? /crio/.test(endpoint) : /containerd/.test(endpoint);
  const named = node.runtimes.filter((r) => wants(r.runtime));
  return named.length > 0 ? named : node.runtimes;
}

function runtimeValue(form: 'toml-bool' | 'toml-string' | 'json-exec-opt', driver: string): string {
  if (form === 'toml-bool') return driver === 'systemd' ? 'true' : 'false';
  if (form === 'toml-string') return JSON.stringify(driver);
  return JSON.stringify(`native.cgroupdriver=${driver}`);
}
