import { analyze } from '../engine.ts';
import { withSafeFixes } from '../features/fix-check.ts';
import { filesRead, filesReadText } from '../features/files-read.ts';
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
  // The report offers only fixes checked to make nothing worse (features/fix-check.ts).
  const analysis = withSafeFixes(files.files, options, analyze(files.files, options), analyze);
  const read = opts.format === 'json' || opts.listFiles ? filesRead(analysis, files.files.map((f) => f.path), files.skipped) : undefined;
  const listed = opts.listFiles && opts.format === 'text' ? `Files\n${filesReadText(read!).map((l) => `  ${printable(l)}`).join('\n')}\n\n` : '';
  const out =
    opts.format === 'json'
      ? formatJson(analysis, read) + '\n'
      : opts.format === 'sarif'
        ? formatSarif(analysis, VERSION) + '\n'
        : listed + formatText(analysis, opts.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR), opts.hints);
  process.stdout.write(out);
  return analysis.findings.some((f) => f.severity === 'error') ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
