/**
 * Placeholders a carrier's own commands fill in: a `sed` s-command among its commands (cloud-init's `runcmd`, Cluster
 * API's `preKubeadmCommands`) replaces a capitalised word in the files it writes before they are used
 * (`sed -i "s|REPLACE_TOKEN|${TOKEN}|g" /etc/kubernetes/kubeadm-join.yaml`).
 */

/** The capitalised words a `sed` s-command of the text replaces, as a whole-value pattern; undefined when none. */
export function sedPlaceholders(text: string): RegExp | undefined {
  if (!text.includes('sed')) return undefined;
  const words = new Set<string>();
  for (const m of text.matchAll(SED_SUBSTITUTE)) words.add(m[2]);
  if (words.size === 0) return undefined;
  const any = [...words].join('|');
  return new RegExp(`^(?:[^A-Z]*(?:${any}))+[^A-Z]*$`);
}

/** `sed ... s|WORD|` with any of the usual delimiters, the word in capitals (a placeholder's usual spelling). */
const SED_SUBSTITUTE = /\bsed\b[^\n]{0,200}?\bs([|/#,@])([A-Z][A-Z0-9_]{2,})\1/g;

/** Either pattern (both match a whole value). */
export function eitherPattern(a: RegExp | undefined, b: RegExp | undefined): RegExp | undefined {
  return a && b ? new RegExp(`(?:${a.source})|(?:${b.source})`) : a ?? b;
}
