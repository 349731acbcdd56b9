/**
 * Which kubelet flags completion offers. `--help` prints the usage and exits (the kubelet never starts), so it is
 * never offered; `--exit-on-lock-contention` without `--lock-file` stops the kubelet ("cannot exit on lock file
 * contention: no lock file specified", kubernetes cmd/kubelet/app/server.go run()), so it is offered only beside one.
 */
const NEVER: ReadonlySet<string> = new Set(['help']);
const ONLY_WITH: Readonly<Record<string, string>> = { 'exit-on-lock-contention': 'lock-file' };

export function offeredFlag(name: string, present: (flag: string) => boolean): boolean {
  if (NEVER.has(name)) return false;
  const needs = ONLY_WITH[name];
  return needs === undefined || present(needs);
}
