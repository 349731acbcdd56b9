/**
 * What the allocatable view and the status bar item show, as strings: the
 * view's whole HTML page (rendered here, in the extension host, so that the
 * webview runs no script) and the status bar text and tooltip. No `vscode`
 * import, so that unit tests can render it.
 */
import type { AllocatablePart, AllocatableResource, AllocatableResponse, NodeAllocatable, PartKind } from '../../server/src/features/allocatable-data.ts';

export interface RenderOptions {
  /** Allows the one inline <style> element; a fresh random value per panel. */
  nonce: string;
  /** Shows a path as the user knows it (relative to the workspace). */
  label?: (path: string) => string;
  /** Whether `command:` links work in the webview (enableCommandUris). */
  commandLinks?: boolean;
}

export const PART_LABELS: Record<PartKind, string> = {
  'kube-reserved': 'kube-reserved',
  'system-reserved': 'system-reserved',
  'eviction-hard': 'hard eviction',
  hugepages: 'huge pages',
  allocatable: 'allocatable',
};

const SETTINGS_LINK = 'command:workbench.action.openSettings?' + encodeURIComponent(JSON.stringify(['kubeletConfig.nodeCapacity']));

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Replaces the node's absolute paths inside a server sentence ("modeline in /x/y line 4") with their labels. */
function relabel(text: string, node: NodeAllocatable, label: (p: string) => string): string {
  let out = text;
  for (const f of [...node.files].sort((a, b) => b.length - a.length)) out = out.split(f).join(label(f));
  return out;
}

const STYLE = `
:root { color-scheme: light dark; }
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground);
  background: var(--vscode-editor-background); padding: 0 24px 24px; line-height: 1.45; max-width: 1100px; }
h1 { font-size: 1.5em; font-weight: 600; margin: 18px 0 4px; }
h2 { font-size: 1.05em; font-weight: 600; margin: 0; }
code { font-family: var(--vscode-editor-font-family); }
.meta, .note, small { color: var(--vscode-descriptionForeground); }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; list-style: none; padding: 0; margin: 14px 0; }
.swatch { display: inline-block; width: 14px; height: 14px; margin-right: 6px; vertical-align: -2px; }
.swatch, .bar { border: 1px solid var(--vscode-contrastBorder, var(--vscode-panel-border, transparent)); }
.resource { margin: 18px 0; }
.headline { display: flex; justify-content: space-between; flex-wrap: wrap; gap: 4px 16px; margin-bottom: 6px; }
.bar { display: flex; position: relative; height: 26px; background: var(--vscode-editorWidget-background); }
.seg { flex: 0 0 auto; height: 100%; box-sizing: border-box; }
.seg + .seg { border-left: 2px solid var(--vscode-editor-background); }
/* Each kind has its own pattern as well as its own colour. */
.kube-reserved { background-color: var(--vscode-charts-blue); }
.system-reserved { background-color: var(--vscode-charts-purple);
  background-image: repeating-linear-gradient(45deg, transparent 0 5px, rgba(255, 255, 255, 0.4) 5px 7px); }
.eviction-hard { background-color: var(--vscode-charts-red);
  background-image: repeating-linear-gradient(-45deg, transparent 0 3px, rgba(0, 0, 0, 0.35) 3px 5px); }
.hugepages { background-color: var(--vscode-charts-yellow);
  background-image: radial-gradient(rgba(0, 0, 0, 0.4) 1px, transparent 1.5px); background-size: 5px 5px; }
.allocatable { background-color: var(--vscode-charts-green); }
.capacity-mark { position: absolute; top: -5px; bottom: -5px; border-left: 2px dashed var(--vscode-editorError-foreground); }
.warning { color: var(--vscode-editorWarning-foreground); }
.help { border-left: 3px solid var(--vscode-textLink-foreground); background: var(--vscode-textBlockQuote-background); padding: 6px 14px; margin: 14px 0; }
a { color: var(--vscode-textLink-foreground); }
table { border-collapse: collapse; margin: 20px 0 8px; }
caption { text-align: left; font-weight: 600; padding-bottom: 6px; }
th, td { padding: 5px 10px; text-align: right; vertical-align: top; border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); }
th:first-child { text-align: left; }
th, td { white-space: nowrap; }
.figures { overflow-x: auto; }
thead th { font-weight: 600; }
td small { display: block; }
.node + .node { margin-top: 36px; border-top: 1px solid var(--vscode-panel-border, transparent); }
`;

function page(body: string, nonce: string, extraStyle = ''): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Node Allocatable</title>
<style nonce="${nonce}">${STYLE}${extraStyle}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function legend(kinds: PartKind[]): string {
  const items = kinds.map((k) => `<li><span class="swatch ${k}" aria-hidden="true"></span>${PART_LABELS[k]}</li>`);
  return `<ul class="legend" aria-label="Legend">${items.join('')}</ul>`;
}

/** "28.51 GiB (30614224896 bytes)" as the rounded figure over the exact one, so that table columns stay narrow. */
function amountCell(text: string): string {
  const m = /^(.*) \((\d+ bytes)\)$/.exec(text);
  return m ? `${escapeHtml(m[1])}<small>${m[2]}</small>` : escapeHtml(text);
}

function partText(p: AllocatablePart): string {
  return `${amountCell(p.text)}${p.note ? `<small>${escapeHtml(p.note)}</small>` : ''}`;
}

/** The bar of one resource; its segment widths go into `css` (inline style attributes would break the CSP). */
function bar(r: AllocatableResource, id: string, css: string[]): string {
  const shown = r.parts.filter((p) => (p.percent ?? 0) > 0);
  const segs = shown.map((p) => {
    css.push(`#${id} .seg.${p.kind} { width: ${p.percent}%; }`);
    return `<span class="seg ${p.kind}"></span>`;
  });
  if (r.capacityPercent !== undefined) {
    css.push(`#${id} .capacity-mark { left: ${r.capacityPercent}%; }`);
    segs.push('<span class="capacity-mark"></span>');
  }
  const spoken = r.parts.map((p) => `${PART_LABELS[p.kind]} ${p.text}`).join(', ');
  const over = r.overcommitted ? '; the reservations exceed the capacity, so allocatable is 0' : '';
  const aria = `${r.resource}: capacity ${r.capacityText}: ${spoken}${over}`;
  return `<div class="bar" id="${id}" role="img" aria-label="${escapeHtml(aria)}">${segs.join('')}</div>`;
}

function resourceSection(r: AllocatableResource, id: string, css: string[]): string {
  const head = `<div class="headline"><h2>${r.resource}</h2><span>allocatable <strong>${escapeHtml(r.allocatableText)}</strong> of ${escapeHtml(r.capacityText)}</span></div>`;
  const over = r.overcommitted
    ? `<p class="warning">The reservations and the eviction threshold add up to more than the capacity (dashed line): the kubelet reports 0.</p>`
    : '';
  return `<section class="resource" aria-labelledby="${id}-h">${head.replace('<h2>', `<h2 id="${id}-h">`)}${bar(r, id, css)}${over}</section>`;
}

function table(n: NodeAllocatable): string {
  const hasHuge = n.resources.some((r) => r.parts.some((p) => p.kind === 'hugepages'));
  const cols: PartKind[] = ['kube-reserved', 'system-reserved', 'eviction-hard', ...(hasHuge ? (['hugepages'] as PartKind[]) : []), 'allocatable'];
  const head = ['resource', 'capacity', ...cols.map((k) => PART_LABELS[k])].map((h) => `<th scope="col">${h}</th>`).join('');
  const rows = n.resources.map((r) => {
    const cells = cols.map((k) => {
      const p = r.parts.find((x) => x.kind === k);
      if (p) return `<td>${k === 'allocatable' ? `<strong>${partText(p)}</strong>` : partText(p)}</td>`;
      if (k === 'eviction-hard' && r.resource === 'cpu') return '<td><small>none for cpu</small></td>';
      return '<td></td>';
    });
    // On a line of its own under the resource name (run together they read "cpuno node capacity given").
    const missing = r.missing && r.resource !== 'pods' ? `<br><small>${escapeHtml(r.missing)}</small>` : '';
    return `<tr><th scope="row">${r.resource}${missing}</th><td>${amountCell(r.capacityText)}</td>${cells.join('')}</tr>`;
  });
  return `<div class="figures"><table><caption>Exact figures</caption><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function capacityHelp(commandLinks: boolean, problem?: string): string {
  const setting = commandLinks ? `<a href="${SETTINGS_LINK}"><code>kubeletConfig.nodeCapacity</code></a>` : '<code>kubeletConfig.nodeCapacity</code>';
  const lead = problem
    ? `<p><strong>Invalid setting</strong>: ${setting} cannot be read (${escapeHtml(problem)}), so only the reservations are shown.</p>`
    : '<p><strong>No capacity is known for this node</strong>, so only the reservations are shown.</p>';
  return `<div class="help">${lead}
<p>Set the ${setting} setting (e.g. <code>cpu=16,memory=64Gi,ephemeral-storage=200Gi</code> or an instance type such as <code>m5.xlarge</code>),
or add a line to any file of the node; it wins over the setting:</p>
<p><code># kubelet-lint: capacity cpu=16,memory=64Gi,ephemeral-storage=200Gi</code></p></div>`;
}

/** Allocatable on each candidate instance type, when the node's files name several. */
function candidatesTable(n: NodeAllocatable): string {
  if (!n.candidates?.length) return '';
  const rows = n.candidates.map(
    (c) => `<tr><th scope="row">${escapeHtml(c.name)}</th><td>${escapeHtml(c.cpu)}</td><td>${escapeHtml(c.memory)}</td><td>${escapeHtml(c.pods)}</td></tr>`,
  );
  return `<div class="figures"><table><caption>Allocatable per candidate instance type (the figures above are for ${escapeHtml(n.candidates[0]!.name)})</caption>
<thead><tr><th>instance type</th><th>cpu</th><th>memory</th><th>pods</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function nodeSection(n: NodeAllocatable, index: number, opts: Required<RenderOptions>, css: string[]): string {
  const label = opts.label;
  const meta = [`kubelet ${escapeHtml(n.kubernetesVersion)}${n.kubernetesVersionSource ? ` (from ${escapeHtml(relabel(n.kubernetesVersionSource, n, label))})` : ''}`];
  if (n.capacitySource) meta.push(`capacity from ${escapeHtml(relabel(n.capacitySource, n, label))}`);
  const files = n.files.length > 1
    ? `<details><summary>${n.files.length} files</summary><ul>${n.files.map((f) => `<li><code>${escapeHtml(label(f))}</code></li>`).join('')}</ul></details>`
    : '';
  const pods = n.resources.find((r) => r.resource === 'pods');
  const bars = n.hasCapacity
    ? n.resources.filter((r) => r.resource !== 'pods' && r.parts.some((p) => p.percent !== undefined)).map((r) => resourceSection(r, `n${index}-${r.resource}`, css)).join('')
    : capacityHelp(opts.commandLinks, n.capacityProblem);
  const notes = n.notes.filter((t) => !t.startsWith('Set the node capacity') && !t.startsWith('The kubeletConfig.nodeCapacity setting is invalid')).map((t) => `<li>${escapeHtml(relabel(t, n, label))}</li>`);
  return `<section class="node" aria-label="Node ${escapeHtml(label(n.node))}">
<h1>Node Allocatable</h1>
<p class="meta">Node <code>${escapeHtml(label(n.node))}</code> · ${meta.join(' · ')}</p>
${startFailureText(n, label) ? `<p class="warning" role="alert"><strong>${escapeHtml(startFailureText(n, label)!)}</strong></p>` : ''}
${files}
${n.hasCapacity ? legend(['kube-reserved', 'system-reserved', 'eviction-hard', ...(n.resources.some((r) => r.parts.some((p) => p.kind === 'hugepages')) ? (['hugepages'] as PartKind[]) : []), 'allocatable']) : ''}
${bars}
${pods ? `<p>pods: <strong>${escapeHtml(pods.allocatableText)}</strong> <span class="note">(maxPods; podsPerCore can lower it)</span></p>` : ''}
${table(n)}
${candidatesTable(n)}
<ul class="note">${notes.join('')}</ul>
</section>`;
}

/** The whole page: the nodes of the followed file, or a message when there are none. */
export function renderAllocatable(data: AllocatableResponse | undefined, options: RenderOptions): string {
  const opts: Required<RenderOptions> = { label: (p) => p, commandLinks: false, ...options };
  if (!data || !data.nodes.length) {
    const msg = data
      ? 'No kubelet node reads this file.'
      : 'Open a kubelet unit, drop-in, environment file or KubeletConfiguration to see its node’s allocatable resources.';
    return page(`<h1>Node Allocatable</h1><p class="meta">${escapeHtml(msg)}</p>`, opts.nonce);
  }
  const css: string[] = [];
  const body = data.nodes.map((n, i) => nodeSection(n, i, opts, css)).join('\n');
  return page(body, opts.nonce, css.join('\n'));
}

// ---------------------------------------------------------------------------
// Status bar

export function statusText(n: NodeAllocatable): string {
  // A node whose kubelet would not start has no allocatable at all: the item says so (and is error-coloured, allocatable.ts).
  return `$(server) ${n.summary} · kubelet ${n.kubernetesVersion}${n.refusesToStart?.length ? ' refuses to start' : ''}`;
}

/** "The kubelet refuses to start: <why> (<where>)", and how many more reasons; undefined when it starts. */
export function startFailureText(n: NodeAllocatable, label: (p: string) => string = (p) => p): string | undefined {
  const f = n.refusesToStart;
  if (!f?.length) return undefined;
  const more = f.length > 1 ? `, and ${f.length - 1} more` : '';
  return `The kubelet of this node refuses to start: ${relabel(f[0].message, n, label)} (${relabel(f[0].at, n, label)})${more}. The figures apply once it starts.`;
}

/** Markdown for the status bar tooltip: every resource of the node. */
export function statusTooltip(n: NodeAllocatable, label: (p: string) => string = (p) => p): string {
  const rows = n.resources.map((r) => `| ${r.resource} | ${r.allocatableText.replace(/ \(.*\)$/, '')} | ${r.capacityText} |`);
  const lines = [`**Node Allocatable** of \`${label(n.node)}\``, ''];
  const refuses = startFailureText(n, label);
  if (refuses) lines.push(`**${refuses}**`, '');
  lines.push('| | allocatable | capacity |', '|---|--:|--:|', ...rows, '');
  if (n.capacityProblem) lines.push(`The \`kubeletConfig.nodeCapacity\` setting is invalid: ${n.capacityProblem}.`, '');
  else if (!n.hasCapacity) lines.push('No capacity known: set `kubeletConfig.nodeCapacity` or a `# kubelet-lint: capacity ...` line.', '');
  lines.push(`Kubernetes ${n.kubernetesVersion}${n.kubernetesVersionSource ? `, from ${relabel(n.kubernetesVersionSource, n, label)}` : ''}.`, '');
  lines.push('Click to open the allocatable view.');
  return lines.join('\n');
}
