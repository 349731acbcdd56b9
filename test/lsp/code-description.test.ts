/** Each diagnostic links its rule page when the client says where the pages are (the extension ships docs/rules/). */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ROOT, TestClient, uri, workspace } from './client.ts';

const SEED = 'seed-node/usr/lib/systemd/system/kubelet.service';

describe('diagnostics link their rule pages (codeDescription)', () => {
  const ws = workspace('seed-node');
  const client = new TestClient();
  before(async () => {
    await client.initialize([ws.dir], {}, { debounceMs: 0, docsBase: uri(join(ROOT, 'docs', 'rules')) });
  });
  after(async () => {
    await client.close();
    ws.dispose();
  });

  test('every diagnostic of the seed unit points at an existing docs/rules/<id>.md', async () => {
    const seed = client.open(ws.path(SEED), ws.read(SEED));
    const p = await client.waitDiagnostics(seed, (ds) => ds.some((d) => d.code === 'unit-continuation-swallows-directive'));
    assert.ok(p.diagnostics.length > 0);
    for (const d of p.diagnostics) {
      assert.ok(d.codeDescription, `${d.code} has no link`);
      const file = fileURLToPath(d.codeDescription.href);
      assert.equal(file, join(ROOT, 'docs', 'rules', `${d.code}.md`));
      assert.ok(existsSync(file), `${file} exists`);
    }
  });
});
