/**
 * The finding codes the file readers and the node builder report themselves:
 * they have no Rule object, but the same metadata, so that their pages, the
 * rules index and `--rule ID=SEVERITY` treat them like any rule.
 */
import type { RuleMeta } from './types.ts';

const P = 'parsers' as const;

/** The core's codes; each platform adds its own (Platform.codes, registry.ts PARSER_CODES). */
export const CORE_PARSER_CODES: readonly RuleMeta[] = [
  { id: 'unit-syntax', area: P, severity: 'warning', fix: false, summary: 'a unit line systemd skips: assignment outside a section, no `=`, or no key' },
  { id: 'unit-section-header', area: P, severity: 'error', fix: false, summary: 'a malformed `[Section]` header: systemd refuses the whole file' },
  { id: 'unit-line-too-long', area: P, severity: 'error', fix: false, summary: 'a unit line (or continued line) of 1 MiB or more: systemd refuses the file' },
  { id: 'environment-syntax', area: P, severity: 'warning', fix: false, summary: 'unbalanced quotes or a bad escape in `Environment=`: the rest of the line is dropped' },
  { id: 'environment-specifier', area: P, severity: 'warning', fix: false, summary: 'an unknown `%` specifier in `Environment=`: that assignment is ignored' },
  { id: 'environment-invalid', area: P, severity: 'warning', fix: false, summary: 'a word of `Environment=` that is not a valid `NAME=value`: it is ignored' },
  { id: 'envfile-syntax', area: P, severity: 'warning', fix: false, summary: 'an environment file line without `=`: systemd ignores it' },
  { id: 'envfile-invalid-name', area: P, severity: 'warning', fix: false, summary: 'an invalid variable name in an environment file (often `export NAME=`): ignored' },
  { id: 'envfile-unterminated-quote', area: P, severity: 'warning', fix: false, summary: 'an unclosed quote in an environment file swallows the rest of the file' },
  { id: 'envfile-comment-continuation', area: P, severity: 'warning', fix: false, summary: 'a comment ending in `\\` swallows the next line before systemd 254, not after' },
  { id: 'envfile-invalid-text', area: P, severity: 'error', fix: false, summary: 'a non-character in an environment file: systemd refuses the whole file' },
  { id: 'exec-syntax', area: P, severity: ['error', 'warning'], fix: false, summary: 'unbalanced quoting in the `ExecStart=` command line' },
  { id: 'exec-path', area: P, severity: ['error', 'warning'], fix: false, summary: 'the `ExecStart=` program is not an absolute path or a plain file name' },
  { id: 'exec-specifier', area: P, severity: ['error', 'warning'], fix: false, summary: 'an unknown `%` specifier in the `ExecStart=` command line' },
  { id: 'exec-escape', area: P, severity: 'warning', fix: false, summary: 'an unknown backslash escape in the `ExecStart=` command line (kept verbatim)' },
  { id: 'exec-multiple', area: P, severity: 'information', fix: false, summary: '`ExecStart=` holds several commands separated by `;`' },
  { id: 'kubelet-args-not-checked', area: P, severity: 'information', fix: false, summary: 'more than 10,000 kubelet arguments: the analysis checks the first 10,000 and names the rest' },
  { id: 'exec-argv-too-long', area: P, severity: 'error', fix: false, summary: "the expanded command line passes execve()'s limits (2 MiB in all, 128 KiB per argument)" },
  { id: 'config-syntax', area: P, severity: ['error', 'warning', 'information'], fix: false, summary: 'the KubeletConfiguration or kubeadm file cannot be decoded (YAML/JSON syntax), or go-yaml silently drops its end' },
  {
    id: 'platform-config-invalid', area: P, severity: ['error', 'warning'], fix: true,
    fixDoes: "renames a key to the platform's own spelling, or writes the value the platform takes",
    summary: "a platform configuration the platform's own tool rejects (its value ranges, settings given twice), or a key it drops",
  },
  { id: 'kubeadm-join-ignores-config', area: P, severity: 'warning', fix: false, summary: "a KubeletConfiguration in a kubeadm join file: kubeadm join reads only the JoinConfiguration" },
  { id: 'config-document-ignored', area: P, severity: 'warning', fix: false, summary: 'a config file the kubelet reads holds more than one document: it reads the first, silently' },
  { id: 'config-field-duplicate', area: P, severity: ['warning', 'error'], fix: false, summary: 'a key given twice in one mapping: the last one silently wins, or the file\'s reader refuses it' },
  {
    id: 'config-kind-invalid', area: P, severity: 'error', fix: true,
    fixDoes: 'for a wrong API group, sets `apiVersion` to `kubelet.config.k8s.io/v1beta1`',
    summary: 'a KubeletConfiguration with a missing, unserved or wrong-group `apiVersion`',
  },
  { id: 'config-kubeadm-api-version', area: P, severity: ['error', 'information'], fix: false, summary: 'a kubeadm config on an API version current kubeadm refuses (information when no version is stated)' },
  {
    id: 'config-kubeadm-extra-args', area: P, severity: 'error', fix: true,
    fixDoes: 'for a non-string value, quotes it',
    summary: '`kubeletExtraArgs` in the wrong shape for the kubeadm API version',
  },
  { id: 'config-placeholder', area: P, severity: ['warning', 'information'], fix: false, summary: 'a config value that looks like an unsubstituted template placeholder (information where nothing says the file is used as written)' },
  { id: 'config-template', area: P, severity: 'information', fix: false, summary: 'a template\'s directives decide the document\'s structure: it is checked on its literal lines' },
  { id: 'config-alias', area: P, severity: 'error', fix: false, summary: 'a YAML alias that contains itself or expands excessively' },
  { id: 'runtime-config-invalid', area: P, severity: 'error', fix: false, summary: 'a containerd, CRI-O or Docker config its runtime cannot load' },
  { id: 'reference-unresolved', area: P, severity: 'information', fix: false, summary: 'an `EnvironmentFile=`, `--config` or `--config-dir` target, or a file a platform config names (a patch file), not in the workspace' },
  { id: 'modeline-invalid', area: P, severity: 'warning', fix: false, summary: 'a `kubelet-lint:` modeline that cannot be read' },
  { id: 'kubernetes-version-newer', area: P, severity: 'information', fix: false, summary: 'a file states a Kubernetes version newer than the data of this tool, which checks it as the newest it knows' },
  { id: 'instance-type-unknown', area: P, severity: 'warning', fix: false, summary: 'an instance type name the capacity table does not know' },
  { id: 'payload-not-checked', area: P, severity: 'information', fix: false, summary: 'a file a carrier writes, encoded or templated, that is not read' },
  {
    id: 'userdata-script-no-shebang',
    area: P,
    severity: 'warning',
    fix: true,
    fixDoes: 'inserts `#!/bin/bash` as the part\'s first line',
    summary: 'a script part of MIME user data without a `#!` line: cloud-init cannot run it',
  },
];
