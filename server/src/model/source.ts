/** One file of the workspace as the engine sees it. `path` is the workspace path (POSIX separators). */
export interface SourceFile {
  path: string;
  text: string;
}

export type FileKind =
  | 'unit' // kubelet.service (or any *.service that runs a kubelet)
  | 'dropin' // *.service.d/*.conf
  | 'envfile' // /etc/default/kubelet, /etc/sysconfig/kubelet, kubeadm-flags.env, EnvironmentFile= targets
  | 'kubelet-config' // YAML/JSON with kind: KubeletConfiguration
  | 'kubeadm-config' // YAML with apiVersion kubeadm.k8s.io/*
  | 'containerd'
  | 'docker'
  | 'crio';
