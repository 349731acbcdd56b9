import { analyze, type AnalyzeOptions } from '../engine.ts';
import type { SourceFile } from '../model/source.ts';
import { ParseCache } from '../node/parse-cache.ts';
import { MAX_FIX_ROUNDS, withSafeFixes } from '../features/fix-check.ts';
import { filesRead, filesReadText } from '../features/files-read.ts';
import { NEWEST_VERSION } from '../catalog/flags.ts';
import { parseArgs, USAGE, UsageError } from './args.ts';
import { jsonChunks } from './format-json.ts';
import { formatSarif } from './format-sarif.ts';
import { formatText, printable } from './format-text.ts';
import { inScope, pathsToRead, within } from './scope.ts';
import { walk } from './walk.ts';

declare const PACKAGE_VERSION: string;
declare const PACKAGE_HOMEPAGE: string;
const VERSION = typeof PACKAGE_VERSION === 'string' ? PACKAGE_VERSION : '0.0.0-dev';
/** The project's page (package.json `homepage`); the rule pages are its docs/rules/ folder. */
const HOMEPAGE = typeof PACKAGE_HOMEPAGE === 'string' && PACKAGE_HOMEPAGE ? PACKAGE_HOMEPAGE : 'https://github.com/kubelet-config/kubelet-config';
const REPOSITORY = HOMEPAGE.split('#')[0];
const RULE_DOCS = `${REPOSITORY.endsWith('/') ? REPOSITORY.slice(0, -1) : REPOSITORY}/blob/main/docs/rules/`;

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
    files = walk(opts.workspace.length ? pathsToRead(opts.workspace, opts.paths) : opts.paths);
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
  // texts share the parses and node results of the files and nodes a fix leaves alone (the results are the same):
  // the cache holds the original ones and, frozen, keeps none of the fixed texts' (each goes with its analysis).
  const cache = new ParseCache();
  const run = (f: readonly SourceFile[], o: AnalyzeOptions) => analyze(f, o, cache);
  const base = run(files.files, options);
  cache.freeze();
  const whole = withSafeFixes(files.files, options, base, run, (n) =>
    process.stderr.write(`kubelet-lint: ${n} fixes were not checked, so they are not offered: their nodes have more than ${MAX_FIX_ROUNDS} fixable findings each. Apply the others and run again.\n`),
  );
  // The report needs nothing of the cache: what the fix check's analyses parsed can go before the output is built.
  cache.retain(new Set());
  const analysis = opts.workspace.length ? inScope(whole, opts.paths) : whole;
  // (with --workspace, the files of the PATHs only, like the findings and nodes)
  const listedPaths = files.files.map((f) => f.path).filter((p) => !opts.workspace.length || !opts.paths.length || opts.paths.some((x) => within(p, x)));
  const read = opts.format === 'json' || opts.listFiles ? filesRead(whole, listedPaths, opts.workspace.length ? [] : files.skipped) : undefined;
  const listed = opts.listFiles && opts.format === 'text' ? `Files\n${filesReadText(read!).map((l) => `  ${printable(l)}`).join('\n')}\n\n` : '';
  const failed = analysis.findings.some((f) => f.severity === 'error');
  if (opts.format === 'json') {
    // Written as it is made, in blocks of about 64 KiB (a write per diagnostic would be a system call each).
    let block = '';
    for (const chunk of jsonChunks(analysis, read)) {
      block += chunk;
      if (block.length >= 65536) {
        process.stdout.write(block);
        block = '';
      }
    }
    process.stdout.write(block + '\n');
    return failed ? 1 : 0;
  }
  const out =
    opts.format === 'sarif'
      ? formatSarif(analysis, {
          version: VERSION,
          root: process.cwd().split('\\').join('/'),
          ruleDocs: opts.ruleDocsUrl ?? RULE_DOCS,
          texts: new Map(files.files.map((f) => [f.path, f.text])),
          informationUri: HOMEPAGE,
        }) + '\n'
      : listed + formatText(analysis, opts.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR), opts.hints);
  process.stdout.write(out);
  return failed ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
