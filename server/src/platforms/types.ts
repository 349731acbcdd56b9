/**
 * A platform: one folder of server/src/platforms, one line in platforms/index.ts. It declares everything the engine
 * needs to know about the tool: its file formats (and their readers), its semantics for the node model
 * (node/platform.ts: the base it writes, how the user's settings merge over it, what it refuses, where its cgroups
 * are, what it computes from the machine), and the rules that hold only for it. ARCHITECTURE.md "Add a platform".
 */
import type { Format } from '../formats/types.ts';
import type { PlatformSemantics } from '../node/platform.ts';
import type { Rule, RuleMeta } from '../rules/types.ts';
import type { SourceFile } from '../model/source.ts';

export interface Platform extends PlatformSemantics {
  /** Its formats, each with the rank recognition tries it at (Format.rank). */
  readonly formats: readonly Format[];
  /** Rules that hold only for it (each one file in its folder and a page in docs/rules/); none: []. */
  readonly rules: readonly Rule[];
  /**
   * Realistic files of it, with mistakes, that between them hold every one of its formats: the fuzz properties
   * (test/fuzz/platforms.test.ts) mutate them, so a new platform is covered without a test of its own.
   */
  readonly examples: readonly SourceFile[];
  /** The codes its readers report themselves (each with a page in docs/rules/); none: []. */
  readonly codes: readonly RuleMeta[];
}

export function definePlatform<P extends Platform>(p: P): P {
  return p;
}
