/**
 * Carriers on mutated input: corpus node files wrapped into a Butane config, an Ignition config (percent-encoded
 * and base64 data: URLs, JSON-string units), a shell here-document and MIME user data (plain and base64 parts), then mutated (byte flips, truncation,
 * CRLF, NUL, invalid UTF-8, ...). The engine never throws, keeps every finding inside the carrier, and is
 * deterministic (test/fuzz/props.ts engineProperty).
 */
import { test } from 'node:test';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as G from './gen.ts';
import * as P from './props.ts';
import { corpusDir } from '../helpers/corpus.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 40;
const SEED = 20261201;
const dir = corpusDir('corpus');
const corpus = dir ? readdirSync(join(dir, 'files')).sort().map((name) => ({ name, text: readFileSync(join(dir, 'files', name), 'utf8') })) : [];

const indent = (t: string, n: number) => t.replace(/^(?=.)/gm, ' '.repeat(n));
/** MIME user data of parts (type, extra headers, body), boundary B. */
const mime = (...parts: [string, string, string][]) =>
  'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n' + parts.map(([type, headers, body]) => `--B\nContent-Type: ${type}\n${headers}\n${body}\n`).join('') + '--B--\n';
const script = (p: string, t: string) => `#!/bin/bash\ncat > ${p} <<'EOF'\n${t}EOF\n`;
const WRAPS: readonly [string, (target: string, text: string) => string][] = [
  ['worker.bu', (p, t) => `variant: fcos\nversion: 1.5.0\nstorage:\n  files:\n    - path: ${p}\n      contents:\n        inline: |\n${indent(t, 10)}`],
  ['units.bu', (p, t) => `variant: flatcar\nversion: 1.0.0\nsystemd:\n  units:\n    - name: ${p.slice(1)}\n      contents: ${JSON.stringify(t)}\n`],
  ['pct.ign', (p, t) => JSON.stringify({ ignition: { version: '3.4.0' }, storage: { files: [{ path: p, contents: { source: 'data:,' + encodeURIComponent(t) } }] } }, null, 2)],
  ['b64.ign', (p, t) => JSON.stringify({ ignition: { version: '3.4.0' }, storage: { files: [{ path: p, contents: { source: 'data:;base64,' + Buffer.from(t).toString('base64') } }] } })],
  ['unit.ign', (p, t) => JSON.stringify({ ignition: { version: '3.4.0' }, systemd: { units: [{ name: p.slice(1), contents: t }] } }, null, 1)],
  ['user-data.sh', (p, t) => `#!/bin/bash\ncat > ${p} <<'EOF'\n${t}EOF\n/etc/eks/bootstrap.sh c --kubelet-extra-args '--max-pods=20'\n`],
  ['mime.txt', (p, t) => mime(['text/x-shellscript', '', script(p, t)], ['text/cloud-config', '', `#cloud-config\nwrite_files:\n  - path: ${p}.2\n    content: ${JSON.stringify(t)}\n`])],
  ['b64.mime', (p, t) => mime(['text/x-shellscript', 'Content-Transfer-Encoding: base64\n', Buffer.from(script(p, t)).toString('base64').replace(/.{76}/g, '$&\n')])],
];

test('mutated carriers holding corpus files: no throw, findings inside the carrier, deterministic', { skip: corpus.length === 0 && 'no ../shared/corpus' }, () => {
  fc.assert(
    fc.property(fc.nat(corpus.length - 1), fc.nat(WRAPS.length - 1), G.mutations, (i, w, m) => {
      const [name, wrap] = WRAPS[w];
      const text = wrap(`/${corpus[i]!.name}`, corpus[i]!.text);
      void P.engineProperty([{ path: `n/${name}`, text: G.mutate(Buffer.from(text), m) }]);
    }),
    { numRuns: RUNS * 3, seed: SEED },
  );
});

test('unmutated carriers of every kind, each holding one corpus file: the same properties', { skip: corpus.length === 0 && 'no ../shared/corpus' }, () => {
  for (const c of corpus) for (const [name, wrap] of WRAPS) void P.engineProperty([{ path: `n/${name}`, text: wrap(`/${c.name}`, c.text) }]);
});
