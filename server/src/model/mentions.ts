/** What a file says about its node's machine, as parsers find it. */
import type { Span } from './range.ts';

/**
 * Instance type names a file gives for its node (`instanceType`, `machineType`, the values of a Karpenter
 * requirement on node.kubernetes.io/instance-type), each with its range; set by a format's parser. The node's
 * capacity then comes from them (node/modelines.ts): a capacity modeline wins over them, they win over the
 * capacity given to the analysis (a setting for the whole workspace).
 */
export interface InstanceTypeMention {
  /** What names them, for messages: "instanceType", "Karpenter requirement node.kubernetes.io/instance-type". */
  readonly what: string;
  readonly names: readonly { readonly name: string; readonly span: Span }[];
  /**
   * The memory the tool that reads the file assumes a machine of that type has, when it is not the table's nominal
   * size (Karpenter subtracts its VM overhead estimate), by lower-cased type name, with why in a few words.
   */
  readonly memoryMiB?: Readonly<Record<string, { readonly mib: number; readonly why: string }>>;
}
