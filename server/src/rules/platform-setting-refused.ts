/**
 * Settings a platform tool refuses. Talos rejects a machine config whose extraConfig sets a field of
 * ProtectedConfigurationFields ("field %q can't be overridden"; siderolabs/talos pkg/machinery/kubelet/kubelet.go,
 * checked in internal/app/machined/pkg/controllers/k8s/kubelet_spec.go prepareExtraConfig) and extraArgs that name
 * a flag it merges with MergeDenied ("extra arg %q is not allowed"; kubelet_spec.go, pkg/argsbuilder); Talos v1.14.
 */
import { finding, type Finding } from '../model/finding.ts';
import type { Rule } from './types.ts';
import type { KubeletConfigDoc } from '../parse/types.ts';

export const TALOS_PROTECTED: ReadonlySet<string> = new Set([
  'apiVersion', 'authentication', 'authorization', 'cgroupRoot', 'kind', 'kubeletCgroups', 'port', 'protectKernelDefaults',
  'resolvConf', 'rotateCertificates', 'systemCgroups', 'staticPodPath', 'seccompDefault',
]);
/**
 * Fields the OpenShift MCO refuses in spec.kubeletConfig ("KubeletConfiguration: %s is not allowed to be set";
 * openshift/machine-config-operator pkg/controller/kubelet-config/helpers.go validateUserKubeletConfig, commit
 * 01d2ca83). memorySwap is refused only for its swapBehavior.
 */
export const OPENSHIFT_REFUSED: ReadonlySet<string> = new Set(['cgroupDriver', 'clusterDNS', 'clusterDomain', 'featureGates', 'staticPodPath', 'failSwapOn']);
/**
 * Keys eksctl refuses in a node group's kubeletExtraConfig ("cannot override %q in kubelet config, as it's critical
 * to eksctl functionality"; eksctl pkg/apis/eksctl.io/v1alpha5/validation.go validateNodeGroupKubeletExtraConfig).
 */
export const EKSCTL_FORBIDDEN: ReadonlySet<string> = new Set(['kind', 'apiVersion', 'address', 'clusterDomain', 'authentication', 'authorization', 'serverTLSBootstrap']);
const TALOS_DENIED_FLAGS = new Set(['bootstrap-kubeconfig', 'kubeconfig', 'container-runtime', 'container-runtime-endpoint', 'config', 'cert-dir']);

export const platformSettingRefused: Rule = {
  id: 'platform-setting-refused',
  summary: 'a kubelet field or flag the platform tool manages itself and refuses to take from you',
  severity: 'error',
  fix: false,
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    if (node.platform?.tool === 'openshift') return openshiftRefused(node.kubeletConfigs);
    if (node.platform?.tool === 'eksctl') return eksctlForbidden(node.kubeletConfigs);
    if (node.platform?.tool !== 'talos') return out;
    for (const doc of node.kubeletConfigs) {
      for (const e of doc.root.entries) {
        if (!TALOS_PROTECTED.has(e.key)) continue;
        out.push(finding('platform-setting-refused', 'error', e.keySpan,
          `Talos refuses ${e.key} in extraConfig: it sets this field itself. It rejects the machine config ("field can't be overridden"); remove the field.`));
      }
    }
    for (const f of node.flags) {
      if (f.from !== 'kubeadm-extra-args' || !TALOS_DENIED_FLAGS.has(f.name)) continue;
      out.push(finding('platform-setting-refused', 'error', f.nameWord.span,
        `Talos refuses the extra argument ${f.name}: it passes this flag to the kubelet itself. It rejects the config ("extra arg is not allowed"); remove it.`));
    }
    return out;
  },
};

function openshiftRefused(docs: readonly KubeletConfigDoc[]): Finding[] {
  const out: Finding[] = [];
  for (const doc of docs) {
    for (const e of doc.root.entries) {
      const swap = e.key === 'memorySwap' && e.value.kind === 'map' ? e.value.entries.find((x) => x.key === 'swapBehavior') : undefined;
      if (!OPENSHIFT_REFUSED.has(e.key) && !swap) continue;
      const what = swap ? 'memorySwap.swapBehavior' : e.key;
      const why = e.key === 'featureGates' ? ' Kubelet gates come from the cluster FeatureGate resource.' : '';
      out.push(finding('platform-setting-refused', 'error', (swap ?? e).keySpan,
        `OpenShift refuses ${what} in spec.kubeletConfig. The MCO fails the whole KubeletConfig ("${what} is not allowed to be set").${why}`));
    }
  }
  return out;
}

function eksctlForbidden(docs: readonly KubeletConfigDoc[]): Finding[] {
  const out: Finding[] = [];
  for (const doc of docs) {
    for (const e of doc.root.entries) {
      if (!EKSCTL_FORBIDDEN.has(e.key)) continue;
      out.push(finding('platform-setting-refused', 'error', e.keySpan,
        `eksctl refuses ${e.key} in kubeletExtraConfig and stops. It says "cannot override, as it's critical to eksctl functionality".`));
    }
  }
  return out;
}
