import { analyze, type AnalyzeOptions } from '../engine.ts';
import type { SourceFile } from '../model/source.ts';
import { ParseCache } from '../node/parse-cache.ts';
import { withSafeFixes } from '../features/fix-check.ts';
import { NEWEST_VERSION } from '../catalog/flags.ts';
import { parseArgs, USAGE, UsageError } from './args.ts';
import { formatJson } from './format-json.ts';
import { formatSarif } from './format-sarif.ts';
import { formatText, printable } from './format-text.ts';
import { walk } from './walk.ts';

declare const PACKAGE_VERSION: string;
const VERSION = typeof PACKAGE_VERSION === 'string' ? PACKAGE_VERSION : '0.0.0-dev';

export function main(argv: readonly string[]): number {
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`kubelet-lint: ${e.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (opts.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (opts.version) {
    process.stdout.write(`kubelet-lint ${VERSION} (kubelet catalog up to ${NEWEST_VERSION})\n`);
    return 0;
  }
  let files;
  try {
    files = walk(opts.paths);
  } catch (e) {
    process.stderr.write(`kubelet-lint: ${printable((e as Error).message)}\n`);
    return 2;
  }
  for (const s of files.skipped) process.stderr.write(`kubelet-lint: skipped ${printable(s.path)}: ${s.reason}\n`);
  const options = {
    capacity: opts.capacity,
    capacitySource: opts.capacitySource,
    kubernetesVersion: opts.kubernetesVersion,
    systemdVersion: opts.systemdVersion,
    ruleSeverity: opts.ruleSeverity,
  };
  // The report offers only fixes checked to make nothing worse (features/fix-check.ts). Its analyses of the fixed
  // texts share the parses and node results of the files and nodes a fix leaves alone (the results are the same),
  // the original ones pinned: a group of fixes brings back the original text of the files the group before edited.
  const cache = new ParseCache();
  const run = (f: readonly SourceFile[], o: AnalyzeOptions) => analyze(f, o, cache);
  const base = run(files.files, options);
  cache.pin();
  const analysis = withSafeFixes(files.files, options, base, run);
  const out =
    opts.format === 'json'
      ? formatJson(analysis) + '\n'
      : opts.format === 'sarif'
        ? formatSarif(analysis, VERSION) + '\n'
        : formatText(analysis, opts.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR), opts.hints);
  process.stdout.write(out);
  return analysis.findings.some((f) => f.severity === 'error') ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
