---
apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  cluster:
    name: ${cluster_name}
    apiServerEndpoint: ${cluster_endpoint}
    certificateAuthority: ${cluster_auth_base64}
    cidr: ${cluster_service_cidr}
  kubelet:
    flags:
      - --node-labels=${node_labels}
      - --register-with-taints=${node_taints}
%{ if single_process_oom_kill == true }
    config:
      singleProcessOOMKill: true
%{ endif }
%{ if discard_unpacked_layers == false }
  containerd:
    config: |
      [plugins."io.containerd.grpc.v1.cri".containerd]
      discard_unpacked_layers = false
%{ endif }
