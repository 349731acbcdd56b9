/** What Karpenter's carrier tells its own code about a node (PlatformInfo.facts). */
export type AmiFamily = 'AL2' | 'AL2023' | 'Bottlerocket' | 'Windows' | 'Custom';

export interface KarpenterFacts {
  /**
   * The EC2NodeClass's AMI family (amiFamily, or the family of an amiSelectorTerms alias), which decides the pod count
   * Karpenter sizes kube-reserved memory with; undefined when the file does not say.
   */
  amiFamily?: AmiFamily;
  /** spec.kubelet maxPods as written (an integer). */
  maxPods?: number;
}
